"""Helper functions the symbolic roles copy into the artifacts they write (observable.py, dynamics.py).

Every `lib_*` function here is written in the subset of Python the sandbox accepts (no imports, no
names with a leading underscore, no classes, only plain builtins) so that `embed.py` can copy it into an
artifact, renamed to the surface's helper prefix (`obs_`, `dyn_`, `strat_`), with annotations stripped.
The learners call the same functions directly, so what they learn matches what the artifact computes.

Vocabulary: `rows` is a display frame (list of row lists), `grid` a logical grid (one value per
logical cell), `geometry` is [scale, x_offset, y_offset] or [scale, x_offset, y_offset, columns, rows]:
logical cell (cx, cy) covers the display pixels x in [x_offset + cx*scale, x_offset + (cx+1)*scale), likewise
y; the whole cells run to the frame's right and bottom edges, or for `columns` and `rows` cells when the
geometry names them (a board with a HUD strip below or beside it).
"""

from __future__ import annotations

from typing import Any


def lib_rows(frame: Any) -> list[list[int]]:
    """The frame as a fresh list of row lists of ints."""
    return [list(map(int, row)) for row in frame]  # int() a value at C speed: no loop of artifact code a pixel


def lib_boundaries(rows: Any) -> list[list[int]]:
    """[row positions, column positions] p where row/column p differs from p - 1."""
    height = len(rows)
    width = len(rows[0])
    columns = list(zip(*rows, strict=True))  # whole columns: one comparison per column, not one per pixel
    # neighbours side by side (zip), not read by index: in the sandbox every item read is a guarded call
    ys = [y for y, here, above in zip(range(1, height), rows[1:], rows, strict=False) if here != above]
    xs = [x for x, here, before in zip(range(1, width), columns[1:], columns, strict=False) if here != before]
    return [ys, xs]


def lib_gcd(a: int, b: int) -> int:
    """Greatest common divisor of two non-negative ints."""
    while b:
        a, b = b, a % b
    return a


