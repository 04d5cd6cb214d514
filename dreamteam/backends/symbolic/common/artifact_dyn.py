"""Dynamics helpers the symbolic simulator copies into dynamics.py (same rules as `artifact_lib`).

All functions work on a logical grid (list of row lists) in place or return new values; they are written
in the sandbox's Python subset so `embed.py` can copy them under the `dyn_` prefix.
"""

from __future__ import annotations

from typing import Any


def lib_copy_grid(grid: Any) -> list[list[int]]:
    """A fresh copy of a grid."""
    return [list(row) for row in grid]


def lib_cells_of(grid: Any, colour: int) -> list[list[int]]:
    """The [x, y] cells holding `colour`, in reading order."""
    # rows without the colour are skipped by `in`, which runs in C: most colours hold few cells
    return [[x, y] for y, row in enumerate(grid) if colour in row for x, value in enumerate(row) if value == colour]


def lib_component(grid: Any, x: int, y: int) -> list[list[int]]:
    """The 4-connected one-colour region containing cell (x, y), in reading order."""
    colour = grid[y][x]
    seen = {(x, y)}
    stack = [(x, y)]
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)):
            if 0 <= ny < len(grid) and 0 <= nx < len(grid[0]) and (nx, ny) not in seen and grid[ny][nx] == colour:
                seen.add((nx, ny))
                stack.append((nx, ny))
    return [[cx, cy] for cy, cx in sorted((cy, cx) for cx, cy in seen)]


def lib_inside(grid: Any, x: int, y: int) -> bool:
    """Whether (x, y) is a cell of the grid."""
    return 0 <= y < len(grid) and 0 <= x < len(grid[0])


def lib_shift(grid: Any, cells: Any, dx: int, dy: int, colour: int, vacated: int) -> None:
    """Move `cells` (all of `colour`) by (dx, dy): vacated cells take `vacated`."""
    for x, y in cells:
        grid[y][x] = vacated
    for x, y in cells:
        grid[y + dy][x + dx] = colour


def lib_push(grid: Any, seeds: Any, dx: int, dy: int, stoppers: Any, vacated: int, single: bool = False) -> bool:
    """Push the objects containing the `seeds` cells one step; False (and no change) when they cannot move.

    An object is the seed's one-colour region, or with `single` the seed cell alone (blocks of one colour
    side by side are separate objects, and one stops another)."""
    moves = []
    taken = set()
    for sx, sy in seeds:
        if (sx, sy) in taken:
            continue
        cells = [[sx, sy]] if single else lib_component(grid, sx, sy)
        for x, y in cells:
            taken.add((x, y))
        moves.append(cells)
    for cells in moves:
        for x, y in cells:
            tx, ty = x + dx, y + dy
            if not lib_inside(grid, tx, ty):
                return False
            if (tx, ty) not in taken and grid[ty][tx] in stoppers:
                return False
    for cells in moves:
        lib_shift(grid, cells, dx, dy, grid[cells[0][1]][cells[0][0]], vacated)
    return True


def lib_front_shape(grid: Any, cells: Any, dx: int, dy: int, colour: int) -> str:
    """Where `colour` lies in the cells a mover at `cells` would enter by (dx, dy): "x,y" offsets from the
    corner of the mover's landing box, sorted and space-separated ("" when the colour is not in the way)."""
    own = {(x, y) for x, y in cells}
    left = min(x for x, _ in cells) + dx
    top = min(y for _, y in cells) + dy
    found = []
    for x, y in cells:
        tx, ty = x + dx, y + dy
        if (tx, ty) not in own and lib_inside(grid, tx, ty) and grid[ty][tx] == colour:
            found.append((tx - left, ty - top))
    return " ".join(str(ox) + "," + str(oy) for ox, oy in sorted(found))


def lib_move(grid: Any, colour: int, dx: int, dy: int, blockers: Any, pushable: Any, vacated: int,
             single: bool = False, shaped: Any = None) -> Any:
    """Move every cell of `colour` by (dx, dy); the colours it enters, or None when blocked or absent.

    `shaped` maps a colour that is entered in some shapes and blocks in others to the front shapes
    (`lib_front_shape`) in which it blocks."""
    cells = lib_cells_of(grid, colour)
    if not cells:
        return None
    own = {(x, y) for x, y in cells}
    if shaped:
        for other, shapes in shaped.items():
            if lib_front_shape(grid, cells, dx, dy, other) in shapes:
                return None
    pushed = []
    entered = []
    for x, y in cells:
        tx, ty = x + dx, y + dy
        if not lib_inside(grid, tx, ty):
            return None
        if (tx, ty) in own:
            continue
        target = grid[ty][tx]
        if target in blockers:
            return None
        if target in pushable:
            pushed.append([tx, ty])
        elif target not in entered:
            entered.append(target)
    if pushed and not lib_push(grid, pushed, dx, dy, list(blockers) + list(pushable) + [colour], vacated, single):
        return None
    lib_shift(grid, cells, dx, dy, colour, vacated)
    return entered


