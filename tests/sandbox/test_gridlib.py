"""The `grid` module artifacts import: a read-only frame type and canvas helpers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dreamteam.sandbox import gridlib, hex_rows
from dreamteam.sandbox.gridlib import Grid

FRAME = Grid.from_hex_rows(["0120", "0a20", "000f"])


def test_frame_decodes_and_indexes_both_ways() -> None:
    assert (FRAME.height, FRAME.width, len(FRAME)) == (3, 4, 3)
    assert FRAME[1][1] == 10 and FRAME[1, 1] == 10 and FRAME.at(3, 2) == 15
    assert [list(row) for row in FRAME] == [[0, 1, 2, 0], [0, 10, 2, 0], [0, 0, 0, 15]]
    assert FRAME == [[0, 1, 2, 0], [0, 10, 2, 0], [0, 0, 0, 15]]
    with pytest.raises(IndexError):
        FRAME.at(4, 0)


def test_frame_is_read_only_and_tolist_is_a_fresh_copy() -> None:
    copy = FRAME.tolist()
    copy[0][0] = 9
    assert FRAME[0][0] == 0
    with pytest.raises(TypeError):
        FRAME[0] = (1, 1, 1, 1)  # type: ignore[index]
    with pytest.raises(TypeError):
        FRAME[0][0] = 1  # type: ignore[index]


@pytest.mark.parametrize("rows", [[], ["01", "0"], ["0g"], "0123"])
def test_bad_hex_rows_are_refused(rows: list[str]) -> None:
    with pytest.raises(ValueError):
        Grid.from_hex_rows(rows)


def test_canvases_are_bytearray_rows() -> None:
    canvas = gridlib.full(2, 3, 7)
    assert canvas == [bytearray(b"\x07\x07\x07")] * 2 and canvas[0] is not canvas[1]
    assert gridlib.zeros(1, 2) == [bytearray(2)]
    assert gridlib.copy(FRAME)[1] == bytearray([0, 10, 2, 0])
    with pytest.raises(ValueError):
        gridlib.full(2, 2, 300)
    with pytest.raises(ValueError):
        gridlib.zeros(0, 5)


def test_reading_helpers() -> None:
    assert gridlib.count(FRAME, 2) == 2 and gridlib.count([[2, 2], [0, 2]], 2) == 3
    assert gridlib.colors(FRAME) == {0: 7, 1: 1, 2: 2, 10: 1, 15: 1}
    assert gridlib.cells(FRAME, 2) == [(2, 0), (2, 1)]
    assert gridlib.bbox(FRAME, 2) == (2, 0, 2, 1) and gridlib.bbox(FRAME, 9) is None
    assert gridlib.equal(FRAME, gridlib.copy(FRAME)) and not gridlib.equal(FRAME, gridlib.zeros(3, 4))
    assert gridlib.diff(FRAME, gridlib.zeros(3, 4), limit=2) == [(1, 0, 1, 0), (2, 0, 2, 0)]


def test_making_helpers() -> None:
    assert gridlib.shift([[1, 2], [3, 4]], 1, 0) == [bytearray([0, 1]), bytearray([0, 3])]
    assert gridlib.shift([[1, 2], [3, 4]], 0, -1, fill=9) == [bytearray([3, 4]), bytearray([9, 9])]
    assert gridlib.crop(FRAME, 1, 0, 2, 1) == [bytearray([1, 2]), bytearray([10, 2])]
    assert gridlib.replace(FRAME, 2, 5)[0] == bytearray([0, 1, 5, 0])


def test_painting_is_in_place_and_clipped() -> None:
    canvas = gridlib.zeros(2, 2)
    assert gridlib.paint(canvas, [(0, 0), (1, 1), (5, 5), (-1, 0)], 3) is canvas
    assert canvas == [bytearray([3, 0]), bytearray([0, 3])]
    gridlib.fill_rect(canvas, -3, 1, 9, 9, 4)
    assert canvas == [bytearray([3, 0]), bytearray([4, 4])]
    lists = [[0, 0], [0, 0]]
    gridlib.fill_rect(lists, 0, 0, 0, 1, 1)
    assert lists == [[1, 0], [1, 0]]
    with pytest.raises(TypeError, match="frames are read-only"):
        gridlib.paint(FRAME, [(0, 0)], 1)


def test_components_four_and_eight_connected() -> None:
    diagonal = [[3, 0, 0], [0, 3, 0], [0, 0, 5]]
    four = gridlib.components(diagonal)
    assert [(c["color"], c["size"]) for c in four] == [(3, 1), (3, 1), (5, 1)]
    eight = gridlib.components(diagonal, diagonal=True)
    assert [(c["color"], c["bbox"], c["cells"]) for c in eight] == [(3, (0, 0, 1, 1), [(0, 0), (1, 1)]), (5, (2, 2, 2, 2), [(2, 2)])]


@settings(max_examples=60, deadline=None)
@given(arrays(np.int8, st.tuples(st.integers(1, 9), st.integers(1, 9)), elements=st.integers(0, 3)), st.booleans())
def test_components_partition_the_foreground_into_connected_single_colour_objects(arr: np.ndarray, diagonal: bool) -> None:
    frame = Grid.from_hex_rows(hex_rows(arr))
    found = gridlib.components(frame, background=0, diagonal=diagonal)
    seen = [cell for comp in found for cell in comp["cells"]]
    assert sorted(seen) == sorted((int(x), int(y)) for y, x in zip(*np.nonzero(arr), strict=True))
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
    for comp in found:
        cells = set(comp["cells"])
        assert {int(arr[y, x]) for x, y in cells} == {comp["color"]}
        reached, todo = {comp["cells"][0]}, [comp["cells"][0]]
        while todo:
            x, y = todo.pop()
            for dx, dy in steps:
                if (x + dx, y + dy) in cells and (x + dx, y + dy) not in reached:
                    reached.add((x + dx, y + dy))
                    todo.append((x + dx, y + dy))
        assert reached == cells
    owner = {cell: i for i, comp in enumerate(found) for cell in comp["cells"]}
    for (x, y), i in owner.items():  # maximal: no same-colour neighbour belongs to another component
        for dx, dy in steps:
            j = owner.get((x + dx, y + dy))
            assert j is None or j == i or found[j]["color"] != found[i]["color"]
