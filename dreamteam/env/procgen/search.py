"""Breadth-first searches and the best-of-candidates loop shared by the procedural generators and planners."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

Cell = tuple[int, int]
Parents = Mapping[Any, tuple[Any, Any] | None]
Scored = tuple[dict[str, Any], float]


def shortest_path[S: Hashable, T](
    start: S, successors: Callable[[S], Iterable[tuple[T, S]]], is_goal: Callable[[S], bool]
) -> list[T] | None:
    """The steps of a shortest path from `start` to a goal state (successors give (step, state)), or None."""
    parents: dict[S, tuple[S, T] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if is_goal(state):
            return unwind(parents, state)
        for step, nxt in successors(state):
            if nxt not in parents:
                parents[nxt] = (state, step)
                queue.append(nxt)
    return None


def unwind(parents: Parents, end: Any) -> list[Any]:
    """The steps that led from a search's start (the state whose parent is None) to `end`."""
    steps: list[Any] = []
    link = parents[end]
    while link is not None:
        previous, step = link
        steps.append(step)
        link = parents[previous]
    return steps[::-1]


def distances(
    start: Cell, is_open: Callable[[Cell], bool], steps: Sequence[Cell], until: Cell | None = None
) -> dict[Cell, int]:
    """Step counts from `start` to every open cell reachable from it (stopping once `until` is reached)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == until:
            break
        for dx, dy in steps:
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt not in dist and is_open(nxt):
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def best_candidate(draw: Callable[[], Scored | None], attempts: int, wanted: int) -> dict[str, Any] | None:
    """The highest-scoring of the first `wanted` candidates `draw` yields in `attempts` tries (first on ties)."""
    best: Scored | None = None
    tried = 0
    for _ in range(attempts):
        found = draw()
        if found is None:
            continue
        tried += 1
        if best is None or found[1] > best[1]:
            best = found
        if tried == wanted:
            break
    return None if best is None else best[0]
