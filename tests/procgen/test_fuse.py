"""Procedural `fuse` checks of its own: valid palette, a fuse that binds, the indicator lit in its corner, large rinks.

Shared checks: test_families.py and test_large.py."""

from __future__ import annotations

from pathlib import Path

from arcengine import ActionInput, GameAction

from dreamteam.env.procgen import generate, load_family
from dreamteam.env.procgen.fuse import (
    CORNERS,
    LARGE_SIDE,
    NO_FUSE,
    FuseLevel,
    exit_distances,
    parse_level,
    shortest_pushes,
)
from tests.procgen.helpers import check_moves, check_palette, load_game

FAMILY = "fuse"


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


def test_the_indicator_corner_lights_while_the_spark_is_carried(written: dict[int, Path]) -> None:
    for seed, directory in written.items():
        data = generate(FAMILY, seed)
        game = load_game(directory)
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


def test_large_rinks_are_bigger_denser_and_longer_to_solve_than_standard_ones() -> None:
    for seed in (1, 2):
        standard, large = (generate(FAMILY, seed, size).variant["levels"] for size in ("standard", "large"))
        assert len(large) in (5, 6)
        last = parse_level(standard[-1])
        binding, lengths = 0, []
        for spec in large:
            level = parse_level(spec)
            width, height = len(spec["map"][0]), len(spec["map"])
            assert min(width, height) >= 13 and max(width, height) <= LARGE_SIDE, "cells stay 2x2 pixels"
            assert len(level.walls) > len(last.walls) and 3 <= level.fuse <= 5
            pushes = shortest_pushes(level)
            unlimited = shortest_pushes(FuseLevel(level.walls, level.door, level.spark, level.player, NO_FUSE))
            assert pushes is not None and unlimited is not None
            lengths.append(len(pushes))
            binding += len(pushes) > len(unlimited)
        assert lengths[0] >= len(shortest_pushes(last) or ()) and lengths[-1] >= 23
        assert lengths == sorted(lengths) and binding >= len(large) - 1


def test_exit_distances_agree_with_the_planner_from_every_start() -> None:
    for spec in [*generate(FAMILY, 1).variant["levels"], generate(FAMILY, 1, "large").variant["levels"][0]]:
        level = parse_level(spec)
        ice = [(x, y) for y, row in enumerate(spec["map"]) for x, ch in enumerate(row) if ch in ".PS"]
        distance = exit_distances(level, [(cell, False, 0) for cell in ice])
        for cell in ice:
            pushes = shortest_pushes(FuseLevel(level.walls, level.door, level.spark, cell, level.fuse))
            assert distance.get((cell, False, 0)) == (None if pushes is None else len(pushes))
