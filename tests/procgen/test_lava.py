"""Procedural `lava` variants: deterministic, varied, closed maps, sentries that matter, verified by the toolkit."""

from __future__ import annotations

from pathlib import Path

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.lava import parse_level, shortest_steps
from tests.procgen.helpers import (
    check_deterministic,
    check_moves,
    check_palette,
    check_seeds_differ,
    check_v1_data,
    check_verification_catches_bad_solutions,
    check_written_variant,
)

FAMILY = "lava"


def test_written_variants_match_generator_and_planner(written: dict[int, Path]) -> None:
    for seed, directory in written.items():
        check_written_variant(FAMILY, seed, directory)


def test_same_seed_gives_identical_files(written: dict[int, Path], tmp_path: Path) -> None:
    check_deterministic(FAMILY, written, tmp_path)


def test_seeds_differ_in_layout_palette_and_directions(written: dict[int, Path]) -> None:
    check_seeds_differ(FAMILY, written, "map", "moves")


def test_palette_and_moves_are_valid() -> None:
    for seed in range(1, 9):
        variant = generate(FAMILY, seed).variant
        check_palette(variant["palette"], "floor")
        check_moves(variant["moves"])


def test_maps_are_closed_and_sentries_patrol_free_floor() -> None:
    for seed in (1, 2):
        for spec in generate(FAMILY, seed).variant["levels"]:
            rows = spec["map"]
            assert len({len(r) for r in rows}) == 1
            assert set(rows[0]) == set(rows[-1]) == {"#"} and all(r[0] == r[-1] == "#" for r in rows)
            text = "".join(rows)
            assert text.count("P") == text.count("G") == 1
            level = parse_level(spec)
            cells = [cell for route in level.routes for cell in set(route)]
            assert len(cells) == len(set(cells)), "patrols never share a cell"
            assert all(rows[y][x] == "." for x, y in cells), "patrols stay on plain floor"


def test_sentries_arrive_later_and_force_detours_or_waits() -> None:
    forced = 0
    for seed in range(1, 6):
        levels = [parse_level(spec) for spec in generate(FAMILY, seed).variant["levels"]]
        assert not levels[0].routes and len(levels[-1].routes) >= 2
        for level in levels[2:]:
            with_sentries, without = shortest_steps(level), shortest_steps(level, sentries=False)
            assert with_sentries is not None and without is not None
            forced += len(with_sentries) > len(without)
    assert forced >= 10, "in most sentry levels the lava-only shortest path is not safe"


def test_v1_data_round_trips_and_plays_as_v1(tmp_path: Path) -> None:
    check_v1_data(FAMILY, tmp_path)


def test_verification_refuses_wrong_solutions(tmp_path: Path) -> None:
    check_verification_catches_bad_solutions(FAMILY, tmp_path)
