"""Procedural `flip` checks of its own: valid palettes and click patterns, and the `generate` command. Shared checks: test_families.py."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from dreamteam.cli import generate_cmd
from dreamteam.env.procgen import generate
from dreamteam.env.procgen.flip import PATTERNS, start_unlit, toggle_matrix
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