def lib_click_cell(a: Any, geometry: Any, grid: Any) -> Any:
    """The logical [x, y] cell under a click's display coordinates, or None outside every whole cell."""
    x = a.get("x")
    y = a.get("y")
    if x is None or y is None or x < geometry[1] or y < geometry[2]:
        return None
    cx = (x - geometry[1]) // geometry[0]
    cy = (y - geometry[2]) // geometry[0]
    return [cx, cy] if lib_inside(grid, cx, cy) else None


def lib_click(grid: Any, cell: Any, colour_map: Any, unit: str, offsets: Any, region: Any) -> bool:
    """Recolour the clicked cell or object and those at `offsets` through `colour_map`; True if any changed."""
    if cell is None or grid[cell[1]][cell[0]] not in colour_map:
        return False
    if region and not (region[0] <= cell[0] <= region[2] and region[1] <= cell[1] <= region[3]):
        return False
    targets: list[list[int]] = []
    if unit == "tile":
        targets = lib_tile_targets(grid, cell, colour_map, offsets)
    else:
        origin = lib_component(grid, cell[0], cell[1])[0] if unit == "object" else cell
        for ox, oy in offsets:
            x, y = origin[0] + ox, origin[1] + oy
            if not lib_inside(grid, x, y):
                continue
            targets.extend(lib_component(grid, x, y) if unit == "object" else [[x, y]])
    recoloured = {}
    for x, y in targets:
        if (x, y) not in recoloured and grid[y][x] in colour_map:
            recoloured[(x, y)] = colour_map[grid[y][x]]
    for key in recoloured:
        grid[key[1]][key[0]] = recoloured[key]
    return len(recoloured) > 0


def lib_tile_targets(grid: Any, cell: Any, colour_map: Any, offsets: Any) -> list[list[int]]:
    """Cells of every other object holding a cell at one of `offsets` from any cell of the clicked object
    (a tile spanning several cells reaches the tiles around each of its cells), and the clicked object's
    own cells when (0, 0) is among the offsets."""
    home = lib_component(grid, cell[0], cell[1])
    reached = {(hx, hy) for hx, hy in home}
    targets: list[list[int]] = [[hx, hy] for hx, hy in home] if [0, 0] in [list(o) for o in offsets] else []
    for hx, hy in home:
        for ox, oy in offsets:
            x, y = hx + ox, hy + oy
            if (x, y) in reached or not lib_inside(grid, x, y) or grid[y][x] not in colour_map:
                continue
            for cx, cy in lib_component(grid, x, y):
                reached.add((cx, cy))
                targets.append([cx, cy])
    return targets


def lib_tick(grid: Any, region: Any, source: int, target: int, order: str, count: int) -> None:
    """Turn `count` cells of colour `source` inside `region` into `target`, chosen by `order`.

    `order` is "row-first", "row-last", "column-first" or "column-last": reading order by rows or by
    columns, taking cells from its start or its end.
    """
    by_row = order.startswith("row")
    width = len(grid[0]) if grid else 0
    cells = []
    for y in range(max(0, region[1]), min(len(grid), region[3] + 1)):
        row = grid[y]
        if source not in row:
            continue
        for x in range(max(0, region[0]), min(width, region[2] + 1)):
            if row[x] == source:
                cells.append((y, x) if by_row else (x, y))
    cells = sorted(cells)
    chosen = cells[len(cells) - count :] if order.endswith("last") else cells[:count]
    for first, second in chosen:
        if order.startswith("row"):
            grid[first][second] = target
        else:
            grid[second][first] = target


def lib_unhex(rows: Any) -> list[list[int]]:
    """Decode hex-digit rows into a grid."""
    values = {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
              "a": 10, "b": 11, "c": 12, "d": 13, "e": 14, "f": 15, "A": 10, "B": 11, "C": 12, "D": 13, "E": 14, "F": 15}
    return [[values[ch] for ch in row] for row in rows]


