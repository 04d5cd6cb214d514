"""From a regression window to `WorldRules`: the rule families that are on, in order, then their hypotheses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition
from dreamteam.backends.symbolic.common.families import ALL_ON, FamilySwitches
from dreamteam.backends.symbolic.worldmodel.describe import describe
from dreamteam.backends.symbolic.worldmodel.families import rule_families
from dreamteam.backends.symbolic.worldmodel.learning import LearnContext
from dreamteam.backends.symbolic.worldmodel.model import WorldRules
from dreamteam.backends.symbolic.worldmodel.scenes import (
    MAX_SCENES,
    learn_scenes,
    learn_touches,
    learn_unders,
    scene_of,
)

__all__ = ["MAX_SCENES", "learn", "learn_scenes", "learn_touches", "learn_unders", "scene_of"]


def learn(transitions: Sequence[Transition], cache: MotionCache, hints: Sequence[Sequence[int]],
          families: FamilySwitches = ALL_ON) -> WorldRules:
    """Learn every rule family that is on from the window and name the hypotheses."""
    hint_tuple = tuple(tuple(int(v) for v in h) for h in hints)
    context = LearnContext(transitions, cache)
    rules = WorldRules(hints=hint_tuple)
    for family in rule_families(families):
        rules = family.learn(context, rules)
    return replace(rules, hypotheses=tuple(describe(rules, transitions) + context.notes))
