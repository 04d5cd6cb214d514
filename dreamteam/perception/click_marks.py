"""Click marks: a brief drawing a game makes at the clicked pixel (a cross, a ring) that fades after a number
of frames whatever the player does next.

A mark makes the frame after a click, and the frames after it until the mark fades, differ from the same
game state reached another way: a map keyed by frames sees every click as a move to a new state, and a
state space of N states becomes N times the number of click targets. The tracker learns the mark from the
steps it is fed (what a click draws around its pixel, in which colours, and after how many frames the
drawn cells show again what they showed before the click) and then removes it from frames: under the
footprint of a recent click's mark, a cell showing one of the mark's colours keeps the value the cleaned
frame before it had.

What counts as a mark (so that a game's real answer to a click is not taken for one): the same drawing
(cells relative to the click, and their colours) after at least `min_samples` clicks at different pixels;
each of them gone within `max_duration` frames with nothing else of the window changed for good; and at
least one of them gone with no click in between (not undone by clicking elsewhere, as a selection is), or
the same drawing over pixels of different colours (a highlight follows the object clicked), or the drawing
changing by itself the same way around two clicks (an animation; a selection stays as drawn).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dreamteam.types import Action, Grid

MAX_SAMPLES = 256
"""Faded drawings remembered (the latest)."""
Offset = tuple[int, int]
"""(dy, dx) of a cell relative to the clicked pixel."""


@dataclass(frozen=True, slots=True)
class MarkSettings:
    """Limits of what the tracker accepts as a click mark."""

    radius: int = 4
    """A mark's cells lie at most this many pixels (Chebyshev) from the clicked pixel."""
    max_duration: int = 24
    """A drawing still there after this many frames is not a mark."""
    min_samples: int = 3
    """Faded drawings (at different pixels, with the same first frame) needed before a mark is used."""
    max_colours: int = 3
    """A mark uses at most this many colours over its frames."""


@dataclass(frozen=True, slots=True)
class ClickMark:
    """A learned click mark: the cells it may cover, its colours, and how many frames it lasts."""

    offsets: tuple[Offset, ...]
    colours: frozenset[int]
    duration: int


def _drawing(part: Grid, diff: npt.NDArray[np.bool_], dy: int, dx: int) -> frozenset[tuple[int, int, int]]:
    """(row, column, colour) of the `diff` cells of a window `part`, shifted by (dy, dx) to be relative to the
    clicked pixel."""
    return frozenset((int(r) + dy, int(c) + dx, int(part[r, c])) for r, c in zip(*np.nonzero(diff), strict=True))


@dataclass(slots=True)
class _Sample:
    """One click's drawing, followed frame by frame until it fades (or proves not to be a mark)."""

    x: int
    y: int
    window: tuple[int, int, int, int]
    """Rows y0:y1 and columns x0:x1 of the frame around the click."""
    base: Grid
    """The window before the click."""
    pattern: frozenset[tuple[int, int, int]]
    """(dy, dx, colour) of each cell the click changed in the window, on the click's own frame."""
    clicked_colour: int
    drawn: dict[Offset, set[int]] = field(default_factory=dict)
    """Each cell of the window seen to differ from the base, with the colours it showed."""
    first: dict[int, int] = field(default_factory=dict)
    """Each colour the drawing showed, with the age it first showed at."""
    age: int = 0
    """Frames since the click's own frame."""
    undisturbed: bool = True
    """No click came between the click and the drawing's fading."""
    second: frozenset[tuple[int, int, int]] | None = None
    """The drawing on the next frame, when no click led to it (an animated mark changes by itself)."""

    def note(self, grid: Grid, clicked: bool = False) -> bool:
        """Add the cells of `grid` that still differ from the window's base (`clicked`: a click led to
        `grid`); True when none does."""
        y0, y1, x0, x1 = self.window
        part = grid[y0:y1, x0:x1]
        diff = part != self.base
        if not diff.any():
            return True
        if self.age == 1 and not clicked:
            self.second = _drawing(part, diff, y0 - self.y, x0 - self.x)
        for r, c in zip(*np.nonzero(diff), strict=True):
            colour = int(part[r, c])
            self.drawn.setdefault((int(r) + y0 - self.y, int(c) + x0 - self.x), set()).add(colour)
            self.first.setdefault(colour, self.age)
        return False


def _animated(samples: list[_Sample]) -> bool:
    """Whether the drawing changed by itself, the same way at two pixels at least: its next frame, with no
    click in between, differs from its first and is the same around two clicks (a selection stays as drawn
    until the next click; a sprite passing by is not the same around two clicks)."""
    seconds = Counter(s.second for s in samples if s.second is not None and s.second != s.pattern)
    return any(len({(s.x, s.y) for s in samples if s.second == second}) >= 2 for second in seconds)


