"""Goal families: the protocol every one satisfies, and the ones that are on (registered in
`common.families.GOAL_FAMILIES`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Protocol

from dreamteam.backends.symbolic.common.families import ALL_ON, GOAL_FAMILIES, FamilySwitches, selected

if TYPE_CHECKING:
    from dreamteam.backends.symbolic.planning.goals.checks import SubGoal
    from dreamteam.backends.symbolic.planning.goals.derivation import GoalContext


class GoalFamily(Protocol):
    """`derive(context) -> sub-goals`: one kind of sub-goal, derived from evidence and the grid."""

    name: str
    description: str
    games: str
    needs_movers: bool
    """Derived only when the evidence shows movers."""
    stage: Literal["evidence", "clicks"]
    """"evidence": derived by `goals.derive`; "clicks": by `goals.click_goals`, once click candidates are known."""

    def derive(self, context: GoalContext) -> list[SubGoal]:
        """This family's sub-goals for `context.start`, most important first."""
        ...


def goal_families(switches: FamilySwitches = ALL_ON,
                  stage: Literal["evidence", "clicks"] = "evidence") -> Sequence[GoalFamily]:
    """The goal families of `stage` that are on, in derivation order."""
    found: list[GoalFamily] = selected(GOAL_FAMILIES, switches)  # type: ignore[assignment]
    return [f for f in found if f.stage == stage]
