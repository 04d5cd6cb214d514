"""Reference solver for `fuse`: breadth-first search over (player cell, spark carried, fuse left) with our own rules."""

from __future__ import annotations

from collections import deque
from typing import Any

Step = tuple[int, int | None, int | None]
Cell = tuple[int, int]
State = tuple[Cell, bool, int]  # player, carrying, actions of fuse left
MOVES: dict[int, Cell] = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}


def slide(game: Any, state: State, action: int) -> tuple[State, bool]:
    """Outcome of one push: the new state and whether the player went through the door."""
    (x, y), carrying, fuse_left = state
    dx, dy = MOVES[action]
    picked = False
    while True:
        nxt = (x + dx, y + dy)
        if nxt in game.walls or (nxt == game.door and not carrying):
            break
        x, y = nxt
        if nxt == game.spark_home and not carrying:
            carrying, fuse_left, picked = True, game.fuse, True
        if nxt == game.door:
            return ((x, y), carrying, fuse_left), True
    if carrying and not picked:
        fuse_left -= 1
        carrying = fuse_left > 0
    return ((x, y), carrying, fuse_left if carrying else 0), False


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Fewest pushes that bring the player through the door while it carries the spark."""
    start: State = (game.player, game.carrying, game.fuse_left)
    parents: dict[State, tuple[State, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for action in MOVES:
            nxt, exited = slide(game, state, action)
            if exited:
                return _path(parents, state) + [(action, None, None)]
            if nxt not in parents:
                parents[nxt] = (state, action)
                queue.append(nxt)
    raise ValueError(f"fuse level {level_index} cannot be solved")


def _path(parents: dict[State, tuple[State, int] | None], end: State) -> list[Step]:
    steps: list[Step] = []
    link = parents[end]
    while link is not None:
        previous, action = link
        steps.append((action, None, None))
        link = parents[previous]
    return steps[::-1]