def _later_colours(samples: list[_Sample]) -> set[int]:
    """The colours an animated mark shows after its first frame: each shown by at least half of the
    drawings that lasted past the age it usually first shows at (a drawing that the next click cut short
    never showed it); a sprite that crossed a few windows while a drawing faded is left out."""
    ages: dict[int, list[int]] = {}
    for s in samples:
        for colour, age in s.first.items():
            ages.setdefault(colour, []).append(age)
    out = set()
    for colour, seen in ages.items():
        onset = sorted(seen)[len(seen) // 2]
        lasted = [s for s in samples if s.age > onset]
        if lasted and 2 * sum(colour in s.first for s in lasted) >= len(lasted):
            out.add(colour)
    return out


def _duration(samples: list[_Sample]) -> int:
    """How many frames a mark shows: the commonest fading age of the drawings no click disturbed (a sprite
    crossing the window delays some), else the longest of the others (the next click cut each short)."""
    undisturbed = Counter(s.age for s in samples if s.undisturbed)
    if undisturbed:
        return max(undisturbed.items(), key=lambda item: (item[1], item[0]))[0]
    return max(s.age for s in samples)


class ClickMarkTracker:
    """Learns a game's click mark from consecutive frames and removes recent clicks' marks from frames.

    Feed it every frame in order with the action that led to it (`frame`); tell it when the chain of frames
    breaks (`interrupt`: a death, a RESET, a new game). It keeps only a few windows per recent click.
    """

    def __init__(self, settings: MarkSettings | None = None) -> None:
        self.settings = settings or MarkSettings()
        self.mark: ClickMark | None = None
        self._open: list[_Sample] = []
        self._done: list[_Sample] = []
        self._raw: Grid | None = None
        self._clean: Grid | None = None
        self._recent: list[tuple[int, int, int]] = []
        """(x, y, frames since) of clicks whose mark may still show."""

    def interrupt(self) -> None:
        """The next frame does not follow the last one by an action (death, RESET, restart)."""
        self._open = []
        self._recent = []
        self._raw = None
        self._clean = None

    def frame(self, grid: Grid, action: Action | None) -> Grid:
        """The frame `action` led to (None: a first frame), with recent clicks' marks removed (a copy when
        anything was removed, else `grid` itself)."""
        prev = self._raw
        if prev is not None and prev.shape != grid.shape:
            self.interrupt()
            prev = None
        click = (action.x, action.y) if action is not None and action.x is not None and action.y is not None else None
        if prev is not None:
            self._follow(grid, click)
            if click is not None:
                self._start(prev, grid, click)
        self._age_recent(click, grid.shape)
        cleaned = self._cleaned(grid)
        self._raw = grid.copy()
        self._clean = cleaned if cleaned is not grid else self._raw
        return cleaned

    # learning ---------------------------------------------------------------------------------------

    def _follow(self, grid: Grid, click: tuple[int, int] | None) -> None:
        """Advance the open samples by one frame; keep the faded ones."""
        reach = 2 * self.settings.radius + 1
        still: list[_Sample] = []
        learned = False
        for s in self._open:
            if click is not None:
                if max(abs(click[0] - s.x), abs(click[1] - s.y)) <= reach:
                    continue  # a click near it may have undone it: no evidence either way
                s.undisturbed = False
            s.age += 1
            if s.note(grid, click is not None):
                self._done.append(s)
                del self._done[:-MAX_SAMPLES]
                learned = True
            elif s.age <= self.settings.max_duration:
                still.append(s)
        self._open = still
        if learned:
            # A mark once learned is kept when the latest drawings do not agree on one (a window that a
            # sprite crossed, clicks answered by the game): the map's keys must not flip back and forth.
            self.mark = self._learn() or self.mark

    def _start(self, before: Grid, after: Grid, click: tuple[int, int]) -> None:
        """Open a sample for a click that changed something around its pixel."""
        x, y = click
        rows, cols = after.shape
        if not (0 <= x < cols and 0 <= y < rows):
            return
        r = self.settings.radius
        y0, y1, x0, x1 = max(0, y - r), min(rows, y + r + 1), max(0, x - r), min(cols, x + r + 1)
        base = before[y0:y1, x0:x1].copy()
        part = after[y0:y1, x0:x1]
        diff = part != base
        if not diff.any():
            return
        sample = _Sample(x, y, (y0, y1, x0, x1), base, _drawing(part, diff, y0 - y, x0 - x), int(before[y, x]))
        sample.note(after)
        self._open.append(sample)

    def _learn(self) -> ClickMark | None:
        """The mark the faded samples show, if they agree on one (see the module's docstring)."""
        cfg = self.settings
        counts = Counter(s.pattern for s in self._done)
        pattern, _ = counts.most_common(1)[0]
        same = [s for s in self._done if s.pattern == pattern]
        if len({(s.x, s.y) for s in same}) < cfg.min_samples:
            return None
        if not (any(s.undisturbed for s in same) or len({s.clicked_colour for s in same}) >= 2
                or _animated(same)):
            return None
        colours = {c for _, _, c in pattern} | _later_colours(same)
        if len(colours) > cfg.max_colours:
            return None
        offsets = sorted({o for s in same for o, seen in s.drawn.items() if seen & colours})
        return ClickMark(tuple(offsets), frozenset(colours), _duration(same))

    # cleaning ---------------------------------------------------------------------------------------

    def _age_recent(self, click: tuple[int, int] | None, shape: tuple[int, ...]) -> None:
        """Age the remembered clicks by one frame, forget those whose mark has faded, add `click`."""
        limit = self.mark.duration if self.mark is not None else self.settings.max_duration
        self._recent = [(x, y, age + 1) for x, y, age in self._recent if age + 1 < limit]
        if click is not None and 0 <= click[0] < shape[1] and 0 <= click[1] < shape[0]:
            self._recent.append((click[0], click[1], 0))

    def _cleaned(self, grid: Grid) -> Grid:
        """`grid` with the mark's colours under recent clicks' footprints replaced by the previous clean
        frame's values."""
        mark, prev = self.mark, self._clean
        if mark is None or prev is None or not self._recent:
            return grid
        rows, cols = grid.shape
        out = grid
        colours = mark.colours
        for x, y, _ in self._recent:
            for dy, dx in mark.offsets:
                r, c = y + dy, x + dx
                if 0 <= r < rows and 0 <= c < cols and int(grid[r, c]) in colours and grid[r, c] != prev[r, c]:
                    if out is grid:
                        out = grid.copy()
                    out[r, c] = prev[r, c]
        return out
