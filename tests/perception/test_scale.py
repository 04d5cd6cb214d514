"""Pixel-scale detection on frames rendered the way arcengine's camera renders them."""

from __future__ import annotations

import numpy as np
import pytest
from arcengine import Camera, Sprite
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.perception import PixelScale, detect_scale
from dreamteam.types import Grid


def camera_render(logical: Grid, letter_box: int = 5) -> tuple[Grid, int, int, int]:
    """Scale and letterbox like arcengine.Camera: largest integer scale that fits, centred."""
    height, width = logical.shape
    scale = min(64 // width, 64 // height)
    x_off, y_off = (64 - width * scale) // 2, (64 - height * scale) // 2
    out = np.full((64, 64), letter_box, dtype=np.int8)
    block = np.repeat(np.repeat(logical, scale, axis=0), scale, axis=1)
    out[y_off : y_off + block.shape[0], x_off : x_off + block.shape[1]] = block
    return out, scale, x_off, y_off


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 64),
    st.integers(3, 64),
    st.integers(0, 2**31 - 1),
)
def test_detects_scale_and_offset_of_a_varied_logical_grid(width: int, height: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    logical = rng.integers(0, 5, size=(height, width)).astype(np.int8)
    logical[0, :] = np.arange(width) % 2 + 5  # alternating first row and column: a boundary at every cell
    logical[:, 0] = np.arange(height) % 2 + 5
    frame, scale, x_off, y_off = camera_render(logical, letter_box=15)
    found = detect_scale(frame)
    assert found.scale == scale
    assert found.x_offset == x_off % scale and found.y_offset == y_off % scale
    assert np.array_equal(found.display_grid(found.logical_grid(frame), fill=15), frame)


def test_matches_the_real_arcengine_camera() -> None:
    camera = Camera(width=10, height=8, background=0, letter_box=5)
    sprites = [
        Sprite([[3, 3], [3, -1]], name="a", x=1, y=1),
        Sprite([[9]], name="b", x=7, y=6),
        Sprite([[11, 11, 11]], name="c", x=4, y=0),
    ]
    frame = camera.render(sprites)
    found = detect_scale(frame)
    assert found.scale == 6  # min(64 // 10, 64 // 8)
    assert (found.x_offset, found.y_offset) == (2, 8 % 6)
    assert found.to_cell(2 + 7 * 6 + 3, 8 + 6 * 6) == (7, 6 + 1)  # y offset 8 = one whole cell + 2
    assert frame[found.to_display(7, 7)[1], found.to_display(7, 7)[0]] == 9


def test_several_frames_refine_a_coarse_guess() -> None:
    logical = np.zeros((16, 16), dtype=np.int8)
    logical[4:8, 4:8] = 2  # alone this looks like 16-pixel blocks
    first = np.repeat(np.repeat(logical, 4, 0), 4, 1)
    moved = np.roll(first, 4, axis=1)
    assert detect_scale(first).scale == 16
    assert detect_scale([first, moved]).scale == 4


def test_cell_conversions_round_trip() -> None:
    px = PixelScale(scale=4, x_offset=2, y_offset=1)
    assert px.columns == 15 and px.rows == 15
    for cx, cy in [(0, 0), (3, 7), (14, 14)]:
        x, y = px.to_display(cx, cy)
        assert px.to_cell(x, y) == (cx, cy)
    assert px.to_cell(1, 5) is None  # inside the left letterbox margin
    assert px.to_cell(63, 63) is None  # past the last whole cell
    with pytest.raises(ValueError, match="outside"):
        px.to_display(15, 0)


def test_uniform_frame_has_unit_scale() -> None:
    assert detect_scale(np.zeros((64, 64), dtype=np.int8)) == PixelScale()
