"""Procedural `maze` variants: deterministic, varied, solvable within budget, verified through the toolkit."""

from __future__ import annotations

from pathlib import Path

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.maze import find, shortest_steps
from tests.procgen.helpers import (
    check_deterministic,
    check_moves,
    check_palette,
    check_seeds_differ,
    check_v1_data,
    check_verification_catches_bad_solutions,
    check_written_variant,
)

FAMILY = "maze"


def test_written_variants_match_generator_and_planner(written: dict[int, Path]) -> None:
    for seed, directory in written.items():
        check_written_variant(FAMILY, seed, directory)


def test_same_seed_gives_identical_files(written: dict[int, Path], tmp_path: Path) -> None:
    check_deterministic(FAMILY, written, tmp_path)


def test_seeds_differ_in_layout_palette_and_directions(written: dict[int, Path]) -> None:
    check_seeds_differ(FAMILY, written, "rows", "moves")


def test_palette_and_moves_are_valid() -> None:
    for seed in range(1, 9):
        variant = generate(FAMILY, seed).variant
        check_palette(variant["palette"], "floor")
        check_moves(variant["moves"])


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


def test_v1_data_round_trips_and_plays_as_v1(tmp_path: Path) -> None:
    check_v1_data(FAMILY, tmp_path)


def test_verification_refuses_wrong_solutions(tmp_path: Path) -> None:
    check_verification_catches_bad_solutions(FAMILY, tmp_path)
