"""The viewer's colours are the official toolkit's."""

from __future__ import annotations

from arc_agi.rendering import COLOR_MAP

from dreamteam.viewer.palette import PALETTE, rgb


def test_palette_matches_the_toolkit() -> None:
    assert len(PALETTE) == 16
    assert [PALETTE[i].upper() for i in range(16)] == [COLOR_MAP[i][:7].upper() for i in range(16)]
    assert rgb(9) == (0x1E, 0x93, 0xFF)
