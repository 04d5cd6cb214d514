"""Rule and goal families by name: what the symbolic backend knows about kinds of games, each one switchable.

A `RuleFamily` learns one kind of rule for the world model (`learner.learn` runs them in order); a
`GoalFamily` derives one kind of sub-goal from evidence (`goals.derive` runs them in order). Both
registries are ordered dotted paths, imported when first used (as `backends/registry.py` does), and
share one namespace of names, so `DREAMTEAM_FAMILIES_OFF=cover,together` (or `--families-off` on
`dreamteam play`) names either kind. `all` switches off every family that is not core.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from dreamteam.roles.symbolic.goals.checks import SubGoal
    from dreamteam.roles.symbolic.goals.derivation import GoalContext
    from dreamteam.roles.symbolic.learning import LearnContext
    from dreamteam.roles.symbolic.model import WorldRules

ENV_VAR = "DREAMTEAM_FAMILIES_OFF"

RULE_FAMILIES: dict[str, str] = {
    "movers": "dreamteam.roles.symbolic.learning:MOVERS",
    "patrols": "dreamteam.roles.symbolic.learning:PATROLS",
    "tints": "dreamteam.roles.symbolic.learning:TINTS",
    "pushes": "dreamteam.roles.symbolic.learning:PUSHES",
    "scenes": "dreamteam.roles.symbolic.learning:SCENES",
    "unders": "dreamteam.roles.symbolic.learning:UNDERS",
    "clicks": "dreamteam.roles.symbolic.learning:CLICKS",
    "restored": "dreamteam.roles.symbolic.learning:RESTORED",
    "ticks": "dreamteam.roles.symbolic.learning:TICKS",
    "touches": "dreamteam.roles.symbolic.learning:TOUCHES",
}
"""Rule families in the order `learner.learn` runs them (a later one reads what earlier ones learned)."""

GOAL_FAMILIES: dict[str, str] = {
    "level_up": "dreamteam.roles.symbolic.goals.catalogue:LEVEL_UP",
    "all-on": "dreamteam.roles.symbolic.goals.catalogue:ALL_ON",
    "cover": "dreamteam.roles.symbolic.goals.catalogue:COVER",
    "repeat-level-up": "dreamteam.roles.symbolic.goals.catalogue:REPEAT_LEVEL_UP",
    "enter": "dreamteam.roles.symbolic.goals.catalogue:ENTER",
    "touch": "dreamteam.roles.symbolic.goals.objects:TOUCH",
    "holding": "dreamteam.roles.symbolic.goals.objects:HOLDING",
    "together": "dreamteam.roles.symbolic.goals.catalogue:TOGETHER",
    "frontier": "dreamteam.roles.symbolic.goals.catalogue:FRONTIER",
    "uniform": "dreamteam.roles.symbolic.goals.catalogue:UNIFORM",
}
"""Goal families in the order `goals.derive` lists their sub-goals (earlier ones first on equal priority)."""

CORE: frozenset[str] = frozenset({"movers", "clicks", "scenes", "level_up", "frontier"})
"""Families `all` leaves on: the general mechanisms, not priors for a kind of game. Rigid motion per action
(`movers`) and the effect of a click (`clicks`) are the world model's only account of what an action does;
level starts (`scenes`) are what a RESET or a level-up returns to; `level_up` is the game's own signal and
`frontier` is plain exploration. Each can still be switched off by its own name."""


class RuleFamily(Protocol):
    """`learn(context, rules) -> rules`: one kind of world-model rule, learned from the window."""

    name: str
    description: str
    games: str

    def learn(self, context: LearnContext, rules: WorldRules) -> WorldRules:
        """`rules` with this family's rules learned from `context.transitions` added."""
        ...


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


class UnknownFamilyError(ValueError):
    """A family name no registry has (a user error: the message lists the names)."""


@dataclass(frozen=True, slots=True)
class FamilySwitches:
    """Which families are switched off (by name); every other registered family is on."""

    off: frozenset[str] = frozenset()

    def on(self, name: str) -> bool:
        """Whether family `name` is on."""
        return name not in self.off


ALL_ON = FamilySwitches()


def family_names() -> tuple[str, ...]:
    """Every registered family name, rule families first."""
    return (*RULE_FAMILIES, *GOAL_FAMILIES)


def parse_families_off(text: str) -> FamilySwitches:
    """`"cover,together"` (or `"all"`, which may be combined with core names) as switches; raises
    UnknownFamilyError naming the unknown names and listing the known ones."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    known = family_names()
    unknown = [n for n in names if n not in known and n != "all"]
    if unknown:
        raise UnknownFamilyError(f"unknown rule or goal famil{'y' if len(unknown) == 1 else 'ies'} "
                                 f"{', '.join(map(repr, unknown))}; families are: {', '.join(known)} "
                                 f"(or all: every family but {', '.join(sorted(CORE))})")
    off = {n for n in names if n != "all"}
    if "all" in names:
        off |= set(known) - CORE
    return FamilySwitches(frozenset(off))


def switches_from_env(environ: Mapping[str, str] | None = None) -> FamilySwitches:
    """The switches `DREAMTEAM_FAMILIES_OFF` names (all on when unset or empty)."""
    env = os.environ if environ is None else environ
    return parse_families_off(env.get(ENV_VAR, ""))


@cache
def _load(path: str) -> object:
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _selected(registry: Mapping[str, str], switches: FamilySwitches) -> list[object]:
    return [_load(path) for name, path in registry.items() if switches.on(name)]


def rule_families(switches: FamilySwitches = ALL_ON) -> Sequence[RuleFamily]:
    """The rule families that are on, in learning order."""
    found: list[RuleFamily] = _selected(RULE_FAMILIES, switches)  # type: ignore[assignment]
    return found


def goal_families(switches: FamilySwitches = ALL_ON,
                  stage: Literal["evidence", "clicks"] = "evidence") -> Sequence[GoalFamily]:
    """The goal families of `stage` that are on, in derivation order."""
    found: list[GoalFamily] = _selected(GOAL_FAMILIES, switches)  # type: ignore[assignment]
    return [f for f in found if f.stage == stage]


def describe_families() -> list[tuple[str, str, str, str]]:
    """(kind, name, description, games) for every registered family, for docs and `--families-off` help."""
    rules: list[tuple[str, str, str, str]] = [("rule", f.name, f.description, f.games) for f in rule_families()]
    goals = [("goal", f.name, f.description, f.games)
             for stage in ("evidence", "clicks") for f in goal_families(stage=stage)]  # type: ignore[arg-type]
    return rules + goals

