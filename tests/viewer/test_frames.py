"""The compact frame encoding of the HTML viewer round-trips and stays small."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.types import Grid
from dreamteam.viewer.frames import decode_frames, encode_frames


@st.composite
def grid_sequences(draw: st.DrawFn) -> list[Grid | None]:
    height, width = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    base = np.array(draw(st.lists(st.integers(0, 15), min_size=height * width, max_size=height * width)),
                    dtype=np.int8).reshape(height, width)
    out: list[Grid | None] = []
    for kind in draw(st.lists(st.sampled_from(["same", "poke", "new", "none", "resize"]), max_size=8)):
        if kind == "none":
            out.append(None)
            continue
        if kind == "poke":
            base = base.copy()
            base[draw(st.integers(0, base.shape[0] - 1)), draw(st.integers(0, base.shape[1] - 1))] = draw(
                st.integers(0, 15))
        elif kind in ("new", "resize"):
            shape = (draw(st.integers(1, 12)), draw(st.integers(1, 12))) if kind == "resize" else base.shape
            base = np.array(draw(st.lists(st.integers(0, 15), min_size=shape[0] * shape[1],
                                          max_size=shape[0] * shape[1])), dtype=np.int8).reshape(shape)
        out.append(base)
    return out


@settings(max_examples=60, deadline=None)
@given(grid_sequences())
def test_round_trip(grids: list[Grid | None]) -> None:
    decoded = decode_frames(encode_frames(grids))
    assert len(decoded) == len(grids)
    for want, got in zip(grids, decoded, strict=True):
        assert (want is None and got is None) or (want is not None and got is not None and np.array_equal(want, got))


def test_small_changes_are_encoded_as_changed_cells() -> None:
    a = np.zeros((64, 64), dtype=np.int8)
    b = a.copy()
    b[10, 3] = 12
    encoded = encode_frames([a, b, b])
    assert encoded[0].startswith("F4040") and len(encoded[0]) == 5 + 64 * 64
    assert encoded[1] == "D030a" + "c" and encoded[2] == "D"


def test_rejects_oversized_frames() -> None:
    with pytest.raises(ValueError, match="at most 255x255"):
        encode_frames([np.zeros((300, 2), dtype=np.int8)])
