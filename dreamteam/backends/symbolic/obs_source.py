"""Write observable.py: a lossless structured parse (geometry, logical grid, objects, entity roles)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreamteam.backends.symbolic.common.embed import helper_source, literal

HEADER = '''"""Observation surface written by the symbolic observer.

parse(frame) -> z is lossless: render(parse(frame)) == frame for every frame. The frame is read as a
logical grid scaled up by an integer factor: z holds
    "width", "height"        display size (64 x 64)
    "scale", "x_offset", "y_offset"   logical cell (cx, cy) covers display pixels
                             [x_offset + cx*scale, x_offset + (cx+1)*scale) x (same for y)
    "columns", "rows", "grid"   the logical grid (grid[cy][cx] = colour)
    "fill", "residual"       colour of pixels outside whole cells, and [x, y, colour] exceptions to it
    "background"             the commonest logical colour
    "objects"                4-connected one-colour regions of the logical grid that are not background:
                             {"id", "color", "size", "bbox": [x0, y0, x1, y1] (inclusive), "cells": [[x, y]],
                              "role": entity role or ""}
    "entities"               ENTITY_TYPES (roles: colours and/or a display-pixel region)
    "events"                 [] in a parse; a prediction may list "level_up" / "game_over"
The geometry is the first of obs_SCALE_HINTS the frame fits (every colour boundary on a cell edge),
else the gcd of the frame's own boundaries.
"""
'''

ENTRY_POINTS = '''

def parse(frame):
    """The structured state of a 64x64 frame (see the module docstring)."""
    return obs_parse(frame, obs_SCALE_HINTS, ENTITY_TYPES)


def render(z):
    """The display frame of a state: fill, the upscaled logical grid, then the residual pixels."""
    return obs_render(z)
'''

ROLE_TEXT = {
    "controllable": "moved by the player's actions",
    "blocker": "stops a controllable object's move",
    "pushable": "moved along when a controllable object walks into it",
    "goal": "entering it completed a level",
    "hazard": "entering it lost the level",
    "counter": "a status bar or timer: cells of this colour disappear a few at a time",
    "hud": "a region that changes on (almost) every step whatever the action",
    "moving": "moved between consecutive frames",
}


def entity_types(entities: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """ENTITY_TYPES entries with a description, sorted colours and an optional region."""
    out: dict[str, dict[str, Any]] = {}
    for role in sorted(entities):
        spec = entities[role]
        entry: dict[str, Any] = {"description": ROLE_TEXT.get(role, str(spec.get("description", role)))}
        colours = sorted({int(c) for c in spec.get("colours", []) if 0 <= int(c) <= 15})
        if colours:
            entry["colours"] = colours
        region = spec.get("region")
        if isinstance(region, list | tuple) and len(region) == 4:
            entry["region"] = [int(v) for v in region]
        if "colours" in entry or "region" in entry:
            out[role] = entry
    return out


def observable_source(hints: Sequence[Sequence[int]], entities: Mapping[str, Mapping[str, Any]]) -> str:
    """The whole observable.py for these scale hints and entity roles."""
    tables = (f"ENTITY_TYPES = {literal(entity_types(entities))}\n\n"
              f"obs_SCALE_HINTS = {literal([list(h) for h in hints])}\n")
    helpers = helper_source(("lib_parse", "lib_render"), "obs_")
    return "\n\n".join([HEADER.rstrip("\n") + "\n", tables, helpers]).rstrip("\n") + "\n" + ENTRY_POINTS
