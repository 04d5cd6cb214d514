"""Procedural `flip` checks of its own: valid palettes and click patterns, the large profile, and the `generate` command.

Shared checks: test_families.py and test_large.py."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from dreamteam.cli import generate_cmd
from dreamteam.env.procgen import generate, load_family
from dreamteam.env.procgen.flip import LARGE, PATTERNS, groups_of, start_unlit, toggle_matrix
from dreamteam.errors import UserError
from tests.procgen.helpers import check_palette, metadata

FAMILY = "flip"


def test_palettes_and_patterns_are_valid_and_levels_start_unsolved() -> None:
    patterns = set()
    for seed in range(1, 13):
        variant = generate(FAMILY, seed).variant
        check_palette(variant["palette"], "background")
        assert variant["click"] in PATTERNS.values()
        patterns.add(str(variant["click"]))
        for level in variant["levels"]:
            letters, masks = toggle_matrix(level["layout"], variant["click"])
            assert start_unlit(letters, masks, level["scramble"]) != 0
    assert len(patterns) >= 3


def test_large_boards_are_bigger_and_need_more_clicks_than_standard_ones() -> None:
    for seed in (1, 2, 3):
        standard, large = generate(FAMILY, seed), generate(FAMILY, seed, "large")
        biggest = max(len(groups_of(level["layout"])) for level in standard.variant["levels"])
        tiles = [len(groups_of(level["layout"])) for level in large.variant["levels"]]
        clicks = [len(s) for s in load_family(FAMILY).plan(large)]
        assert len(large.variant["levels"]) == len(standard.variant["levels"])
        assert min(tiles) >= biggest - 2 and max(tiles) >= 2 * biggest, (biggest, tiles)
        assert clicks == sorted(clicks), clicks
        for level, least, fewest in zip(large.variant["levels"], LARGE.needed, clicks, strict=True):
            assert least <= fewest <= least + LARGE.extra
            assert len(level["scramble"]) == len(set(level["scramble"])) >= fewest


def test_large_boards_fit_the_frame_with_cells_of_three_pixels() -> None:
    for seed in (1, 2, 3):
        for level in generate(FAMILY, seed, "large").variant["levels"]:
            layout = level["layout"]
            assert len({len(row) for row in layout}) == 1
            assert 64 // (2 * max(len(layout), len(layout[0])) + 1) >= 3
            assert not set("".join(layout)) & set('"\\')


def _generate_command(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    generate_cmd.register(parser.add_subparsers())
    return parser.parse_args(["generate", *argv])


def test_generate_command_writes_each_family_and_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = _generate_command("flip", "--seeds", "2,5-6", "--out", str(tmp_path))
    assert args.handler(args) == 0
    assert sorted(p.name for p in (tmp_path / "flip").iterdir()) == ["s0002", "s0005", "s0006"]
    assert metadata(tmp_path / "flip" / "s0005")["game_id"] == "flip-s0005"
    assert capsys.readouterr().out.count("flip-s000") == 3


@pytest.mark.parametrize(("families", "seeds", "message"), [
    ("flop", "1", "unknown game family flop"),
    ("flip", "3-1", "the end is below the start"),
    ("flip", "x", "bad seed spec"),
    ("flip", "-2", "bad seed spec"),
])
def test_generate_command_reports_user_mistakes(tmp_path: Path, families: str, seeds: str, message: str) -> None:
    args = _generate_command(families, "--seeds", seeds, "--out", str(tmp_path))
    with pytest.raises(UserError, match=message):
        args.handler(args)


def test_seed_specs_expand_in_order_without_repeats() -> None:
    assert generate_cmd.parse_seeds("3,1-4,1000") == [3, 1, 2, 4, 1000]
    assert generate_cmd.parse_families("all") == sorted(generate_cmd.family_names())
