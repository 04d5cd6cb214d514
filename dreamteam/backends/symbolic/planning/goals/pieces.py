"""A grid's connected one-colour pieces, labelled once per search, and the colours that draw walls."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.frames import Array
from dreamteam.backends.symbolic.planning.goals.gathering import Evidence
from dreamteam.backends.symbolic.planning.goals.grids import MAX_TOUCH_CELLS
from dreamteam.perception import label_runs


@dataclass(frozen=True, slots=True)
class _Pieces:
    """The grid's connected one-colour pieces: labels per cell, and per piece its first cell (flat index),
    colour and size."""

    labels: npt.NDArray[np.int32]
    firsts: npt.NDArray[np.intp]
    colours: Array
    sizes: npt.NDArray[np.intp]

    @classmethod
    def of(cls, grid: Array) -> _Pieces:
        labels, count = label_runs(grid)
        flat = labels.ravel()
        sizes = np.bincount(flat, minlength=count)
        firsts = np.full(count, flat.size, dtype=np.intp)
        np.minimum.at(firsts, flat, np.arange(flat.size))
        return cls(labels, firsts, grid.ravel()[firsts], sizes)

    def structures(self) -> set[int]:
        """Colours drawing a piece of more than `MAX_TOUCH_CELLS` cells (walls, floors), not objects."""
        return {int(c) for c in self.colours[self.sizes > MAX_TOUCH_CELLS]}


class _LazyPieces:
    """`_Pieces.of(grid)`, computed on first use and then shared (the wall test and the touch goals)."""

    def __init__(self, grid: Array) -> None:
        self.grid = grid
        self._pieces: _Pieces | None = None

    def get(self) -> _Pieces:
        if self._pieces is None:
            self._pieces = _Pieces.of(self.grid)
        return self._pieces


def _walls(evidence: Evidence, pieces: _LazyPieces) -> set[int]:
    """Colours seen stopping a mover, never entered by any, that draw a big structure here: walls."""
    candidates = evidence.stoppers - evidence.entered - evidence.movers
    return pieces.get().structures() & candidates if candidates else set()
