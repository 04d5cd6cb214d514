"""The 16 ARC-AGI-3 colours, as the official toolkit renders frames (`arc_agi.rendering.COLOR_MAP`)."""

from __future__ import annotations

PALETTE: tuple[str, ...] = (
    "#FFFFFF",  # 0 white
    "#CCCCCC",  # 1 off-white
    "#999999",  # 2 light grey
    "#666666",  # 3 grey
    "#333333",  # 4 off-black
    "#000000",  # 5 black
    "#E53AA3",  # 6 magenta
    "#FF7BCC",  # 7 light magenta
    "#F93C31",  # 8 red
    "#1E93FF",  # 9 blue
    "#88D8F1",  # 10 light blue
    "#FFDC00",  # 11 yellow
    "#FF851B",  # 12 orange
    "#921231",  # 13 maroon
    "#4FCC30",  # 14 green
    "#A356D6",  # 15 purple
)


def rgb(index: int) -> tuple[int, int, int]:
    """The (r, g, b) of a colour index 0-15."""
    value = PALETTE[index]
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
