"""Rule and goal families by name: what the symbolic backend knows about kinds of games, each one switchable.

A `RuleFamily` (`worldmodel/families.py`) learns one kind of rule for the world model (`learner.learn` runs
them in order); a `GoalFamily` (`planning/goals/families.py`) derives one kind of sub-goal from evidence
(`goals.derive` runs them in order). Both registries are ordered dotted paths, imported when first used (as `backends/registry.py` does), and
share one namespace of names, so `DREAMTEAM_FAMILIES_OFF=cover,together` (or `--families-off` on
`dreamteam play`) names either kind. `all` switches off every family that is not core.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

ENV_VAR = "DREAMTEAM_FAMILIES_OFF"

RULE_FAMILIES: dict[str, str] = {
    "movers": "dreamteam.backends.symbolic.worldmodel.learning:MOVERS",
    "patrols": "dreamteam.backends.symbolic.worldmodel.learning:PATROLS",
    "tints": "dreamteam.backends.symbolic.worldmodel.learning:TINTS",
    "pushes": "dreamteam.backends.symbolic.worldmodel.learning:PUSHES",
    "scenes": "dreamteam.backends.symbolic.worldmodel.learning:SCENES",
    "unders": "dreamteam.backends.symbolic.worldmodel.learning:UNDERS",
    "clicks": "dreamteam.backends.symbolic.worldmodel.learning:CLICKS",
    "restored": "dreamteam.backends.symbolic.worldmodel.learning:RESTORED",
    "ticks": "dreamteam.backends.symbolic.worldmodel.learning:TICKS",
    "hud": "dreamteam.backends.symbolic.worldmodel.learning:HUD",
    "touches": "dreamteam.backends.symbolic.worldmodel.learning:TOUCHES",
}
"""Rule families in the order `learner.learn` runs them (a later one reads what earlier ones learned)."""

GOAL_FAMILIES: dict[str, str] = {
    "level_up": "dreamteam.backends.symbolic.planning.goals.catalogue:LEVEL_UP",
    "all-on": "dreamteam.backends.symbolic.planning.goals.catalogue:ALL_ON",
    "cover": "dreamteam.backends.symbolic.planning.goals.catalogue:COVER",
    "repeat-level-up": "dreamteam.backends.symbolic.planning.goals.catalogue:REPEAT_LEVEL_UP",
    "enter": "dreamteam.backends.symbolic.planning.goals.catalogue:ENTER",
    "touch": "dreamteam.backends.symbolic.planning.goals.objects:TOUCH",
    "holding": "dreamteam.backends.symbolic.planning.goals.objects:HOLDING",
    "together": "dreamteam.backends.symbolic.planning.goals.catalogue:TOGETHER",
    "frontier": "dreamteam.backends.symbolic.planning.goals.catalogue:FRONTIER",
    "uniform": "dreamteam.backends.symbolic.planning.goals.catalogue:UNIFORM",
}
"""Goal families in the order `goals.derive` lists their sub-goals (earlier ones first on equal priority)."""

CORE: frozenset[str] = frozenset({"movers", "clicks", "scenes", "level_up", "frontier"})
"""Families `all` leaves on: the general mechanisms, not priors for a kind of game. Rigid motion per action
(`movers`) and the effect of a click (`clicks`) are the world model's only account of what an action does;
level starts (`scenes`) are what a RESET or a level-up returns to; `level_up` is the game's own signal and
`frontier` is plain exploration. Each can still be switched off by its own name."""


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


def selected(registry: Mapping[str, str], switches: FamilySwitches) -> list[object]:
    """The families of `registry` that are on, imported, in the registry's order."""
    return [_load(path) for name, path in registry.items() if switches.on(name)]
