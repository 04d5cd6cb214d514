"""Procedural `push` variants: deterministic, varied, move-optimal baselines, verified through the toolkit."""

from __future__ import annotations

from pathlib import Path

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.push import Room, farthest_from_solved, solve
from tests.procgen.helpers import (
    check_deterministic,
    check_moves,
    check_palette,
    check_seeds_differ,
    check_v1_data,
    check_verification_catches_bad_solutions,
    check_written_variant,
)

FAMILY = "push"


def test_written_variants_match_generator_and_planner(written: dict[int, Path]) -> None:
    for seed, directory in written.items():
        check_written_variant(FAMILY, seed, directory)


def test_same_seed_gives_identical_files(written: dict[int, Path], tmp_path: Path) -> None:
    check_deterministic(FAMILY, written, tmp_path)


def test_seeds_differ_in_layout_palette_and_directions(written: dict[int, Path]) -> None:
    check_seeds_differ(FAMILY, written, "rows", "moves")


def test_palette_and_moves_are_valid() -> None:
    for seed in range(4, 8):
        variant = generate(FAMILY, seed).variant
        check_palette(variant["palette"], "floor")
        check_moves(variant["moves"])


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


def test_v1_data_round_trips_and_plays_as_v1(tmp_path: Path) -> None:
    check_v1_data(FAMILY, tmp_path)


def test_verification_refuses_wrong_solutions(tmp_path: Path) -> None:
    check_verification_catches_bad_solutions(FAMILY, tmp_path)
