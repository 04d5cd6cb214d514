"""Grid helpers shared by the sub-goal modules: colour tables, object classes, tint aliases."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

from dreamteam.backends.symbolic.common.frames import Array, colour_table

MAX_TOUCH_CELLS = 24
"""Objects larger than this (walls, floors) get no `touch` sub-goal of their own."""

Tint = tuple[int, int, int]


def _commonest(grid: Array) -> int:
    """The colour most cells of a grid show (its floor or background)."""
    return int(np.bincount(grid.ravel().astype(np.intp) & 15).argmax())



def _unit(shift: tuple[int, int]) -> tuple[int, int]:
    return (int(np.sign(shift[0])), int(np.sign(shift[1])))



def _positions(grid: Array, movers: npt.NDArray[np.bool_]) -> frozenset[tuple[int, int]]:
    ys, xs = np.nonzero(movers[grid])
    return frozenset(zip(xs.tolist(), ys.tolist(), strict=True))



ObjectClass = tuple[int, bytes, tuple[int, ...]]
"""(colour, mask bytes, mask shape) of a 4-connected single-colour object: objects of one class look alike."""


def object_class(grid: Array, labels: npt.NDArray[np.int32], x: int, y: int) -> ObjectClass:
    """The class of the object under cell (x, y) (`labels`: `label_runs` of the grid)."""
    mask = labels == labels[y, x]
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return int(grid[y, x]), crop.tobytes(), crop.shape



def _aliases(movers: Collection[int], tints: Sequence[Tint]) -> frozenset[int]:
    """The movers and every colour they show when tinted (and what tinted colours stand for)."""
    out = set(movers)
    grown = True
    while grown:
        grown = False
        for colour, _, shown in tints:
            for a, b in ((colour, shown), (shown, colour)):
                if a in out and b not in out:
                    out.add(b)
                    grown = True
    return frozenset(out)



def _names(movers: Collection[int]) -> str:
    return " or ".join(f"mover colour {m}" for m in sorted(movers))


def _on_cells(start: Array, colour: int, floor: Array, tints: Sequence[Tint]) -> npt.NDArray[np.bool_]:
    """Cells that count as colour K: where the level start or the current grid shows it, or the level start
    shows a tint of something standing on it."""
    table = colour_table({colour} | {s for _, u, s in tints if u == colour})
    under: npt.NDArray[np.bool_] = table[floor] | (start == colour)
    return under

