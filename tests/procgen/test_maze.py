"""Procedural `maze` checks of its own: closed mazes with a budget that fits and tightens. Shared checks: test_families.py."""

from __future__ import annotations

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.maze import find, shortest_steps

FAMILY = "maze"


def test_levels_are_closed_mazes_with_a_fitting_budget_that_tightens() -> None:
    variant = generate(FAMILY, 4).variant
    slacks = []
    for level in variant["levels"]:
        rows = level["rows"]
        assert len({len(r) for r in rows}) == 1
        assert set(rows[0]) == set(rows[-1]) == {"#"} and all(r[0] == r[-1] == "#" for r in rows)
        assert "".join(rows).count("P") == "".join(rows).count("E") == 1
        shortest = len(shortest_steps(rows, find(rows, "P"), find(rows, "E")))
        slacks.append(level["budget"] - shortest)
    assert min(slacks) >= 0
    assert slacks[-1] < slacks[0]


def test_large_mazes_are_wider_than_standard_ones_and_fit_the_frame() -> None:
    for seed in (1, 2, 3):
        standard = generate(FAMILY, seed).variant["levels"]
        large = generate(FAMILY, seed, "large").variant["levels"]
        assert max(len(level["rows"][0]) for level in large) > max(len(level["rows"][0]) for level in standard)
        for level in large:
            rows, width = level["rows"], len(level["rows"][0])
            assert len(shortest_steps(rows, find(rows, "P"), find(rows, "E"))) <= level["budget"]
            assert width <= 64 and len(rows) + -(-level["budget"] // width) <= 64
