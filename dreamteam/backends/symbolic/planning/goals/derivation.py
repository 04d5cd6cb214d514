"""From evidence to sub-goals: the context every goal family reads, and the loop over the families that are on."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from dreamteam.backends.symbolic.common.families import ALL_ON, FamilySwitches
from dreamteam.backends.symbolic.common.frames import Array
from dreamteam.backends.symbolic.planning.goals.checks import SubGoal
from dreamteam.backends.symbolic.planning.goals.families import goal_families
from dreamteam.backends.symbolic.planning.goals.gathering import Evidence
from dreamteam.backends.symbolic.planning.goals.grids import Tint, _aliases, _commonest
from dreamteam.backends.symbolic.planning.goals.pieces import _LazyPieces, _walls

Click = tuple[tuple[int, int], Array]
"""A click candidate: the clicked cell and the mask of cells its predicted effect changes."""


@dataclass(frozen=True, slots=True)
class GoalContext:
    """What a goal family derives from: the evidence (with walls taken out of the level-up pairs), the grid
    searched from, the level start when known, the world model's tints, and what follows from them."""

    evidence: Evidence
    start: Array = field(compare=False)
    floor: Array | None = field(compare=False)
    """The level start when the dynamics remembers it and it has the grid's shape, else None."""
    level: Array = field(compare=False)
    """`floor` when known, else `start`."""
    tints: Sequence[Tint] = ()
    present: Collection[int] = ()
    """Colours shown that are no mover (or a tint of one) and not the background."""
    movers_here: Collection[int] = ()
    walls: Collection[int] = ()
    pieces: _LazyPieces | None = field(default=None, compare=False)
    clicks: Sequence[Click] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class GoalFamilyEntry:
    """A registered goal family (satisfies `families.GoalFamily`)."""

    name: str
    description: str
    games: str
    derive_goals: Callable[[GoalContext], list[SubGoal]] = field(compare=False)
    needs_movers: bool = True
    stage: Literal["evidence", "clicks"] = "evidence"

    def derive(self, context: GoalContext) -> list[SubGoal]:
        """This family's sub-goals."""
        return self.derive_goals(context)


def goal_context(evidence: Evidence, start: Array, floor: Array | None = None, tints: Sequence[Tint] = ()) -> GoalContext:
    """The context for `derive` (walls and the grid's pieces only when there are movers)."""
    known = floor if floor is not None and floor.shape == start.shape else None
    level = known if known is not None else start
    if not evidence.movers:
        return GoalContext(evidence, start, known, level, tuple(tints))
    shown = {int(c) for c in np.unique(start)}
    present = shown - _aliases(evidence.movers, tints) - {_commonest(start)}
    pieces = _LazyPieces(start)  # labelled once per search, only when a goal needs the grid's pieces
    walls = _walls(evidence, pieces)
    if walls:
        # a mover that bumped a wall in the step that completed the level did not enter it
        evidence = replace(evidence, level_up_pairs=frozenset(
            (m, c) for m, c in evidence.level_up_pairs if c not in walls or (m, c) in evidence.pairs))
    return GoalContext(evidence, start, known, level, tuple(tints), present, shown & set(evidence.movers), walls,
                       pieces)


def derive(evidence: Evidence, start: Array, floor: Array | None = None, tints: Sequence[Tint] = (),
           families: FamilySwitches = ALL_ON) -> list[SubGoal]:
    """The sub-goals worth searching for from this grid, most important first (`floor`: the level start,
    when the dynamics remembers it, for what lies under the movers; `tints`: the world model's tints;
    `families`: which goal families are on)."""
    context = goal_context(evidence, start, floor, tints)
    goals: list[SubGoal] = []
    for family in goal_families(families, "evidence"):
        if evidence.movers or not family.needs_movers:
            goals += family.derive(context)
    return goals


def click_goals(start: Array, clicks: Sequence[Click], families: FamilySwitches = ALL_ON) -> list[SubGoal]:
    """The sub-goals of the families that read click candidates (`uniform`), once the candidates are known."""
    context = GoalContext(Evidence(frozenset(), (), frozenset()), start, None, start, clicks=tuple(clicks))
    return [g for family in goal_families(families, "clicks") for g in family.derive(context)]
