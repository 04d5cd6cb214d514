"""Procedural `twin` checks of its own: varied modes and stacking, joint plans longer than any lone one,
an optimal planner, and the bigger rooms of the large profile. Shared checks: test_families.py, test_large.py."""

from __future__ import annotations

import random
from typing import Any

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.search import shortest_path
from dreamteam.env.procgen.twin import (
    MAX_BOARD,
    MODES,
    STEPS,
    LevelPlan,
    TwinLevel,
    _room_rows,
    joint_step,
    mode_step,
    parse_level,
    shortest_keys,
)
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


def test_the_planner_finds_as_few_keys_as_breadth_first_search() -> None:
    rng = random.Random(5)
    levels = [parse_level(spec) for seed in (1, 2) for spec in generate(FAMILY, seed).variant["levels"]]
    for _ in range(60):
        plan = LevelPlan(rng.choice((2, 3)), rng.randint(3, 5), rng.randint(3, 5), rng.uniform(0, 0.3), "row")
        rooms = tuple((mode, _room_rows(rng, plan)) for mode in rng.sample(MODES, plan.rooms))
        levels.append(parse_level({"rooms": rooms, "stack": "row"}))
    for level in levels:
        keys, fewest = shortest_keys(level), _breadth_first(level)
        assert (keys is None) == (fewest is None)
        if keys is not None and fewest is not None:
            assert len(keys) == len(fewest)
            joint = level.avatars
            for step in keys:
                joint = joint_step(level, joint, step)
            assert joint == level.goals


def test_large_levels_have_more_bigger_rooms_in_the_frame_and_rise_in_keys() -> None:
    for seed in (1, 2):
        standard = generate(FAMILY, seed).variant["levels"]
        variant = generate(FAMILY, seed, "large").variant
        assert len(variant["palette"]["avatar"]) == 4
        rooms = [len(spec["rooms"]) for spec in variant["levels"]]
        assert rooms == sorted(rooms) and rooms[0] == 3 and rooms[-1] == 4
        assert min(map(_floor, variant["levels"])) > max(map(_floor, standard))
        assert all(max(_board(spec)) <= MAX_BOARD for spec in variant["levels"])
        keys = [len(shortest_keys(parse_level(spec)) or []) for spec in variant["levels"]]
        assert keys[0] >= 15 and keys[-1] >= 35 and keys[-1] == max(keys)
        assert keys == [k for _, k in sorted(zip(rooms, keys, strict=True))], "ordered by rooms, then keys"


def _floor(spec: dict[str, Any]) -> int:
    """Floor cells of a level (every room's cells that are not walls)."""
    return sum(len(row) - row.count("#") for _, rows in spec["rooms"] for row in rows)


def _board(spec: dict[str, Any]) -> tuple[int, int]:
    """Width and height of a level's board in cells."""
    grids = [rows for _, rows in spec["rooms"]]
    if spec["stack"] == "row":
        return sum(len(rows[0]) for rows in grids), len(grids[0])
    return len(grids[0][0]), sum(len(rows) for rows in grids)


def _breadth_first(level: TwinLevel) -> list[tuple[int, int]] | None:
    return shortest_path(
        level.avatars,
        lambda joint: [(step, joint_step(level, joint, step)) for step in STEPS],
        lambda joint: joint == level.goals,
    )
