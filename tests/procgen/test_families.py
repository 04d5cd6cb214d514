"""Checks every procedural family passes: written as planned, deterministic, varied, v1-compatible, verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.env.procgen import family_names, generate
from tests.procgen.conftest import WrittenVariants
from tests.procgen.helpers import (
    check_deterministic,
    check_moves,
    check_palette,
    check_seeds_differ,
    check_v1_data,
    check_verification_catches_bad_solutions,
    check_written_variant,
)

# Family -> (per-level key holding its layout, variant key holding a rule that varies across seeds).
VARYING_KEYS: dict[str, tuple[str, str]] = {
    "copy": ("target", "layout"),
    "flip": ("layout", "click"),
    "fuse": ("map", "moves"),
    "keys": ("rows", "moves"),
    "lava": ("map", "moves"),
    "maze": ("rows", "moves"),
    "push": ("rows", "moves"),
    "twin": ("rooms", "moves"),
}

# Families whose palette is plain kinds on a floor background, with the seeds each one checks.
FLOOR_PALETTE_SEEDS: dict[str, range] = {"lava": range(1, 9), "maze": range(1, 9), "push": range(4, 8)}

families = pytest.mark.parametrize("family", family_names())


def test_every_family_names_its_varying_keys() -> None:
    assert sorted(VARYING_KEYS) == family_names()


@families
def test_written_variants_match_generator_and_planner(family: str, written_variants: WrittenVariants) -> None:
    for seed, directory in written_variants(family).items():
        check_written_variant(family, seed, directory)


@families
def test_same_seed_gives_identical_files(
    family: str, written_variants: WrittenVariants, tmp_path: Path
) -> None:
    check_deterministic(family, written_variants(family), tmp_path)


@families
def test_seeds_differ_in_layout_palette_and_rule(family: str, written_variants: WrittenVariants) -> None:
    layout_key, rule_key = VARYING_KEYS[family]
    check_seeds_differ(family, written_variants(family), layout_key, rule_key)


@families
def test_v1_data_round_trips_and_plays_as_v1(family: str, tmp_path: Path) -> None:
    check_v1_data(family, tmp_path)


@families
def test_verification_refuses_wrong_solutions(family: str, tmp_path: Path) -> None:
    check_verification_catches_bad_solutions(family, tmp_path)


@pytest.mark.parametrize("family", sorted(FLOOR_PALETTE_SEEDS))
def test_floor_palette_and_moves_are_valid(family: str) -> None:
    for seed in FLOOR_PALETTE_SEEDS[family]:
        variant = generate(family, seed).variant
        check_palette(variant["palette"], "floor")
        check_moves(variant["moves"])
