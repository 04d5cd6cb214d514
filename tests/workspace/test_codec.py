"""Grid and transition encodings."""

from __future__ import annotations

import json

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamteam.codec import (
    CodecError,
    decode_grid,
    encode_grid,
    grid_hash,
    grid_to_lists,
    normalise_transition,
    transition_from_text,
    transition_to_line,
    transition_to_pretty,
)

grids = hnp.arrays(np.int8, st.tuples(st.integers(1, 64), st.integers(1, 64)), elements=st.integers(0, 15))


@given(grids)
def test_encode_decode_round_trip(grid: np.ndarray) -> None:
    rows = encode_grid(grid)
    assert len(rows) == grid.shape[0] and all(len(r) == grid.shape[1] for r in rows)
    decoded = decode_grid(rows)
    assert decoded.dtype == np.int8
    assert np.array_equal(decoded, grid)


def test_encoding_layout_is_row_y_column_x() -> None:
    grid = np.zeros((64, 64), dtype=np.int8)
    grid[2, 5] = 11
    grid[63, 63] = 15
    rows = encode_grid(grid)
    assert rows[2][5] == "b" and rows[63][63] == "f" and rows[0] == "0" * 64


def test_decode_accepts_upper_case_and_lists() -> None:
    assert decode_grid(["AF", "0c"]).tolist() == [[10, 15], [0, 12]]
    assert encode_grid([[10, 15], [0, 12]]) == ["af", "0c"]


@pytest.mark.parametrize("rows", [[], ["0g"], ["00", "0"], "0000", ["", ""]])
def test_decode_rejects_bad_rows(rows: object) -> None:
    with pytest.raises(CodecError):
        decode_grid(rows)  # type: ignore[arg-type]


@pytest.mark.parametrize("grid", [np.full((2, 2), 16), np.full((2, 2), -1), np.zeros(4), np.zeros((2, 2)) + 0.5])
def test_encode_rejects_bad_grids(grid: np.ndarray) -> None:
    with pytest.raises(CodecError):
        encode_grid(grid)


@given(grids)
def test_grid_hash_is_stable_across_representations(grid: np.ndarray) -> None:
    assert grid_hash(grid) == grid_hash(grid_to_lists(grid)) == grid_hash(grid.astype(np.int64))
    assert len(grid_hash(grid)) == 16


def test_grid_hash_distinguishes_shape_and_content() -> None:
    zeros = np.zeros((4, 4), dtype=np.int8)
    changed = zeros.copy()
    changed[3, 3] = 1
    assert grid_hash(zeros) != grid_hash(changed)
    assert grid_hash(np.zeros((2, 8), dtype=np.int8)) != grid_hash(np.zeros((8, 2), dtype=np.int8))


def test_transition_round_trips_in_both_layouts() -> None:
    grid = np.arange(64 * 64).reshape(64, 64) % 16
    raw = {"step": 3, "level": 1, "action": {"action": "ACTION6", "x": 1, "y": 2}, "before": grid,
           "after": encode_grid(grid), "history": {"k": [1, 2]}, "level_up": True}
    normal = normalise_transition(raw)
    assert normal["before"] == normal["after"] == encode_grid(grid)
    assert normal["frames"] == 1 and normal["pinned"] is False and normal["pin_reason"] == ""
    pretty = transition_to_pretty(normal)
    assert pretty.count("\n") > 128  # one line per grid row
    assert transition_from_text(pretty) == normal
    line = transition_to_line(normal)
    assert "\n" not in line and json.loads(line) == normal


def test_transition_errors_are_clear() -> None:
    with pytest.raises(CodecError, match="lacks before, after"):
        normalise_transition({"step": 1, "level": 0, "action": {"action": "ACTION1"}})
    with pytest.raises(CodecError, match="valid JSON"):
        transition_from_text("{nope")