def lib_rows_distance(rows: Any, other: Any) -> int:
    """How many cells two equal-sized grids of hex-digit rows differ in (rows that are equal cost nothing)."""
    distance = 0
    for mine, theirs in zip(rows, other, strict=False):
        if mine != theirs:
            distance = distance + sum(1 for p, q in zip(mine, theirs, strict=False) if p != q)
    return distance


def lib_closest_scene(grid: Any, scenes: Any) -> list[Any]:
    """[scene, cells different] for the remembered scene of `grid`'s size whose grid differs least from it
    (first on ties), or [None, -1] when none has that size."""
    best = None
    best_distance = -1
    rows = lib_hex(grid)
    for scene in scenes:
        other = scene["grid"]
        if len(other) != len(rows) or not rows or not other or len(other[0]) != len(rows[0]):
            continue
        distance = lib_rows_distance(rows, other)
        if best is None or distance < best_distance:
            best = scene
            best_distance = distance
    return [best, best_distance]


def lib_nearest_scene(grid: Any, scenes: Any) -> Any:
    """The remembered scene whose grid differs least from `grid` (same size), else the latest one."""
    best = lib_closest_scene(grid, scenes)[0]
    if best is None and scenes:
        best = scenes[len(scenes) - 1]
    return best


def lib_scene_rows(scene: Any, width: int, height: int) -> list[list[int]]:
    """The display frame of a remembered scene (fill, upscaled grid, residual pixels)."""
    rows = [[scene["fill"]] * width for y in range(height)]
    geometry = scene["geometry"]
    scale = geometry[0]
    for cy, text in enumerate(scene["grid"]):
        line = []
        for ch in text:
            line.extend([int(ch, 16)] * scale)
        for y in range(geometry[2] + cy * scale, geometry[2] + (cy + 1) * scale):
            rows[y][geometry[1] : geometry[1] + len(line)] = line
    for x, y, colour in scene["residual"]:
        rows[y][x] = colour
    return rows


def lib_memo_key(grid: Any, a: Any) -> str:
    """A lookup key for a remembered exception: the action and the whole logical grid."""
    return str(a.get("action")) + "@" + str(a.get("x")) + "," + str(a.get("y")) + ":" + "/".join(lib_hex(grid))


def lib_memo_index(memo: Any) -> dict[Any, Any]:
    """The remembered exceptions by (action part of the key, grid as a tuple of row tuples): looking one up
    then hashes the grid's rows instead of spelling the grid out in hex digits."""
    index = {}
    for key, scene in memo.items():
        head, text = key.split(":", 1)
        index[(head, tuple(tuple(row) for row in lib_unhex(text.split("/"))))] = scene
    return index


def lib_memo_lookup(index: Any, grid: Any, a: Any) -> Any:
    """The remembered exception for this grid and action (`index`: `lib_memo_index`), else None."""
    head = str(a.get("action")) + "@" + str(a.get("x")) + "," + str(a.get("y"))
    return index.get((head, tuple(map(tuple, grid))))


def lib_try_move(grid: Any, colour: int, dx: int, dy: int, blockers: Any, pushable: Any, vacated: int,
                 entered: Any, single: bool = False, shaped: Any = None) -> bool:
    """`lib_move`, collecting the entered colours into `entered`; True when the colour moved."""
    result = lib_move(grid, colour, dx, dy, blockers, pushable, vacated, single, shaped)
    if result is None:
        return False
    entered.extend(result)
    return True


def lib_try_slide(grid: Any, colour: int, dx: int, dy: int, blockers: Any, pushable: Any, vacated: int,
                  entered: Any, single: bool = False, shaped: Any = None, passing: Any = None) -> bool:
    """Step `colour` by (dx, dy) until it is blocked (at most one grid side); True when it moved at all.

    With a `passing` list, each [colour, entered colour] met on the way (other than `vacated`, the floor it
    leaves) is noted there: a slide can run over something and end beyond it, where the final grid no
    longer shows that it was touched."""
    steps = 0
    limit = max(len(grid), len(grid[0]))
    while steps < limit:
        before = len(entered)
        if not lib_try_move(grid, colour, dx, dy, blockers, pushable, vacated, entered, single, shaped):
            break
        steps = steps + 1
        if passing is not None:
            for other in entered[before:]:
                if other != vacated and [colour, other] not in passing:
                    passing.append([colour, other])
    return steps > 0


def lib_hex(grid: Any) -> list[str]:
    """Encode a grid as hex-digit rows (the inverse of `lib_unhex`)."""
    digits = "0123456789abcdef"
    return ["".join([digits[value] for value in row]) for row in grid]


