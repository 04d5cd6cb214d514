"""Reference solver for `twin`: breadth-first search over the joint avatar positions with our own rule model."""

from __future__ import annotations

from collections import deque
from typing import Any

Step = tuple[int, int | None, int | None]
Cell = tuple[int, int]
Joint = tuple[Cell, ...]
MOVES: dict[int, Cell] = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}


def _step(walls: set[Cell], modes: list[str], joint: Joint, action: int) -> Joint:
    """Every avatar takes the key's step (mirrored or flipped by its room) unless a wall is in the way."""
    out = []
    for (x, y), mode in zip(joint, modes, strict=True):
        dx, dy = MOVES[action]
        dx = -dx if mode == "mirror" else dx
        dy = -dy if mode == "flip" else dy
        out.append((x, y) if (x + dx, y + dy) in walls else (x + dx, y + dy))
    return tuple(out)


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Shortest key sequence that puts every avatar on its goal at the same time."""
    start: Joint = tuple(game.avatars)
    goal: Joint = tuple(game.goals)
    parents: dict[Joint, tuple[Joint, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        joint = queue.popleft()
        if joint == goal:
            return _path(parents, joint)
        for action in MOVES:
            nxt = _step(game.walls, game.modes, joint, action)
            if nxt not in parents:
                parents[nxt] = (joint, action)
                queue.append(nxt)
    raise ValueError(f"twin level {level_index} cannot be solved")


def _path(parents: dict[Joint, tuple[Joint, int] | None], end: Joint) -> list[Step]:
    steps: list[Step] = []
    link = parents[end]
    while link is not None:
        previous, action = link
        steps.append((action, None, None))
        link = parents[previous]
    return steps[::-1]
