"""Rule families: the protocol every one satisfies, and the ones that are on (registered in
`common.families.RULE_FAMILIES`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dreamteam.backends.symbolic.common.families import ALL_ON, RULE_FAMILIES, FamilySwitches, selected
from dreamteam.backends.symbolic.worldmodel.learning import LearnContext
from dreamteam.backends.symbolic.worldmodel.model import WorldRules


class RuleFamily(Protocol):
    """`learn(context, rules) -> rules`: one kind of world-model rule, learned from the window."""

    name: str
    description: str
    games: str

    def learn(self, context: LearnContext, rules: WorldRules) -> WorldRules:
        """`rules` with this family's rules learned from `context.transitions` added."""
        ...


def rule_families(switches: FamilySwitches = ALL_ON) -> Sequence[RuleFamily]:
    """The rule families that are on, in learning order."""
    found: list[RuleFamily] = selected(RULE_FAMILIES, switches)  # type: ignore[assignment]
    return found
