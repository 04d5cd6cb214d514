"""Status bars and counters: regions that change on (almost) every step whatever the action."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dreamteam.perception.segmentation import BoolMask, detect_background, segment
from dreamteam.types import Grid

MASKED_VALUE = 16
COUNTER_SPREAD = 3.0
"""A two-way region counts as a counter only if all its changed cells fit in this many steps' worth of change."""
THIN_BAR_TICKS = 3
"""Steps and cells a thin one-way line must have changed on to be a bar (`HudSettings.thin_bars`)."""


@dataclass(frozen=True, slots=True)
class HudSettings:
    """Thresholds of the status-bar detector."""

    min_steps: int = 5
    min_fraction: float = 0.9
    max_area_fraction: float = 0.25
    join_radius: int = 1
    click_radius: int = 2
    thin_bars: bool = False
    """Also mask a line one or two pixels thick that only empties (to the background colour), however seldom
    it ticks (a budget that only some actions use up: a count of flips, shots or moves left drawn as a bar).
    Without it a bar must tick on nearly every step that changed anything."""


def empty_mask(shape: tuple[int, int] = (64, 64)) -> BoolMask:
    """A mask that hides nothing."""
    return np.zeros(shape, dtype=bool)


def _dilate(mask: BoolMask, radius: int) -> BoolMask:
    """4-neighbour dilation applied `radius` times (numpy shifts, no scipy)."""
    out = mask.copy()
    for _ in range(radius):
        grown = out.copy()
        grown[1:, :] |= out[:-1, :]
        grown[:-1, :] |= out[1:, :]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def _often(hits: list[bool], fraction: float) -> bool:
    return bool(hits) and sum(hits) >= fraction * len(hits)


@dataclass(frozen=True, slots=True)
class _Evidence:
    """Per-step change masks of a window of steps, with what the detector needs about each step."""

    changes: list[BoolMask]
    keys: list[Hashable]
    clicks: list[tuple[int, int] | None]
    from_bits: npt.NDArray[np.int32]
    to_bits: npt.NDArray[np.int32]

    @staticmethod
    def of(
        pairs: Sequence[tuple[Grid, Grid]],
        keys: Sequence[Hashable] | None,
        clicks: Sequence[tuple[int, int] | None] | None,
    ) -> _Evidence:
        """Collect change masks and, per cell, the bit sets of colours it changed from and to."""
        changes = [before != after for before, after in pairs]
        from_bits = np.zeros(changes[0].shape, dtype=np.int32)
        to_bits = np.zeros(changes[0].shape, dtype=np.int32)
        for (before, after), change in zip(pairs, changes, strict=True):
            from_bits[change] |= np.left_shift(1, before[change].astype(np.int32) & 0xF)
            to_bits[change] |= np.left_shift(1, after[change].astype(np.int32) & 0xF)
        n = len(changes)
        return _Evidence(
            changes,
            list(keys) if keys is not None else [None] * n,
            list(clicks or [None] * n),
            from_bits,
            to_bits,
        )


def _regardless_of_action(active: list[bool], keys: list[Hashable], cfg: HudSettings) -> bool:
    """Changed on almost every step, and on almost every step of each action kind seen twice or more."""
    if not _often(active, cfg.min_fraction):
        return False
    per_key: dict[Hashable, list[bool]] = defaultdict(list)
    for key, hit in zip(keys, active, strict=True):
        per_key[key].append(hit)
    return all(_often(hits, cfg.min_fraction) for hits in per_key.values() if len(hits) >= 2)


def _answers_clicks(area: BoolMask, ev: _Evidence, radius: int) -> bool:
    """Whether the region ever changed right where (or next to where) that step clicked: a game response."""
    rows, cols = area.shape
    for change, click in zip(ev.changes, ev.clicks, strict=True):
        if click is None:
            continue
        x, y = click
        window = (change & area)[
            max(0, y - radius) : min(rows, y + radius + 1), max(0, x - radius) : min(cols, x + radius + 1)
        ]
        if window.any():
            return True
    return False


def _is_used_up_bar(area: BoolMask, ev: _Evidence, cfg: HudSettings) -> bool:
    """Changes only one way (never back to a colour it left) on nearly every step that changed anything."""
    changed_here = np.logical_or.reduce(ev.changes) & area
    if np.any(ev.from_bits[changed_here] & ev.to_bits[changed_here]):
        return False
    hits = [bool(c[area].any()) for c in ev.changes if c.any()]
    return len(hits) >= cfg.min_steps and _often(hits, cfg.min_fraction)


def _is_thin_bar(area: BoolMask, ev: _Evidence, background: int) -> bool:
    """A line one or two pixels thick that only emptied (its cells changed to the background colour and never
    back), on at least `THIN_BAR_TICKS` steps and over as many cells: a budget bar ticking on the actions that
    use it up. A bar that fills (progress toward the level's end) is the game's state, not a status."""
    changed_here = np.logical_or.reduce(ev.changes) & area
    if np.any(ev.to_bits[changed_here] != 1 << (background & 0xF)):  # so never back: nothing left the background
        return False
    ys, xs = np.nonzero(changed_here)
    if len(ys) < THIN_BAR_TICKS or min(ys.max() - ys.min(), xs.max() - xs.min()) > 1:
        return False
    return sum(bool(c[area].any()) for c in ev.changes) >= THIN_BAR_TICKS


