"""Dynamics helpers for what movers cover: cells they leave show the level start's colour again.

Written in the sandbox's Python subset, like `artifact_dyn`, so `embed.py` can copy them into dynamics.py
under the `dyn_` prefix. The remembered level start (the nearest scene) serves as the floor layer a mover
or a pushed block walks over: a target or a plate it stood on reappears when it leaves.
"""

from __future__ import annotations

from typing import Any

from dreamteam.backends.symbolic.common.artifact_dyn import lib_closest_scene, lib_unhex


def lib_vacated_cells(before: Any, out: Any, movers: Any) -> list[list[int]]:
    """The [x, y] cells that held a mover colour before the step and hold another colour after it."""
    cells = []
    for y in range(len(before)):
        if before[y] == out[y]:
            continue
        for x in range(len(before[y])):
            if before[y][x] in movers and out[y][x] != before[y][x] and out[y][x] not in movers:
                cells.append([x, y])
    return cells


def lib_level_scene(grid: Any, scenes: Any) -> Any:
    """The remembered level start closest to `grid` (first on ties), or None when none is close: close means
    the same size and at most a quarter of the cells different (movers elsewhere, a few things changed)."""
    if not grid:
        return None
    best, distance = lib_closest_scene(grid, scenes)
    if best is None or 4 * distance > len(grid) * len(grid[0]):
        return None
    return best


def lib_level_floor(grid: Any, scenes: Any) -> Any:
    """The logical grid of the remembered level start closest to `grid` (`lib_level_scene`), or None.

    Cells a mover covered at the level start show what was seen under them (the scene's "under"), when known.
    """
    scene = lib_level_scene(grid, scenes)
    if scene is None:
        return None
    floor = lib_unhex(scene["grid"])
    for x, y, colour in scene.get("under", []):
        if 0 <= y < len(floor) and 0 <= x < len(floor[0]):
            floor[y][x] = colour
    return floor


def lib_restore_covered(before: Any, out: Any, scenes: Any, movers: Any, restored: Any) -> int:
    """Cells a mover left whose level start showed a `restored` colour show it again; how many changed.
    (The level start is read only at those cells, as `lib_level_floor` would give them.)"""
    cells = lib_vacated_cells(before, out, movers)
    if not cells:
        return 0
    scene = lib_level_scene(before, scenes)
    if scene is None:
        return 0
    seen_under = {}
    for x, y, colour in scene.get("under", []):
        seen_under[(x, y)] = colour
    rows = scene["grid"]
    changed = 0
    for x, y in cells:
        under = seen_under.get((x, y))
        if under is None:
            under = int(rows[y][x], 16)
        if under in restored and out[y][x] != under:
            out[y][x] = under
            changed = changed + 1
    return changed
