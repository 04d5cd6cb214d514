"""Goal families about small objects: touch one never touched, and carry something to a door (`holding`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from dreamteam.backends.symbolic.common.frames import Array, colour_table
from dreamteam.backends.symbolic.planning.goals.checks import Lapse, SubGoal, _collect_then_touch, _touches
from dreamteam.backends.symbolic.planning.goals.derivation import GoalContext, GoalFamilyEntry
from dreamteam.backends.symbolic.planning.goals.gathering import Evidence, _directions
from dreamteam.backends.symbolic.planning.goals.grids import (
    MAX_TOUCH_CELLS,
    ObjectClass,
    Tint,
    _commonest,
    _names,
    _unit,
    object_class,
)
from dreamteam.backends.symbolic.planning.goals.pieces import _LazyPieces

MAX_TOUCH_GOALS = 4


def _touch_goals(evidence: Evidence, start: Array, movers_here: Collection[int],
                 pieces: _LazyPieces) -> list[SubGoal]:
    """`touch:colourK:shape:...` for each class of small object (colour and shape) on the grid whose colour
    was seen stopping a mover but that no mover ever moved into, leaving out colours that also form a bigger
    structure (walls): a colour that blocks in one shape (a closed
    door) may be passable, or do something, in another (a key, a switch, an open door). Reached when a mover
    stands on one of them or the last action moved a mover against one (up to `MAX_TOUCH_GOALS`, the
    fewest cells first)."""
    movers = frozenset(movers_here)
    if not evidence.stoppers - movers or not movers:
        return []
    found = pieces.get()
    labels = found.labels
    walls = found.structures()  # colours drawn as structures, not objects
    classes: dict[ObjectClass, list[int]] = {}
    for index in np.nonzero(colour_table(evidence.stoppers - movers - walls)[found.colours])[0]:
        y, x = divmod(int(found.firsts[index]), start.shape[1])
        cls = object_class(start, labels, x, y)
        if cls not in evidence.touched:
            classes.setdefault(cls, []).append(int(index))
    fronts: dict[str, list[tuple[int, int, int]]] = {}
    for label, colour, dx, dy in evidence.shifts:
        if colour in movers:
            step = _unit((dx, dy)) if (label, colour) in evidence.slides else (dx, dy)  # a slide stops one short
            fronts.setdefault(f"by:{label}", []).append((colour, *step))
    goals = []
    for cls, members in sorted(classes.items(), key=lambda item: (len(item[1]) * int(np.prod(item[0][2])), item[0]))[
            :MAX_TOUCH_GOALS]:
        colour, mask, shape = cls
        bits = np.frombuffer(mask, dtype=bool).reshape(shape)
        drawn = ",".join("".join("1" if v else "0" for v in row) for row in bits.tolist())
        goals.append(SubGoal(f"touch:colour{colour}:shape:{drawn}",
                             f"move {_names(movers)} into or against one of the {len(members)} colour-{colour} "
                             f"objects shaped {drawn} (that colour stopped a mover elsewhere; this shape was never "
                             "touched)", 3, _touches(np.isin(labels, members), movers, fronts)))
    return goals


def _holding_goals(evidence: Evidence, start: Array, level: Array, movers_here: Collection[int],
                   tints: Sequence[Tint]) -> list[SubGoal]:
    """Before any level-up: `holding:colourX:colourK` for each small colour K (at most `MAX_TOUCH_CELLS`
    cells) seen stopping a mover and each small colour X a mover has entered that is still on the level
    (or held now), where no mover ever ran into K while X was gone from all its level-start cells: take X,
    then move into or against K. A door may open only to a mover that carries something; nothing on the
    grid says so before the first level-up, and a walk that explores rarely takes the two steps in order."""
    movers = frozenset(movers_here)
    if not movers or not evidence.stoppers:
        return []
    counts = np.bincount(start.ravel().astype(np.intp) & 15, minlength=16)
    at_start = np.bincount(level.ravel().astype(np.intp) & 15, minlength=16)
    background = _commonest(start)
    small = {c for c in range(16) if 0 < counts[c] <= MAX_TOUCH_CELLS} - movers - {background}
    stoppers = sorted(small & evidence.stoppers)
    takeable = sorted(c for c in evidence.entered - movers - {background}
                      if 0 < at_start[c] <= MAX_TOUCH_CELLS and c not in evidence.stoppers)
    directions = _directions(evidence, movers)
    goals = []
    for stopper in stoppers:
        for taken in takeable:
            if taken == stopper or (stopper, taken) in evidence.tried_holding:
                continue
            lasts = dict(evidence.lasts).get(taken)
            lapse = None if lasts is None else Lapse(level, frozenset({taken}), lasts, evidence.held, movers)
            goals.append(SubGoal(f"holding:colour{taken}:colour{stopper}",
                                 f"take colour {taken} off the level, then move {_names(movers)} into or against "
                                 f"colour {stopper} (it stopped a mover, never while colour {taken} was taken)"
                                 + (f" within {lasts} actions (it comes back after that)" if lasts else ""), 3,
                                 _collect_then_touch(start, level, {taken}, stopper, movers, directions, tints),
                                 lapse=lapse))
    return goals[:MAX_TOUCH_GOALS]


def _touch_family(c: GoalContext) -> list[SubGoal]:
    if c.pieces is None:
        return []
    return _touch_goals(c.evidence, c.start, c.movers_here, c.pieces)


def _holding_family(c: GoalContext) -> list[SubGoal]:
    if c.evidence.level_up_pairs:
        return []
    return _holding_goals(c.evidence, c.start, c.level, c.movers_here, c.tints)


TOUCH = GoalFamilyEntry(
    "touch", "a mover moves into or against a small object of a class (colour and shape) never touched, in a "
    "colour that stopped a mover elsewhere", "keys and switches drawn in a door's colour", _touch_family)
HOLDING = GoalFamilyEntry(
    "holding", "before any level-up: take a small colour X off the level, then run into a small colour K that "
    "stopped a mover (never while X was taken)", "doors that open only to a mover carrying something",
    _holding_family)