def _is_counter_like(area: BoolMask, ev: _Evidence, cfg: HudSettings) -> bool:
    """A compact spot that changes (both ways) on nearly every step whatever the action."""
    active = [bool(c[area].any()) for c in ev.changes]
    changed_here = np.logical_or.reduce(ev.changes) & area
    mean_area = sum(int((c & area).sum()) for c in ev.changes) / max(1, sum(active))
    compact = int(changed_here.sum()) <= COUNTER_SPREAD * mean_area
    return compact and _regardless_of_action(active, ev.keys, cfg)


def _status_regions(areas: list[BoolMask], ev: _Evidence, cfg: HudSettings) -> list[BoolMask]:
    """Bars, plus counters seen ticking on some step where nothing but status regions changed."""
    candidates = [a for a in areas if not _answers_clicks(a, ev, cfg.click_radius)]
    bars = [a for a in candidates if _is_used_up_bar(a, ev, cfg)]
    counters = [a for a in candidates if not any(a is b for b in bars) and _is_counter_like(a, ev, cfg)]
    status = np.logical_or.reduce(bars + counters) if bars or counters else None
    if status is None:
        return []
    alone = [c for c in ev.changes if c.any() and not c[~status].any()]
    return bars + [a for a in counters if any(c[a].any() for c in alone)]


def _extent(changed: BoolMask, first_frame: Grid, settings: HudSettings) -> BoolMask:
    """Bounding box of the changed cells plus the non-background components they touch (a bar's full length)."""
    limit = settings.max_area_fraction * changed.size
    cover = changed.copy()
    seg = segment(first_frame)
    for label in np.unique(seg.labels[changed]).tolist():
        comp = seg.components[label]
        if comp.colour != seg.background and comp.size <= limit:
            cover |= comp.full_mask()
    ys, xs = np.nonzero(cover)
    box = np.zeros_like(changed)
    box[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] = True
    return box if box.sum() <= limit else changed


def detect_hud_from_pairs(
    pairs: Sequence[tuple[Grid, Grid]],
    action_keys: Sequence[Hashable] | None = None,
    settings: HudSettings | None = None,
    clicks: Sequence[tuple[int, int] | None] | None = None,
) -> BoolMask:
    """Mask of status-bar regions seen over (before, after) step pairs.

    Changed cells are joined into regions (gaps up to `join_radius`). A region is HUD when it only ever
    changes one way (a bar being used up, never refilled within a life) and does so on almost every step
    that changed anything, or when it is a compact spot (a counter, a clock) that changes on almost every
    step whatever the action and is seen changing when nothing but status regions did. A player's trail changes both ways and spreads
    out, so it is neither; a region that changes where a step clicked (`clicks[i]` = (x, y)) is the game
    answering the click, never HUD. The mask is the region's bounding box, widened to the whole bar it
    belongs to in the first frame.
    """
    cfg = settings or HudSettings()
    if not pairs:
        return empty_mask()
    shape = pairs[0][0].shape
    if len(pairs) < cfg.min_steps:
        return empty_mask(shape)
    ev = _Evidence.of(pairs, action_keys, clicks)
    union = np.logical_or.reduce(ev.changes)
    regions = segment(_dilate(union, cfg.join_radius).astype(np.int8), background=0).objects
    areas = [r.full_mask() for r in regions]
    areas = [a for a in areas if (union & a).sum() <= cfg.max_area_fraction * union.size]
    hud = empty_mask(shape)
    for area in _status_regions(areas, ev, cfg):
        hud |= _extent(union & area, pairs[0][0], cfg)
    if cfg.thin_bars:
        # Lines are taken apart from their neighbours (no joining gap): a budget bar is often drawn a pixel or
        # two from a marker that moves both ways (a selection, a cursor).
        background = detect_background(pairs[0][0])
        for line in segment(union.astype(np.int8), background=0).objects:
            area = line.full_mask()
            if (not (area & hud).any() and not _answers_clicks(area, ev, cfg.click_radius)
                    and _is_thin_bar(area, ev, background)):
                hud |= _extent(area, pairs[0][0], cfg)
    return hud


def detect_hud(
    frames: Sequence[Grid],
    action_keys: Sequence[Hashable] | None = None,
    settings: HudSettings | None = None,
    clicks: Sequence[tuple[int, int] | None] | None = None,
) -> BoolMask:
    """HUD mask from consecutive frames (one step between each); `action_keys[i]` is the action of step i."""
    pairs = list(zip(frames[:-1], frames[1:], strict=True))
    return detect_hud_from_pairs(pairs, action_keys, settings, clicks)


def masked_grid(grid: Grid, mask: BoolMask | None) -> Grid:
    """Copy of the frame with masked cells set to 16 (a value no colour uses)."""
    out = grid.astype(np.int8, copy=True)
    if mask is not None:
        out[mask] = MASKED_VALUE
    return out


def masked_hash(grid: Grid, mask: BoolMask | None = None) -> str:
    """Stable 16-hex-digit hash of the frame with the masked cells ignored."""
    data = masked_grid(grid, mask) if mask is not None and mask.any() else grid.astype(np.int8, copy=False)
    return hashlib.blake2b(np.ascontiguousarray(data).tobytes(), digest_size=8).hexdigest()


def background_of(grid: Grid, mask: BoolMask | None = None) -> int:
    """Background colour of the frame outside the mask."""
    if mask is None or not mask.any():
        return detect_background(grid)
    return int(np.argmax(np.bincount(grid[~mask].astype(np.intp) & 0xF, minlength=16)))