def lib_changes(last: Any, grid: Any, limit: int = 64) -> list[list[int]]:
    """[[x, y, colour in last]] for the cells where `last` (hex rows of the previous logical grid) differs
    from `grid`; [] when there is no previous grid, its size differs, or more than `limit` cells changed (a new
    scene, not motion)."""
    if not isinstance(last, list) or len(last) != len(grid) or not grid or len(last[0]) != len(grid[0]):
        return []
    out = []
    rows = lib_hex(grid)
    for y in range(len(grid)):
        if rows[y] == last[y]:
            continue
        row = grid[y]
        before = lib_unhex([last[y]])[0]
        for x in range(len(row)):
            if before[x] != row[x]:
                out.append([x, y, before[x]])
    return out if len(out) <= limit else []


def lib_patrol_key(x: int, y: int) -> str:
    """The table key of a cell."""
    return str(x) + "," + str(y)


def lib_patrol_targets(grid: Any, changes: Any, colour: int, routes: Any, starts: Any,
                       vacated: int = -1, movers: Any = (), guess: bool = True) -> list[list[Any]]:
    """[[cell, next cell]] for each `colour` cell with a next cell: by where it came from (a `colour` cell
    of the previous frame next to it, read from `changes`; of several, those with a learned step, when
    they agree: two patrollers side by side) in `routes`, else by its cell alone
    in `starts`; a cell on no learned route step (a patroller not watched yet, as on a new level) that came
    from a neighbour keeps going the same way onto a `vacated` (or mover's) cell ahead, and turns back
    where the cell ahead holds anything else (unless `guess` is false: then it stays)."""
    came_from = [[c[0], c[1]] for c in changes if c[2] == colour]
    out = []
    for cell in lib_cells_of(grid, colour):
        here = lib_patrol_key(cell[0], cell[1])
        came = [p for p in came_from if abs(p[0] - cell[0]) + abs(p[1] - cell[1]) == 1]
        known = [routes[k] for k in [lib_patrol_key(p[0], p[1]) + ">" + here for p in came] if k in routes]
        target = known[0] if known and all(k == known[0] for k in known) else None
        if target is None:
            target = starts.get(here)
        if target is None and len(came) == 1 and guess:
            x = 2 * cell[0] - came[0][0]
            y = 2 * cell[1] - came[0][1]
            target = [x, y] if lib_inside(grid, x, y) and (grid[y][x] == vacated or grid[y][x] in movers) \
                else came[0]
        if target is not None:
            out.append([cell, target])
    return out


def lib_patrol(grid: Any, out: Any, changes: Any, colour: int, routes: Any, starts: Any, vacated: int,
               movers: Any, entered: Any, guess: bool = True) -> bool:
    """Every `colour` cell takes its next step along a learned route (or, off every learned step, keeps
    going: `lib_patrol_targets`), whatever the action (after the action's movers moved in `out`). A
    patroller sharing a cell with a mover, or swapping cells with one, is a touch of `colour` (listed in
    `entered`); a mover merely entering its old cell is not."""
    steps = lib_patrol_targets(grid, changes, colour, routes, starts, vacated, movers, guess)
    while colour in entered:
        entered.remove(colour)
    for step in steps:
        cell = step[0]
        if out[cell[1]][cell[0]] == colour:
            out[cell[1]][cell[0]] = vacated
    for cell, target in steps:
        x = target[0]
        y = target[1]
        if not lib_inside(out, x, y):
            continue
        swapped = grid[y][x] in movers and out[cell[1]][cell[0]] in movers
        if out[y][x] in movers or swapped:
            entered.append(colour)
        out[y][x] = colour
    return bool(steps)


def lib_tint(before: Any, out: Any, tints: Any, unders: Any, movers: Any) -> int:
    """Pushed objects show their tints: a cell that now holds colour c and held u before the step shows
    tints[c][u]; a cell a tinted object (shown colour s) left shows what it stood on, unders[s]. How many
    cells changed."""
    changed = 0
    for y in range(len(out)):
        row = out[y]
        was = before[y]
        for x in range(len(row)):
            now = row[x]
            if now == was[x]:
                continue
            if now in tints and was[x] in tints[now]:
                row[x] = tints[now][was[x]]
                changed = changed + 1
            elif was[x] in unders and now not in movers and now != unders[was[x]]:
                row[x] = unders[was[x]]
                changed = changed + 1
    return changed
