"""Dynamics helpers for what movers cover: cells they leave show the level start's colour again.

Written in the sandbox's Python subset, like `artifact_dyn`, so `embed.py` can copy them into dynamics.py
under the `dyn_` prefix. The remembered level start (the nearest scene) serves as the floor layer a mover
or a pushed block walks over: a target or a plate it stood on reappears when it leaves.
"""

from __future__ import annotations

from typing import Any

from dreamteam.roles.symbolic.artifact_dyn import lib_hex, lib_nearest_scene, lib_rows_distance, lib_unhex


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


def lib_level_floor(grid: Any, scenes: Any) -> Any:
    """The logical grid of the remembered level start closest to `grid`, or None when none is close.

    Close means at most a quarter of the cells differ (movers elsewhere, a few things changed since). Cells
    a mover covered at the level start show what was seen under them (the scene's "under"), when known.
    """
    scene = lib_nearest_scene(grid, scenes)
    if scene is None:
        return None
    if len(scene["grid"]) != len(grid) or not grid or len(scene["grid"][0]) != len(grid[0]):
        return None
    if 4 * lib_rows_distance(lib_hex(grid), scene["grid"]) > len(grid) * len(grid[0]):
        return None
    floor = lib_unhex(scene["grid"])
    for x, y, colour in scene.get("under", []):
        if 0 <= y < len(floor) and 0 <= x < len(floor[0]):
            floor[y][x] = colour
    return floor


def lib_restore_covered(before: Any, out: Any, scenes: Any, movers: Any, restored: Any) -> int:
    """Cells a mover left whose level start showed a `restored` colour show it again; how many changed."""
    cells = lib_vacated_cells(before, out, movers)
    if not cells:
        return 0
    floor = lib_level_floor(before, scenes)
    if floor is None:
        return 0
    changed = 0
    for x, y in cells:
        under = floor[y][x]
        if under in restored and out[y][x] != under:
            out[y][x] = under
            changed = changed + 1
    return changed
