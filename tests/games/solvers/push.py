"""Reference solver for `push`: breadth-first search over (player cell, block cells), fewest moves first."""

from __future__ import annotations

from collections import deque
from typing import Any

Step = tuple[int, int | None, int | None]
Cell = tuple[int, int]
State = tuple[Cell, frozenset[Cell]]

MOVES = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}


def successors(walls: frozenset[Cell], state: State) -> list[tuple[int, State]]:
    """(action id, next state) for every move: walk onto floor, or push one block onto free floor."""
    (x, y), blocks = state
    out = []
    for action, (dx, dy) in MOVES.items():
        ahead = (x + dx, y + dy)
        if ahead in walls:
            continue
        if ahead in blocks:
            behind = (ahead[0] + dx, ahead[1] + dy)
            if behind in walls or behind in blocks:
                continue
            out.append((action, (ahead, (blocks - {ahead}) | {behind})))
        else:
            out.append((action, (ahead, blocks)))
    return out


def plan(walls: frozenset[Cell], targets: frozenset[Cell], start: State, limit: int = 2_000_000) -> list[int]:
    """Action ids of a shortest move sequence that covers every target with a block."""
    parent: dict[State, tuple[State, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[1] == targets:
            return _path_to(parent, state)
        for action, nxt in successors(walls, state):
            if nxt not in parent:
                parent[nxt] = (state, action)
                queue.append(nxt)
        if len(parent) > limit:
            raise ValueError(f"search gave up after {limit} states")
    raise ValueError("no solution")


def _path_to(parent: dict[State, tuple[State, int] | None], state: State) -> list[int]:
    path: list[int] = []
    link = parent[state]
    while link is not None:
        state, action = link
        path.append(action)
        link = parent[state]
    return path[::-1]


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Shortest move sequence from the game's current state that covers every target."""
    assert game.level_index == level_index, "game is not at the requested level"
    start: State = (game.player_cell, frozenset(game.blocks))
    path = plan(frozenset(game.walls), frozenset(game.targets), start)
    return [(action, None, None) for action in path]
