"""Connected components of a frame: 4-connected, one colour per component, numpy-only."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dreamteam.types import Grid

LabelMap = npt.NDArray[np.int32]
BoolMask = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True, eq=False)
class Component:
    """One 4-connected single-colour region; bbox is (y0, x0, y1, x1) with y1, x1 exclusive."""

    label: int
    colour: int
    size: int
    bbox: tuple[int, int, int, int]
    centroid: tuple[float, float]
    labels: LabelMap = field(repr=False)

    @property
    def height(self) -> int:
        """Rows spanned by the bounding box."""
        return self.bbox[2] - self.bbox[0]

    @property
    def width(self) -> int:
        """Columns spanned by the bounding box."""
        return self.bbox[3] - self.bbox[1]

    @property
    def fill_ratio(self) -> float:
        """Cells divided by bounding-box area (1.0 for a solid rectangle)."""
        return self.size / float(self.height * self.width)

    def touches_border(self) -> bool:
        """Whether the component reaches any edge of the frame."""
        rows, cols = self.labels.shape
        y0, x0, y1, x1 = self.bbox
        return y0 == 0 or x0 == 0 or y1 == rows or x1 == cols

    def mask(self) -> BoolMask:
        """Boolean mask of the component cropped to its bounding box."""
        y0, x0, y1, x1 = self.bbox
        crop: BoolMask = self.labels[y0:y1, x0:x1] == self.label
        return crop

    def full_mask(self) -> BoolMask:
        """Boolean mask of the component over the whole frame."""
        whole: BoolMask = self.labels == self.label
        return whole

    def cells(self) -> npt.NDArray[np.intp]:
        """The component's cells as an (n, 2) array of (y, x), row-major order."""
        local = np.argwhere(self.mask())
        return local + np.array([self.bbox[0], self.bbox[1]], dtype=np.intp)

    def representative_cell(self) -> tuple[int, int]:
        """The component's cell nearest its centroid, as (y, x); ties go to row-major order."""
        cells = self.cells()
        dist = (cells[:, 0] - self.centroid[0]) ** 2 + (cells[:, 1] - self.centroid[1]) ** 2
        y, x = cells[int(np.argmin(dist))]
        return int(y), int(x)


@dataclass(frozen=True, slots=True, eq=False)
class Segmentation:
    """All components of a frame, its label map and the background colour."""

    labels: LabelMap
    components: tuple[Component, ...]
    background: int

    @property
    def objects(self) -> tuple[Component, ...]:
        """Components whose colour is not the background colour."""
        return tuple(c for c in self.components if c.colour != self.background)

    def component_at(self, y: int, x: int) -> Component:
        """The component that owns cell (y, x)."""
        return self.components[int(self.labels[y, x])]


def colour_counts(grid: Grid) -> npt.NDArray[np.intp]:
    """Cell count per colour 0..15."""
    return np.bincount(grid.ravel().astype(np.intp) & 0xF, minlength=16)


def border_colour(grid: Grid) -> int:
    """The most common colour on the frame's outer ring (lowest index on ties)."""
    ring = np.concatenate([grid[0, :], grid[-1, :], grid[1:-1, 0], grid[1:-1, -1]])
    return int(np.argmax(np.bincount(ring.astype(np.intp) & 0xF, minlength=16)))


def detect_background(grid: Grid) -> int:
    """The most common colour; ties are broken by frequency on the border, then lowest index."""
    counts = colour_counts(grid)
    tied = np.flatnonzero(counts == counts.max())
    if len(tied) == 1:
        return int(tied[0])
    ring = np.concatenate([grid[0, :], grid[-1, :], grid[:, 0], grid[:, -1]])
    ring_counts = np.bincount(ring.astype(np.intp) & 0xF, minlength=16)
    return int(tied[int(np.argmax(ring_counts[tied]))])


def _find_roots(parent: list[int], a: npt.NDArray[np.intp], b: npt.NDArray[np.intp]) -> list[int]:
    """Union-find over run pairs; returns each run's root."""

    def find(i: int) -> int:
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        ri, rj = find(i), find(j)
        if ri != rj:
            if ri < rj:
                parent[rj] = ri
            else:
                parent[ri] = rj
    return [find(i) for i in range(len(parent))]


def label_runs(grid: Grid) -> tuple[LabelMap, int]:
    """Label map of 4-connected single-colour components, numbered in row-major order of first cell."""
    rows, cols = grid.shape
    starts = np.ones((rows, cols), dtype=bool)
    starts[:, 1:] = grid[:, 1:] != grid[:, :-1]
    run_of_cell = (np.cumsum(starts.ravel()) - 1).reshape(rows, cols)
    n_runs = int(run_of_cell[-1, -1]) + 1
    same_below = grid[1:] == grid[:-1]
    pair_keys = np.unique(run_of_cell[:-1][same_below] * n_runs + run_of_cell[1:][same_below])
    roots = np.asarray(_find_roots(list(range(n_runs)), pair_keys // n_runs, pair_keys % n_runs))
    # Roots are the smallest run index of each component, so ranking them keeps row-major order.
    unique_roots, run_label = np.unique(roots, return_inverse=True)
    return run_label.astype(np.int32)[run_of_cell], len(unique_roots)


def run_cells(labels: LabelMap, count: int) -> Iterator[tuple[int, npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """(label, ys, xs) of each labelled component of `label_runs`, its cells in reading order: one sort of
    the grid instead of one pass over it per component (a 64x64 frame has hundreds)."""
    flat = labels.ravel()
    order = np.argsort(flat, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(flat, minlength=count))))
    cols = labels.shape[1]
    for label in range(count):
        cells = order[bounds[label] : bounds[label + 1]]
        if len(cells):
            yield label, cells // cols, cells % cols


def segment(grid: Grid, background: int | None = None) -> Segmentation:
    """Split a frame into 4-connected single-colour components with their statistics."""
    labels, count = label_runs(grid)
    flat = labels.ravel()
    rows, cols = grid.shape
    ys, xs = np.divmod(np.arange(rows * cols), cols)
    sizes = np.bincount(flat, minlength=count)
    sum_y = np.bincount(flat, weights=ys, minlength=count)
    sum_x = np.bincount(flat, weights=xs, minlength=count)
    y0 = np.full(count, rows, dtype=np.intp)
    x0 = np.full(count, cols, dtype=np.intp)
    y1 = np.zeros(count, dtype=np.intp)
    x1 = np.zeros(count, dtype=np.intp)
    np.minimum.at(y0, flat, ys)
    np.minimum.at(x0, flat, xs)
    np.maximum.at(y1, flat, ys + 1)
    np.maximum.at(x1, flat, xs + 1)
    first_cell = np.zeros(count, dtype=np.intp)
    first_cell[flat[::-1]] = np.arange(rows * cols)[::-1]
    colours = grid.ravel()[first_cell].astype(np.intp).tolist()
    size_list, cy, cx = sizes.tolist(), (sum_y / sizes).tolist(), (sum_x / sizes).tolist()
    boxes = zip(y0.tolist(), x0.tolist(), y1.tolist(), x1.tolist(), strict=True)
    components = tuple(
        Component(i, colours[i], size_list[i], box, (cy[i], cx[i]), labels) for i, box in enumerate(boxes)
    )
    bg = detect_background(grid) if background is None else background
    return Segmentation(labels=labels, components=components, background=bg)
