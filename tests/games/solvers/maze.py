"""Reference solver for `maze`: breadth-first search over the maze from the player's cell to the exit."""

from __future__ import annotations

from collections import deque
from typing import Any

Step = tuple[int, int | None, int | None]

MOVES = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}


def shortest_path(rows: list[str], start: tuple[int, int], goal: tuple[int, int]) -> list[int]:
    """Action ids of a shortest walk from `start` to `goal` through non-wall cells."""
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            break
        for action, (dx, dy) in MOVES.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if rows[nxt[1]][nxt[0]] != "#" and nxt not in parent:
                parent[nxt] = (cell, action)
                queue.append(nxt)
    if goal not in parent:
        raise ValueError("exit unreachable")
    path: list[int] = []
    link = parent[goal]
    while link is not None:
        cell, action = link
        path.append(action)
        link = parent[cell]
    return path[::-1]


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Shortest move sequence that walks the player to the exit within the budget."""
    assert game.level_index == level_index, "game is not at the requested level"
    start = (game.player.x, game.player.y)
    path = shortest_path(game.rows, start, game.exit_cell)
    if len(path) > game.remaining:
        raise ValueError(f"shortest path {len(path)} exceeds budget {game.remaining}")
    return [(action, None, None) for action in path]
