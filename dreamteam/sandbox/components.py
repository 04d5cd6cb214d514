"""Connected components of a colour grid: union-find over horizontal runs of equal colour."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def _runs(arr: npt.NDArray[Any]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Horizontal runs of equal colour: parallel lists of row, start x, end x (exclusive), colour."""
    height, width = arr.shape
    starts = np.ones((height, width), dtype=bool)
    starts[:, 1:] = arr[:, 1:] != arr[:, :-1]
    ys, xs = np.nonzero(starts)
    flat = ys * width + xs
    ends_flat = np.append(flat[1:], height * width)
    row_end = (ys + 1) * width
    ends = np.minimum(ends_flat, row_end) - ys * width
    return ys.tolist(), xs.tolist(), ends.tolist(), arr[ys, xs].tolist()


def connected_components(arr: npt.NDArray[Any], background: int = 0, diagonal: bool = False) -> list[dict[str, Any]]:
    """Connected same-colour objects of a 2-D array, by union-find over horizontal runs (see grid.components)."""
    ys, xs, ends, cols = _runs(arr)
    parent = list(range(len(ys)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    reach = 1 if diagonal else 0
    prev_lo = prev_hi = row_start = 0
    for i, y in enumerate(ys):
        if i == 0 or y != ys[i - 1]:
            # every row starts a run, so the runs of row y-1 are exactly row_start..i-1
            prev_lo, prev_hi, row_start = (row_start, i, i) if i else (0, 0, 0)
        if cols[i] == background:
            continue
        for j in range(prev_lo, prev_hi):
            if cols[j] == cols[i] and xs[j] < ends[i] + reach and xs[i] < ends[j] + reach:
                parent[root(i)] = root(j)
    return _collect_components(ys, xs, ends, cols, background, root)


def _collect_components(
    ys: list[int], xs: list[int], ends: list[int], cols: list[int], background: int, root: Any
) -> list[dict[str, Any]]:
    groups: dict[int, list[int]] = {}
    for i, colour in enumerate(cols):
        if colour != background:
            groups.setdefault(root(i), []).append(i)
    found: list[dict[str, Any]] = []
    for members in groups.values():
        found_cells = sorted((x, ys[i]) for i in members for x in range(xs[i], ends[i]))
        x_values = [x for x, _ in found_cells]
        y_values = [y for _, y in found_cells]
        box = (min(x_values), min(y_values), max(x_values), max(y_values))
        found.append({"color": cols[members[0]], "size": len(found_cells), "bbox": box, "cells": found_cells})
    found.sort(key=lambda c: (c["bbox"][1], c["bbox"][0], c["color"]))
    return found
