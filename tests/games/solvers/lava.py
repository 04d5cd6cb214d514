"""Reference solver for `lava`: breadth-first search over (player cell, sentry phase) with our own rule model."""

from __future__ import annotations

import math
from collections import deque
from typing import Any

Step = tuple[int, int | None, int | None]
Cell = tuple[int, int]
# Waiting first, so that among equally short plans the search prefers an explicit wait.
MOVES: dict[int, Cell] = {5: (0, 0), 1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}


def _sentries(routes: list[list[Cell]], tick: int) -> list[Cell]:
    return [route[tick % len(route)] for route in routes]


def _next_cell(game: Any, routes: list[list[Cell]], cell: Cell, tick: int, action: int) -> Cell | None:
    """Where the player ends up after `action` at `tick`, or None if that action kills it."""
    dx, dy = MOVES[action]
    target = (cell[0] + dx, cell[1] + dy)
    new = cell if target in game.walls else target
    before, after = _sentries(routes, tick), _sentries(routes, tick + 1)
    crossed = any(b == new and a == cell for b, a in zip(before, after, strict=True))
    if new in game.lava or new in after or crossed:
        return None
    return new


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Shortest safe action sequence from the game's current player cell and tick to the goal."""
    routes: list[list[Cell]] = [list(r) for r in game.routes]
    period = math.lcm(*(len(r) for r in routes)) if routes else 1
    start = (game.player, game.tick % period)
    parents: dict[tuple[Cell, int], tuple[tuple[Cell, int], int] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell, phase = queue.popleft()
        for action in MOVES:
            new = _next_cell(game, routes, cell, phase, action)
            if new is None:
                continue
            state = (new, (phase + 1) % period)
            if state in parents:
                continue
            parents[state] = ((cell, phase), action)
            if new == game.goal:
                return _path(parents, state)
            queue.append(state)
    raise ValueError(f"lava level {level_index} has no safe path to the goal")


def _path(
    parents: dict[tuple[Cell, int], tuple[tuple[Cell, int], int] | None], end: tuple[Cell, int]
) -> list[Step]:
    steps: list[Step] = []
    link = parents[end]
    while link is not None:
        previous, action = link
        steps.append((action, None, None))
        link = parents[previous]
    return steps[::-1]
