"""Procedural `push` checks of its own: farthest starts, planners agreeing, large levels. Shared: test_families.py, test_large.py."""

from __future__ import annotations

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.push import (
    Room,
    deepest_from_solved,
    farthest_from_solved,
    plan,
    solve,
    solve_layered,
)

FAMILY = "push"


def blocks_of(rows: list[str]) -> int:
    """Blocks in a level, on a target or not."""
    return sum(row.count("B") + row.count("*") for row in rows)


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


def test_layered_search_and_planner_agree_with_the_single_state_ones() -> None:
    """The large profile's bitmask search finds the same farthest distance and shortest solutions."""
    for seed in (3, 4):
        for level in generate(FAMILY, seed).variant["levels"]:
            rows = level["rows"]
            room = Room.of(rows)
            targets = room.mask(rows, "T*+")
            assert deepest_from_solved(room, targets, 10**9)[1] == farthest_from_solved(room, targets)[1]
            assert len(solve_layered(rows)) == len(solve(rows))


def test_large_levels_are_bigger_fuller_and_longer_than_standard_ones() -> None:
    standard = [level["rows"] for level in generate(FAMILY, 1).variant["levels"]]
    data = generate(FAMILY, 1, "large")
    large = [level["rows"] for level in data.variant["levels"]]
    blocks = [blocks_of(rows) for rows in large]
    assert len(large) == len(standard) and blocks == sorted(blocks)
    assert blocks[0] >= max(map(blocks_of, standard)) and blocks[-1] >= 5
    floor = [sum(c != "#" for row in rows for c in row) for rows in large]
    assert min(floor) > max(sum(c != "#" for row in rows for c in row) for rows in standard)
    assert all(len(rows) <= 16 and len(rows[0]) <= 16 for rows in large), "cells of 4 pixels or more"
    assert min(map(len, plan(data))) >= max(map(len, plan(generate(FAMILY, 1))))
