"""Procedural `twin` checks of its own: varied modes and stacking, joint plans longer than any lone one. Shared checks: test_families.py."""

from __future__ import annotations

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.twin import MODES, STEPS, mode_step, parse_level, shortest_keys
from tests.procgen.helpers import check_moves, check_palette

FAMILY = "twin"


def test_palette_moves_modes_and_stacking_vary_and_are_valid() -> None:
    variants = [generate(FAMILY, seed).variant for seed in range(1, 6)]
    for variant in variants:
        palette = variant["palette"]
        flat = {"floor": palette["floor"], "wall": palette["wall"], "goal": palette["goal"]}
        check_palette(flat, "floor", list(palette["avatar"].values()))
        check_moves(variant["moves"])
        for level in variant["levels"]:
            modes = [mode for mode, _ in level["rooms"]]
            assert len(set(modes)) == len(modes) and set(modes) <= set(palette["avatar"]) <= set(MODES)
    assert len({tuple(sorted(v["palette"]["avatar"])) for v in variants}) > 1
    assert {level["stack"] for v in variants for level in v["levels"]} == {"row", "column"}


def test_every_mode_maps_the_four_keys_onto_the_four_directions() -> None:
    for mode in MODES:
        assert sorted(mode_step(mode, step) for step in STEPS) == sorted(STEPS)


def test_levels_add_a_room_and_need_the_avatars_desynchronised() -> None:
    for seed in range(1, 4):
        levels = [parse_level(spec) for spec in generate(FAMILY, seed).variant["levels"]]
        assert len(levels[0].modes) == 2 and len(levels[-1].modes) == 3
        for level in levels:
            keys = shortest_keys(level)
            assert keys is not None
            lone = [
                _lone_distance(level.walls, a, g) for a, g in zip(level.avatars, level.goals, strict=True)
            ]
            assert len(keys) > max(lone), "walls must be used to line the avatars up"


def _lone_distance(walls: frozenset[tuple[int, int]], start: tuple[int, int], goal: tuple[int, int]) -> int:
    frontier, seen, steps = {start}, {start}, 0
    while goal not in frontier:
        frontier = {
            (x + dx, y + dy) for x, y in frontier for dx, dy in STEPS if (x + dx, y + dy) not in walls
        } - seen
        assert frontier, "goal unreachable alone"
        seen |= frontier
        steps += 1
    return steps
