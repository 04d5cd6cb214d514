"""Procedural `copy` checks of its own: valid palettes and layouts, fewest clicks, clicks as planned. Shared checks: test_families.py."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from arcengine import ActionInput, GameAction

from dreamteam.env.procgen import generate, load_family
from dreamteam.env.procgen.copy import (
    LAYOUTS,
    MAX_NULL_COMBINATIONS,
    PATTERNS,
    CopyLevel,
    apply_clicks,
    board_size,
    click_counts,
    click_point,
    null_dimension,
)
from tests.procgen.helpers import check_palette, load_game

FAMILY = "copy"


def test_palettes_layouts_and_cycle_directions_vary_and_are_valid() -> None:
    variants = [generate(FAMILY, seed).variant for seed in range(1, 9)]
    for variant in variants:
        palette = variant["palette"]
        check_palette({"background": palette["background"]}, "background", list(palette["cycle"]))
    assert {v["layout"] for v in variants} == set(LAYOUTS)
    assert {v["step"] for v in variants} == {1, -1}


def test_levels_grow_and_add_click_patterns() -> None:
    for seed in range(1, 6):
        levels = generate(FAMILY, seed).variant["levels"]
        sizes = [len(level["target"]) for level in levels]
        assert sizes == sorted(sizes) and sizes[0] == 3
        assert levels[0]["pattern"] == [[0, 0]] and len(levels[-1]["pattern"]) >= 3
        for level in levels:
            assert level["target"] != level["canvas"]
            assert len(level["pattern"]) == 1 or level["colours"] in (2, 3, 5), (
                "non-trivial patterns need a prime cycle"
            )


def test_click_counts_are_the_fewest_possible() -> None:
    level = CopyLevel(
        target=((1, 0, 1), (0, 2, 0), (1, 0, 1)),
        canvas=((0, 0, 0), (0, 0, 0), (0, 0, 0)),
        colours=3,
        pattern=PATTERNS["plus"],
    )
    cells = [(c, r) for r in range(3) for c in range(3)]
    target = [list(row) for row in level.target]
    best = min(
        sum(counts)
        for counts in itertools.product(range(3), repeat=9)
        if apply_clicks(level, -1, [cell for cell, n in zip(cells, counts, strict=True) for _ in range(n)])
        == target
    )
    counts = click_counts(level, -1)
    assert sum(counts) == best
    assert (
        apply_clicks(level, -1, [cell for cell, n in zip(cells, counts, strict=True) for _ in range(n)])
        == target
    )


def test_large_levels_are_bigger_boards_with_multi_cell_patterns_and_exact_plans() -> None:
    for seed in range(1, 4):
        standard = generate(FAMILY, seed).variant["levels"]
        data = generate(FAMILY, seed, "large")
        levels, layout = data.variant["levels"], data.variant["layout"]
        sizes = [len(level["target"]) for level in levels]
        assert len(levels) in (5, 6) and sizes == sorted(sizes)
        assert sizes[0] >= max(len(level["target"]) for level in standard) and sizes[-1] >= 12
        for level in levels:
            size, colours, pattern = len(level["target"]), level["colours"], level["pattern"]
            assert len(pattern) >= 2 and colours in (3, 5) and level["target"] != level["canvas"]
            assert min(64 // side for side in board_size(size, layout)) >= 2, "cells of at least 2 pixels"
            assert colours ** null_dimension(size, tuple(map(tuple, pattern)), colours) <= MAX_NULL_COMBINATIONS


def test_large_solutions_grow_from_standard_last_levels_to_about_a_hundred_clicks() -> None:
    plan = load_family(FAMILY).plan
    for seed in (1, 2):
        standard = [len(s) for s in plan(generate(FAMILY, seed))]
        large = [len(s) for s in plan(generate(FAMILY, seed, "large"))]
        assert large[0] >= standard[-1] // 2 and large[-1] >= 90
        assert large[-1] > 2 * large[0] and sum(large) < 1000


def _click(game: Any, x: int, y: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.ACTION6, data={"x": x, "y": y}), raw=True)


def test_a_click_changes_exactly_the_pattern_cells_of_the_written_module(written: dict[int, Path]) -> None:
    directory = written[1]
    data = generate(FAMILY, 1)
    game = load_game(directory)
    game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
    for level_index, solution in enumerate(load_family(FAMILY).plan(data)):
        spec = data.variant["levels"][level_index]
        size, before = len(spec["target"]), game.canvas.copy()
        _click(game, *click_point(size, data.variant["layout"], 1, 1))
        changed = {(int(c), int(r)) for r, c in zip(*(game.canvas != before).nonzero(), strict=True)}
        assert changed == {
            (1 + dx, 1 + dy) for dx, dy in spec["pattern"] if 0 <= 1 + dx < size and 0 <= 1 + dy < size
        }
        game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
        for action in solution:
            _click(game, action.x, action.y)
        assert game.level_index == level_index + 1 or level_index == len(data.variant["levels"]) - 1
