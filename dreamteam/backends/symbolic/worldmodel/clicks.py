"""Learn what a click (ACTION6) does: which cells or objects it recolours, into what, and where it works.

Two competing units are scored on every click that changed something: the clicked *cell* (and cells at
fixed offsets from it) or the clicked *object* (and objects at fixed offsets of their first cell). The unit
that explains more clicks wins; ties go to the cell. A third unit, the *tile* (the clicked object and every
object with a cell at an offset from any of its cells: tiles spanning several cells on a spaced board),
replaces the winner only when it predicts strictly more clicks exactly. Colours map through the most
common recolouring seen.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from dreamteam.backends.symbolic.common.artifact_dyn import lib_click
from dreamteam.backends.symbolic.common.evidence import BoolArray, Cell, Transition, touching
from dreamteam.backends.symbolic.worldmodel.model import Box, ClickRule
from dreamteam.perception import label_runs

Ignore = Callable[[Transition], BoolArray]
MIN_LAYOUT_EFFECTS = 3


def _origins(grid: np.ndarray) -> tuple[np.ndarray, dict[int, Cell]]:
    """Component labels of a grid and each component's first cell in reading order."""
    labels, count = label_runs(grid)
    flat = labels.ravel()
    first = np.full(count, flat.size, dtype=np.intp)
    np.minimum.at(first, flat, np.arange(flat.size))
    cols = grid.shape[1]
    return labels, {i: (int(f % cols), int(f // cols)) for i, f in enumerate(first.tolist())}


def _offsets(t: Transition, cell: Cell, changed: BoolArray, unit: str) -> set[Cell]:
    """Offsets of the changed cells (or changed objects' first cells) from the clicked cell (or object)."""
    ys, xs = np.nonzero(changed)
    if unit == "cell":
        return {(x - cell[0], y - cell[1]) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)}
    labels, origins = _origins(t.before.grid)
    home = origins[int(labels[cell[1], cell[0]])]
    hit = {int(v) for v in np.unique(labels[changed])}
    return {(origins[i][0] - home[0], origins[i][1] - home[1]) for i in hit}


def _fits(t: Transition, cell: Cell, changed: BoolArray) -> dict[str, bool]:
    """Which unit explains that the click changed the clicked cell / its whole object."""
    labels, _ = label_runs(t.before.grid)
    clicked = labels == labels[cell[1], cell[0]]
    return {"cell": bool(changed[cell[1], cell[0]]), "object": bool(changed[cell[1], cell[0]]
                                                                     and not (clicked & ~changed).any())}


MAX_OFFSET_PAIRS = 4096
"""A click whose object and the other cells it changed pair up more than this adds no tile offsets: a click
on a large object that changed a large area is no tile pattern (that is a whole-scene change), and pairing
every cell with every change is seconds of work on a 64x64 frame."""
MAX_OFFSETS = 256
"""Only the best-supported candidate offsets are checked against the clicks."""


def _tile_offsets(effects: Sequence[tuple[Transition, Cell, BoolArray]], colour_map: dict[int, int]) -> tuple[Cell, ...]:
    """The fewest offsets (from the clicked object's cells to the cells of other objects) that explain the
    changes, none contradicted by a click; (0, 0) when the clicked object itself changes.

    An offset is contradicted when, from some cell of the clicked object, it lands on a recolourable cell of
    another object that stayed. Candidates are taken greedily by how many clicks show them, each kept only
    if it reaches changed objects the kept ones do not."""
    recolourable = np.array([c in colour_map for c in range(17)], dtype=bool)
    support: Counter[Cell] = Counter()
    reach: list[dict[Cell, set[int]]] = []
    homes: list[tuple[np.ndarray, np.ndarray, BoolArray]] = []
    own_changes = 0
    for t, cell, changed in effects:
        grid = t.before.grid
        labels, _ = label_runs(grid)
        own = labels == labels[cell[1], cell[0]]
        own_changes += bool((changed & own).any())
        hy, hx = np.nonzero(own)
        cy, cx = np.nonzero(changed & ~own)
        shown: dict[Cell, set[int]] = defaultdict(set)
        if len(hx) * len(cx) > MAX_OFFSET_PAIRS:
            hx, hy, cx, cy = hx[:0], hy[:0], cx[:0], cy[:0]  # no tile pattern: see MAX_OFFSET_PAIRS
        for a, b in zip(hx.tolist(), hy.tolist(), strict=True):
            for x, y in zip(cx.tolist(), cy.tolist(), strict=True):
                shown[(x - a, y - b)].add(int(labels[y, x]))
        support.update(shown.keys())
        reach.append(shown)
        homes.append((hx, hy, recolourable[grid.astype(np.intp) & 15] & ~changed & ~own))
    candidates = sorted(support, key=lambda o: (-support[o], abs(o[0]) + abs(o[1]), o))[:MAX_OFFSETS]
    against = {o for o in candidates if any(_lands_on(hx, hy, o, stayed) for hx, hy, stayed in homes)}
    kept: list[Cell] = [(0, 0)] if own_changes * 2 > len(effects) else []
    explained: list[set[int]] = [set() for _ in effects]
    for offset in candidates:
        if offset in against:
            continue
        gain = [r.get(offset, set()) - done for r, done in zip(reach, explained, strict=True)]
        if any(gain):
            kept.append(offset)
            for done, new in zip(explained, gain, strict=True):
                done |= new
    return tuple(sorted(kept))


def _lands_on(hx: np.ndarray, hy: np.ndarray, offset: Cell, mask: BoolArray) -> bool:
    """Whether `offset` from any of the cells (hx, hy) lands on a cell of `mask`."""
    xs, ys = hx + offset[0], hy + offset[1]
    rows, cols = mask.shape
    inside = (xs >= 0) & (xs < cols) & (ys >= 0) & (ys < rows)
    return bool(mask[ys[inside], xs[inside]].any())


def _exact(effects: Sequence[tuple[Transition, Cell, BoolArray]], colour_map: dict[int, int], unit: str,
           offsets: Sequence[Cell]) -> int:
    """How many clicks a rule predicts exactly (the changed cells, no more, no fewer)."""
    return sum(bool(np.array_equal(click_changes(t.before.grid, cell, colour_map, unit, offsets), changed))
               for t, cell, changed in effects)


def click_changes(grid: np.ndarray, cell: Cell, colour_map: dict[int, int], unit: str,
                  offsets: Sequence[Cell]) -> BoolArray:
    """The cells `lib_click` (no region) changes on `grid`, computed with numpy for objects and tiles.

    The artifact's `lib_click` floods each object cell by cell in pure Python (it runs in the sandbox): on a
    frame read at one pixel a cell, clicking the background region floods thousands of cells per candidate
    rule and click, seconds per learning. This mirror labels the frame once (`label_runs`); tests check it
    against `lib_click` on random grids."""
    x, y = cell
    if unit not in ("object", "tile") or int(grid[y, x]) not in colour_map:
        board = grid.tolist()
        lib_click(board, [x, y], colour_map, unit, [list(o) for o in offsets], None)
        changed: BoolArray = np.asarray(board) != grid
        return changed
    values = grid.astype(np.intp)
    table = np.arange(max(32, int(values.max()) + 1))
    for source, target in colour_map.items():
        if 0 <= source < len(table):
            table[source] = target
    labels, _ = label_runs(grid)
    home = labels == labels[y, x]
    hy, hx = np.nonzero(home)
    rows, cols = grid.shape
    if unit == "object":  # objects at the offsets from the clicked object's first cell
        seeds = [labels[hy[0] + oy, hx[0] + ox] for ox, oy in offsets
                 if 0 <= hx[0] + ox < cols and 0 <= hy[0] + oy < rows]
        targets = np.isin(labels, np.asarray(seeds, dtype=labels.dtype))
    else:  # tiles: every object with a recolourable cell at an offset from any cell of the clicked one
        recolourable = np.zeros(len(table), dtype=bool)
        recolourable[[c for c in colour_map if 0 <= c < len(table)]] = True
        land = np.zeros(grid.shape, dtype=bool)
        for ox, oy in offsets:
            xs, ys = hx + ox, hy + oy
            inside = (xs >= 0) & (xs < cols) & (ys >= 0) & (ys < rows)
            land[ys[inside], xs[inside]] = True
        land &= ~home & recolourable[values]
        targets = np.isin(labels, np.unique(labels[land]))
        if (0, 0) in {tuple(o) for o in offsets}:
            targets |= home
    result: BoolArray = targets & (table[values] != values)
    return result


def _click_events(transitions: Sequence[Transition], ignore: Ignore | None) -> list[tuple[Transition, Cell, BoolArray]]:
    events = []
    for t in transitions:
        cell = t.click_cell() if t.local else None
        if cell is None:
            continue
        changed = t.changed()
        if ignore is not None:
            changed = changed & ~ignore(t)
        events.append((t, cell, changed))
    return events


def _colour_map(effects: Sequence[tuple[Transition, Cell, BoolArray]]) -> dict[int, int]:
    seen: dict[int, Counter[int]] = defaultdict(Counter)
    for t, _, changed in effects:
        for before, after in zip(t.before.grid[changed].tolist(), t.after.grid[changed].tolist(), strict=True):
            seen[int(before)][int(after)] += 1
    return {c: counts.most_common(1)[0][0] for c, counts in sorted(seen.items())}


def _region(effects: Sequence[tuple[Transition, Cell, BoolArray]]) -> Box:
    """The box of the clicked cells that had an effect."""
    xs = [cell[0] for _, cell, _ in effects]
    ys = [cell[1] for _, cell, _ in effects]
    return min(xs), min(ys), max(xs), max(ys)


def _panel(effects: Sequence[tuple[Transition, Cell, BoolArray]]) -> Box | None:
    """The box of the non-background area that holds the effective clicks (the whole panel they hit)."""
    grid = effects[-1][0].before.grid
    if any(e[0].before.grid.shape != grid.shape for e in effects):
        return None
    background = int(np.bincount(grid.ravel().astype(np.intp) & 15).argmax())
    seeds = np.zeros(grid.shape, dtype=bool)
    for _, (x, y), _ in effects:
        seeds[y, x] = True
    area = touching(grid != background, seeds)
    if not area.any():
        return None
    ys, xs = np.nonzero(area)
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _layout(t: Transition) -> tuple[object, ...]:
    """Geometry and logical size: where clicks work is learned from the latest layout (level) first."""
    return (t.before.geometry, t.before.grid.shape)


def _inside(cell: Cell, box: Box | None) -> bool:
    return box is None or (box[0] <= cell[0] <= box[2] and box[1] <= cell[1] <= box[3])


def _needed(effects: Sequence[tuple[Transition, Cell, BoolArray]], offset: Cell, unit: str,
            colour_map: dict[int, int]) -> int:
    """Support an offset needs: half the clicks where it could have shown (for cells: its target lies on
    the board in a colour clicks change, so a pattern clipped at the board's edge is still learned)."""
    if unit == "cell":
        def could(t: Transition, cell: Cell) -> bool:
            x, y = cell[0] + offset[0], cell[1] + offset[1]
            rows, cols = t.before.grid.shape
            return 0 <= x < cols and 0 <= y < rows and int(t.before.grid[y, x]) in colour_map
        count = sum(1 for t, cell, _ in effects if could(t, cell))
    else:
        count = len(effects)
    return 1 if count <= 1 else max(2, math.ceil(0.5 * count))


def learn_click(transitions: Sequence[Transition], ignore: Ignore | None = None) -> ClickRule | None:
    """The click rule that explains the most clicks in the window (None when nobody clicked)."""
    events = _click_events(transitions, ignore)
    if not events:
        return None
    effects = [e for e in events if e[2].any()]
    if not effects:
        return ClickRule(colour_map=(), no_effects=len(events))
    now = _layout(events[-1][0])
    # levels drawn at the same scale share a layout, yet each may use its own click pattern: once the level
    # being played (the clicks after the window's last level-up) has a few effective clicks, those decide
    last_level_up = max((t.step for t in transitions if t.level_up), default=-1)
    this_level = sum(1 for t, _, _ in effects if _layout(t) == now and t.step > last_level_up) >= MIN_LAYOUT_EFFECTS

    def scoped(t: Transition) -> bool:
        """A click of the current layout (and, once the level being played decides, of that level)."""
        return _layout(t) == now and (not this_level or t.step > last_level_up)

    latest = [e for e in effects if scoped(e[0])]
    # A new level may draw its board at another scale or spacing: once the current layout has a few
    # effective clicks of its own, the click's shape (unit, offsets) is learned from those alone.
    shaped = latest if len(latest) >= MIN_LAYOUT_EFFECTS else effects
    fits = Counter(unit for t, cell, changed in shaped for unit, ok in _fits(t, cell, changed).items() if ok)
    unit = "object" if fits["object"] > fits["cell"] else "cell"
    support = Counter(o for t, cell, changed in shaped for o in _offsets(t, cell, changed, unit))
    colour_map = {**_colour_map(effects), **_colour_map(latest)}
    offsets = tuple(sorted(o for o, n in support.items() if n >= _needed(shaped, o, unit, colour_map))) or ((0, 0),)
    fitted: tuple[tuple[str, int], ...] = (("cell", fits["cell"]), ("object", fits["object"]))
    winner_exact = _exact(shaped, colour_map, unit, offsets)
    if winner_exact < len(shaped):  # the tile unit competes only when the winner misses some click
        tiles = _tile_offsets(shaped, colour_map)
        tile_exact = _exact(shaped, colour_map, "tile", tiles) if tiles else 0
        fitted += (("tile", tile_exact),)
        if tile_exact > winner_exact:
            unit, offsets = "tile", tiles
    quiet = [(t, cell) for t, cell, changed in events if not changed.any()]
    # a box learned from the current layout's clicks is checked against that layout's quiet clicks only:
    # a cell of another level's board says nothing about where this board's panel is
    here = [(t, cell) for t, cell in quiet if scoped(t)] if latest else quiet
    region: Box | None = None
    if any(int(t.before.grid[cell[1], cell[0]]) in colour_map for t, cell in quiet):
        panel = _panel(latest or effects)
        region = _region(latest or effects)
        if panel is not None and not any(_inside(cell, panel) and int(t.before.grid[cell[1], cell[0]]) in colour_map
                                         for t, cell in here):
            region = panel
    against = sum(1 for t, cell in here if int(t.before.grid[cell[1], cell[0]]) in colour_map
                  and _inside(cell, region))
    return ClickRule(
        colour_map=tuple(colour_map.items()), unit=unit, offsets=offsets, region=region,
        effects=len(effects), no_effects=len(quiet), against=against,
        unit_fits=fitted,
    )
