"""Procedural `push` checks of its own: the start is farthest from solved, forward search agrees. Shared checks: test_families.py."""

from __future__ import annotations

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.push import Room, farthest_from_solved, solve

FAMILY = "push"


def test_start_is_the_farthest_position_and_forward_search_agrees() -> None:
    """The backward (pull) search and the forward planner are independent; their distances must agree."""
    levels = generate(FAMILY, 3).variant["levels"]
    blocks = [sum(row.count("B") + row.count("*") for row in level["rows"]) for level in levels]
    assert blocks == sorted(blocks) and blocks[0] >= 1 and blocks[-1] >= 3
    for level in levels:
        rows = level["rows"]
        assert blocks[levels.index(level)] == sum(row.count("T") + row.count("*") + row.count("+") for row in rows)
        room = Room.of(rows)
        _, farthest = farthest_from_solved(room, room.mask(rows, "T*+"))
        assert len(solve(rows)) == farthest