def lib_whole_cells(geometry: Any, width: int, height: int) -> list[int]:
    """[columns, rows]: how many whole logical cells fit in the display (at most the geometry's own counts)."""
    scale = geometry[0]
    size = [(width - geometry[1]) // scale, (height - geometry[2]) // scale]
    if len(geometry) > 4:
        size = [min(size[0], geometry[3]), min(size[1], geometry[4])]
    return size


def lib_detect_scale(bounds: Any, width: int, height: int) -> list[int]:
    """[scale, x_offset, y_offset] from the gcd of the gaps between boundaries ([1, 0, 0] if none)."""
    step = 0
    for positions in bounds:
        for i in range(1, len(positions)):
            step = lib_gcd(step, positions[i] - positions[i - 1])
    if step <= 1:
        return [1, 0, 0]
    ys = bounds[0]
    xs = bounds[1]
    geometry = [step, xs[0] % step if xs else 0, ys[0] % step if ys else 0]
    size = lib_whole_cells(geometry, width, height)
    if size[0] < 1 or size[1] < 1:
        return [1, 0, 0]
    return geometry


def lib_stray_lines(rows: Any, geometry: Any) -> int:
    """How many rows and columns of pixels inside the box of `geometry`'s whole cells hold a colour boundary
    off the cells' edges (0: the box is an upscaled grid, each cell one colour); -1 when no whole cell fits.
    What lies outside the box, a margin with a frame line or a HUD, may be anything: it is kept as it is,
    not read as cells."""
    scale = geometry[0]
    width = len(rows[0])
    height = len(rows)
    size = lib_whole_cells(geometry, width, height)
    if scale < 1 or size[0] < 1 or size[1] < 1:
        return -1
    left = geometry[1]
    top = geometry[2]
    box = [row[left : left + size[0] * scale] for row in rows[top : top + size[1] * scale]]
    bounds = lib_boundaries(box)
    return len([y for y in bounds[0] if y % scale]) + len([x for x in bounds[1] if x % scale])


def lib_fits(rows: Any, geometry: Any, stray_lines: int = 0) -> bool:
    """Whether the box of `geometry`'s whole cells is an upscaled grid: every colour boundary inside it falls
    on a cell edge (so each cell is one colour), but for at most `stray_lines` rows and columns of pixels
    (`lib_stray_lines`)."""
    stray = lib_stray_lines(rows, geometry)
    return 0 <= stray <= stray_lines


def lib_geometry(rows: Any, hints: Any) -> list[int]:
    """The first hinted geometry the frame fits; else the first it fits but for up to 4 rows and columns of
    stray pixels over the cells (a flash or a cursor must not make one frame one pixel a cell while its
    neighbours are cells: the logical layout stays, the stray pixels are prediction errors); else the
    frame's own gcd geometry. Each hint's stray lines are counted once (`lib_fits` for each hint and each
    allowance would count them again)."""
    strays = []
    for hint in hints:
        stray = lib_stray_lines(rows, hint)
        if stray == 0:
            return [value for value in hint]
        strays.append(stray)
    for i in range(len(strays)):
        if 0 <= strays[i] <= 4:
            return [value for value in hints[i]]
    return lib_detect_scale(lib_boundaries(rows), len(rows[0]), len(rows))


def lib_downsample(rows: Any, geometry: Any) -> list[list[int]]:
    """One value per whole logical cell (its top-left pixel)."""
    scale = geometry[0]
    size = lib_whole_cells(geometry, len(rows[0]), len(rows))
    left = geometry[1]
    right = left + size[0] * scale
    # one slice a row: in the sandbox every item read is a call, and a 64x64 frame has 4,096 of them
    return [list(rows[y][left:right:scale]) for y in range(geometry[2], geometry[2] + size[1] * scale, scale)]


def lib_paint_cells(rows: Any, grid: Any, geometry: Any) -> None:
    """Overwrite the whole-cell area of `rows` with the upscaled logical grid (in place)."""
    scale = geometry[0]
    room = len(rows[0]) - geometry[1]
    for cy in range(len(grid)):
        # one slice or one range a row: a nested loop per value is thousands of guarded calls on a 64x64 frame
        cells = grid[cy]
        line = list(cells[:room]) if scale == 1 else [value for value in cells for times in range(scale)][: max(0, room)]
        top = geometry[2] + cy * scale
        for y in range(top, min(top + scale, len(rows))):
            rows[y][geometry[1] : geometry[1] + len(line)] = line


def lib_paint_changed(rows: Any, before: Any, grid: Any, geometry: Any) -> None:
    """Repaint (in place) only the cells whose value differs between the logical grids `before` and `grid`:
    pixels the cells do not explain (a stray pixel or HUD dots over an unchanged cell) stay as they were."""
    scale = geometry[0]
    for cy in range(len(grid)):
        if cy < len(before) and grid[cy] == before[cy]:
            continue  # one comparison for a row of cells that did not change
        row = grid[cy]
        old = before[cy] if cy < len(before) else []
        for cx in range(len(row)):
            if cx < len(old) and old[cx] == row[cx]:
                continue
            left = geometry[1] + cx * scale
            top = geometry[2] + cy * scale
            for y in range(top, min(top + scale, len(rows))):
                rows[y][left : left + scale] = [row[cx]] * scale


def lib_background(grid: Any) -> int:
    """The most frequent colour (the lowest colour on ties)."""
    counts = [0] * 16
    for row in grid:
        # one count per colour of the row, not one guarded write per cell (and no count call for a row of one colour)
        colours = set(row)
        if len(colours) == 1:
            for value in colours:
                counts[value] = counts[value] + len(row)
            continue
        for value in colours:
            counts[value] = counts[value] + row.count(value)
    best = 0
    for colour in range(16):
        if counts[colour] > counts[best]:
            best = colour
    return best


def lib_leftover(rows: Any, grid: Any, geometry: Any, background: int) -> list[Any]:
    """[fill, residual]: the commonest colour outside whole cells and the pixels that differ from it."""
    width = len(rows[0])
    height = len(rows)
    size = lib_whole_cells(geometry, width, height)
    scale = geometry[0]
    left = min(width, geometry[1])
    right = min(width, left + max(0, size[0]) * scale)
    top = geometry[2]
    bottom = top + max(0, size[1]) * scale
    # the margin as strips of pixels ([x of the first, y, values]): whole rows above and below the cells, the
    # sides beside them; counted and compared a strip at a time (in the sandbox a call per pixel adds up)
    strips: list[list[Any]] = []
    add = strips.append  # one attribute read, not one a row (each is a guarded call in the sandbox)
    for y in range(height):
        row = rows[y]
        if y < top or y >= bottom:
            add([0, y, row[0:width]])
        else:
            add([0, y, row[0:left]])
            add([right, y, row[right:width]])
    counts = [0] * 16
    kinds = [set(strip[2]) for strip in strips]
    for strip, colours in zip(strips, kinds, strict=True):
        values = strip[2]
        if len(colours) == 1:
            for colour in colours:  # a strip of one colour (the usual margin): its length is its count
                counts[colour] = counts[colour] + len(values)
            continue
        for colour in colours:
            counts[colour] = counts[colour] + values.count(colour)
    fill = background
    for colour in range(16):
        if counts[colour] > counts[fill]:
            fill = colour
    residual: list[list[int]] = []
    keep = residual.append
    for strip, colours in zip(strips, kinds, strict=True):
        if not colours or (len(colours) == 1 and fill in colours):
            continue  # no pixel of the strip differs from the fill: no loop over its pixels
        x = strip[0]
        y = strip[1]
        for value in strip[2]:
            if value != fill:
                keep([x, y, value])
            x = x + 1
    return [fill, residual]


def lib_components(grid: Any, background: int) -> list[dict[str, Any]]:
    """4-connected one-colour objects (not the background), in reading order of their first cell.

    Works on runs (cells of one colour side by side in a row), each joined to the runs of its colour it
    touches in the row above, not cell by cell: in the sandbox every item access is a call, and a 64x64
    grid has 4,096 cells but a few hundred runs. A run's number is its place in reading order and every
    object is named by its smallest run number, so objects and their cells come out in reading order."""
    height = len(grid)
    runs: list[list[int]] = []
    parent: list[int] = []
    keep_run, keep_parent = runs.append, parent.append
    above: list[list[int]] = []
    for y in range(height):
        here: list[list[int]] = []
        keep_here = here.append
        start = 0
        x = 0
        current = background
        for value in grid[y]:
            if value != current:
                if current != background:
                    keep_here([start, x - 1, current, len(runs)])
                    keep_run([start, x - 1, y, current])
                    keep_parent(len(parent))
                current = value
                start = x
            x = x + 1
        if current != background:
            keep_here([start, x - 1, current, len(runs)])
            keep_run([start, x - 1, y, current])
            keep_parent(len(parent))
        i = 0
        j = 0
        while i < len(above) and j < len(here):
            top = above[i]
            run = here[j]
            if top[0] <= run[1] and run[0] <= top[1] and top[2] == run[2]:
                a = top[3]
                while parent[a] != a:
                    a = parent[a]
                b = run[3]
                while parent[b] != b:
                    b = parent[b]
                if a < b:
                    parent[b] = a
                    parent[run[3]] = a
                elif b < a:
                    parent[a] = b
                    parent[top[3]] = b
            if top[1] < run[1]:
                i = i + 1
            else:
                j = j + 1
        above = here
    objects: list[dict[str, Any]] = []
    keep_object = objects.append
    named: dict[int, dict[str, Any]] = {}
    extend: dict[int, Any] = {}  # each object's cells.extend, read once (an attribute read is a guarded call)
    for k in range(len(runs)):
        root = k
        while parent[root] != root:
            root = parent[root]
        x0, x1, y, colour = runs[k]
        if root in named:
            found = named[root]
        else:
            cells: list[list[int]] = []
            found = {"id": len(objects), "color": colour, "size": 0, "bbox": [x0, y, x1, y], "cells": cells}
            named[root] = found
            extend[root] = cells.extend
            keep_object(found)
        box = found["bbox"]
        if x0 < box[0]:
            box[0] = x0
        if x1 > box[2]:
            box[2] = x1
        box[3] = y
        extend[root]([[cx, y] for cx in range(x0, x1 + 1)])
    for found in objects:
        found["size"] = len(found["cells"])
    return objects


def lib_roles(objects: Any, entities: Any, geometry: Any) -> None:
    """Give each object the first entity role whose region contains it or whose colours include it."""
    scale = geometry[0]
    for obj in objects:
        box = obj["bbox"]
        x0 = geometry[1] + box[0] * scale
        y0 = geometry[2] + box[1] * scale
        x1 = geometry[1] + (box[2] + 1) * scale - 1
        y1 = geometry[2] + (box[3] + 1) * scale - 1
        obj["role"] = ""
        for role in sorted(entities):
            spec = entities[role]
            region = spec.get("region")
            inside = region and region[0] <= x0 and region[1] <= y0 and x1 <= region[2] and y1 <= region[3]
            if inside or obj["color"] in spec.get("colours", []):
                obj["role"] = role
                break


def lib_parse(frame: Any, hints: Any, entities: Any) -> dict[str, Any]:
    """The structured state of a frame: geometry, logical grid, leftover pixels, objects and roles."""
    rows = lib_rows(frame)
    geometry = lib_geometry(rows, hints)
    grid = lib_downsample(rows, geometry)
    background = lib_background(grid)
    leftover = lib_leftover(rows, grid, geometry, background)
    objects = lib_components(grid, background)
    lib_roles(objects, entities, geometry)
    return {
        "width": len(rows[0]), "height": len(rows),
        "scale": geometry[0], "x_offset": geometry[1], "y_offset": geometry[2],
        "columns": len(grid[0]), "rows": len(grid), "grid": grid,
        "fill": leftover[0], "residual": leftover[1], "background": background,
        "objects": objects, "entities": entities, "events": [],
    }


def lib_render(z: Any) -> list[list[int]]:
    """The display frame of a structured state: fill, upscaled logical grid, then residual pixels."""
    rows = [[z["fill"]] * z["width"] for y in range(z["height"])]
    lib_paint_cells(rows, z["grid"], [z["scale"], z["x_offset"], z["y_offset"]])
    for x, y, colour in z["residual"]:
        rows[y][x] = colour
    return rows


def lib_paint_objects(z: Any) -> list[list[int]]:
    """The display frame of an object-list state: objects' cells painted over the background."""
    rows = [[z["background"]] * z["width"] for y in range(z["height"])]
    for obj in z["objects"]:
        for cell in obj["cells"]:
            rows[cell[1]][cell[0]] = obj["color"]
    return rows


def lib_display(z: Any) -> Any:
    """The display frame behind a state in either known format (logical grid or object list), else None."""
    if not isinstance(z, dict):
        return None
    if "grid" in z and "scale" in z and "residual" in z:
        return lib_render(z)
    if "objects" in z and "background" in z and "width" in z and "height" in z:
        return lib_paint_objects(z)
    return None


def lib_rebuild(z: Any, rows: Any, hints: Any, events: Any) -> dict[str, Any]:
    """A state in the same format as `z` that renders as `rows`, carrying `events`."""
    if "grid" in z and "scale" in z:
        own = [z["scale"], z["x_offset"], z["y_offset"]]
        if "columns" in z and lib_whole_cells(own, z["width"], z["height"]) != [z["columns"], z["rows"]]:
            own = own + [z["columns"], z["rows"]]
        out = lib_parse(rows, [own] + list(hints), z.get("entities", {}))
    else:
        background = lib_background(rows)
        out = dict(z)
        out["background"] = background
        out["objects"] = lib_components(rows, background)
    if events or "events" in z:
        out["events"] = list(events)
    return out
