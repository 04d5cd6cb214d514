"""Status bars and counters: regions that change on (almost) every step whatever the action."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from dreamteam.perception.segmentation import BoolMask, detect_background, segment
from dreamteam.types import Grid

MASKED_VALUE = 16


@dataclass(frozen=True, slots=True)
class HudSettings:
    """Thresholds of the status-bar detector."""

    min_steps: int = 5
    min_fraction: float = 0.9
    max_area_fraction: float = 0.15
    join_radius: int = 2


def empty_mask(shape: tuple[int, int] = (64, 64)) -> BoolMask:
    """A mask that hides nothing."""
    return np.zeros(shape, dtype=bool)


def _dilate(mask: BoolMask, radius: int) -> BoolMask:
    """Square dilation by `radius` cells (numpy shifts, no scipy)."""
    out = mask.copy()
    for _ in range(radius):
        grown = out.copy()
        grown[1:, :] |= out[:-1, :]
        grown[:-1, :] |= out[1:, :]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def _active_everywhere(
    region: BoolMask, changes: Sequence[BoolMask], keys: Sequence[Hashable] | None, settings: HudSettings
) -> bool:
    """Whether the region changed on enough steps overall and for every action kind seen twice or more."""
    active = [bool(change[region].any()) for change in changes]
    if sum(active) < settings.min_fraction * len(active):
        return False
    if keys is None:
        return True
    per_key: dict[Hashable, list[bool]] = defaultdict(list)
    for key, hit in zip(keys, active, strict=True):
        per_key[key].append(hit)
    return all(sum(hits) >= settings.min_fraction * len(hits) for hits in per_key.values() if len(hits) >= 2)


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
) -> BoolMask:
    """Mask of regions that changed in almost every (before, after) pair, regardless of the action taken."""
    cfg = settings or HudSettings()
    if not pairs:
        return empty_mask()
    shape = pairs[0][0].shape
    if len(pairs) < cfg.min_steps:
        return empty_mask(shape)
    changes = [before != after for before, after in pairs]
    union = np.logical_or.reduce(changes)
    if not union.any():
        return empty_mask(shape)
    regions = segment(_dilate(union, cfg.join_radius).astype(np.int8), background=0).objects
    hud = empty_mask(shape)
    for region in regions:
        area = region.full_mask()
        if not _active_everywhere(area, changes, action_keys, cfg):
            continue
        changed_here = union & area
        if changed_here.sum() > cfg.max_area_fraction * union.size:
            continue
        hud |= _extent(changed_here, pairs[0][0], cfg)
    return hud


def detect_hud(
    frames: Sequence[Grid], action_keys: Sequence[Hashable] | None = None, settings: HudSettings | None = None
) -> BoolMask:
    """HUD mask from consecutive frames (one step between each); `action_keys[i]` is the action of step i."""
    pairs = list(zip(frames[:-1], frames[1:], strict=True))
    return detect_hud_from_pairs(pairs, action_keys, settings)


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
