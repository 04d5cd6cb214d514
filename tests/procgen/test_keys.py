"""Procedural `keys` checks of its own: valid palette and shapes, levels needing keys or plates. Shared checks: test_families.py."""

from __future__ import annotations

from pathlib import Path

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.keys import difficulty, plan, start_state
from tests.games.solvers.keys import plan as whole_board_plan
from tests.procgen.helpers import check_moves, check_palette, module_source

FAMILY = "keys"


def test_palette_shapes_and_moves_are_valid(written: dict[int, Path]) -> None:
    from dreamteam.env.procgen.common import read_variant_block

    shapes_seen = set()
    for directory in written.values():
        variant = read_variant_block(module_source(directory))
        check_palette(variant["palette"], "floor", variant["group_colours"])
        check_moves(variant["moves"])
        shapes = [str(variant["shapes"][kind]) for kind in ("key", "plate", "open")]
        assert len(set(shapes)) == 3
        assert all(1 <= sum(map(sum, variant["shapes"][kind])) <= 2 for kind in ("key", "plate", "open"))
        shapes_seen.add(tuple(shapes))
    assert len(shapes_seen) > 1


def test_every_level_needs_keys_or_plates_and_later_levels_need_more() -> None:
    scores = [difficulty(level["rows"]) for level in generate(FAMILY, 2).variant["levels"]]
    assert all(score is not None and score[0] >= 1 for score in scores)
    uses = [score[0] for score in scores if score is not None]
    assert uses == sorted(uses) and uses[-1] >= 3


def _objects(rows: list[str]) -> int:
    return sum(char in "RYVOryvo12345678" for row in rows for char in row)


def test_large_levels_are_bigger_fuller_and_need_as_many_keys_or_plates_as_standard_last_levels() -> None:
    for seed in (1, 2):
        standard = generate(FAMILY, seed).variant["levels"]
        large = generate(FAMILY, seed, "large").variant["levels"]
        assert len(large) == len(standard)
        assert min(len(lv["rows"]) * len(lv["rows"][0]) for lv in large) > max(
            len(lv["rows"]) * len(lv["rows"][0]) for lv in standard
        )
        assert all(len(lv["rows"]) <= 32 and len(lv["rows"][0]) <= 32 for lv in large)  # 2x2 pixels per cell
        assert min(_objects(lv["rows"]) for lv in large) > max(_objects(lv["rows"]) for lv in standard)
        scores = [difficulty(lv["rows"]) for lv in large]
        uses = [score[0] for score in scores if score is not None]
        assert len(uses) == len(large) and uses == sorted(uses) and uses[0] >= 4


def test_large_baselines_are_shortest_solutions_over_whole_boards() -> None:
    data = generate(FAMILY, 1, "large")
    baselines = [len(solution) for solution in plan(data)]
    assert baselines == [len(whole_board_plan(start_state(lv["rows"]))) for lv in data.variant["levels"]]
    assert min(baselines) >= 20
