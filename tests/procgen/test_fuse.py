"""Procedural `fuse` variants: deterministic, varied, a fuse that binds, the indicator lit in its corner."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from arcengine import ActionInput, GameAction

from dreamteam.env.procgen import generate, load_family
from dreamteam.env.procgen.fuse import CORNERS, NO_FUSE, FuseLevel, parse_level, shortest_pushes
from tests.procgen.helpers import (
    check_deterministic,
    check_moves,
    check_palette,
    check_seeds_differ,
    check_v1_data,
    check_verification_catches_bad_solutions,
    check_written_variant,
    metadata,
)

FAMILY = "fuse"


def test_written_variants_match_generator_and_planner(written: dict[int, Path]) -> None:
    for seed, directory in written.items():
        check_written_variant(FAMILY, seed, directory)


def test_same_seed_gives_identical_files(written: dict[int, Path], tmp_path: Path) -> None:
    check_deterministic(FAMILY, written, tmp_path)


def test_seeds_differ_in_layout_palette_and_directions(written: dict[int, Path]) -> None:
    check_seeds_differ(FAMILY, written, "map", "moves")


def test_palette_moves_and_indicator_corner_vary_and_are_valid() -> None:
    variants = [generate(FAMILY, seed).variant for seed in range(1, 9)]
    for variant in variants:
        check_palette(variant["palette"], "floor")
        check_moves(variant["moves"])
    assert len({tuple(v["indicator"]) for v in variants}) > 1
    assert {tuple(v["indicator"]) for v in variants} <= set(CORNERS)


def test_doors_sit_in_the_outer_wall_and_the_fuse_shortens_until_it_binds() -> None:
    binding = 0
    for seed in range(1, 6):
        levels = generate(FAMILY, seed).variant["levels"]
        fuses = [level["fuse"] for level in levels]
        assert fuses == sorted(fuses, reverse=True) and fuses[-1] <= 4
        for spec in levels:
            level = parse_level(spec)
            width, height = len(spec["map"][0]), len(spec["map"])
            x, y = level.door
            assert (x in (0, width - 1)) != (y in (0, height - 1)), "a door is on an edge, never a corner"
            pushes = shortest_pushes(level)
            unlimited = shortest_pushes(
                FuseLevel(level.walls, level.door, level.spark, level.player, NO_FUSE)
            )
            assert pushes is not None and unlimited is not None and len(pushes) >= len(unlimited)
            binding += len(pushes) > len(unlimited)
    assert binding >= 5, "in several levels the spark burns out on the obvious route"


def _load(directory: Path) -> Any:
    """The game object of a written version directory, loaded the way the toolkit loads it."""
    source = directory / f"{metadata(directory)['class_name'].lower()}.py"
    spec = importlib.util.spec_from_file_location(
        f"dt_procgen_{directory.parent.name}_{directory.name}", source
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Fuse()


def test_the_indicator_corner_lights_while_the_spark_is_carried(written: dict[int, Path]) -> None:
    for seed, directory in written.items():
        data = generate(FAMILY, seed)
        game = _load(directory)
        game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
        corner = data.variant["indicator"]
        spark, wall = data.variant["palette"]["spark"], data.variant["palette"]["wall"]
        lit = []
        for action in load_family(FAMILY).plan(data)[0][:-1]:
            frame = game.perform_action(ActionInput(id=GameAction.from_id(action.id)), raw=True).frame[-1]
            scale, x_off, y_off = game.camera._calculate_scale_and_offset()
            width, height = game.camera.width, game.camera.height
            gx, gy = corner[0] % width, corner[1] % height
            colour = int(frame[y_off + gy * scale][x_off + gx * scale])
            assert colour == (spark if game.carrying else wall)
            lit.append(game.carrying)
        assert any(lit), "the first level's plan carries the spark before its last push"


def test_v1_data_round_trips_and_plays_as_v1(tmp_path: Path) -> None:
    check_v1_data(FAMILY, tmp_path)


def test_verification_refuses_wrong_solutions(tmp_path: Path) -> None:
    check_verification_catches_bad_solutions(FAMILY, tmp_path)
