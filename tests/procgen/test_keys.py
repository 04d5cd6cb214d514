"""Procedural `keys` checks of its own: valid palette and shapes, levels needing keys or plates. Shared checks: test_families.py."""

from __future__ import annotations

from pathlib import Path

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.keys import difficulty
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
