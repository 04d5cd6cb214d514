"""Frame perception: connected components, background, pixel scale, status-bar masks, masked hashes."""

from __future__ import annotations

from dreamteam.perception.hud import (
    MASKED_VALUE,
    HudSettings,
    background_of,
    detect_hud,
    detect_hud_from_pairs,
    empty_mask,
    masked_grid,
    masked_hash,
)
from dreamteam.perception.scale import PixelScale, detect_scale
from dreamteam.perception.segmentation import (
    BoolMask,
    Component,
    LabelMap,
    Segmentation,
    border_colour,
    colour_counts,
    detect_background,
    label_runs,
    run_cells,
    segment,
)

__all__ = [
    "MASKED_VALUE",
    "BoolMask",
    "Component",
    "HudSettings",
    "LabelMap",
    "PixelScale",
    "Segmentation",
    "background_of",
    "border_colour",
    "colour_counts",
    "detect_background",
    "detect_hud",
    "detect_hud_from_pairs",
    "detect_scale",
    "empty_mask",
    "label_runs",
    "run_cells",
    "masked_grid",
    "masked_hash",
    "segment",
]
