"""The rule families `learner.learn` runs in order (registered in `families.RULE_FAMILIES`).

Each family adds one kind of rule to the `WorldRules` learned so far; a later family reads what the
earlier ones learned (tints read the movers, ticks read every rule that explains a change). The code
each kind of rule becomes in dynamics.py is emitted by `codegen.py` from the rule tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition
from dreamteam.backends.symbolic.worldmodel.clicks import learn_click
from dreamteam.backends.symbolic.worldmodel.describe import describe_covers
from dreamteam.backends.symbolic.worldmodel.layers import learn_restored
from dreamteam.backends.symbolic.worldmodel.model import Hypothesis, WorldRules
from dreamteam.backends.symbolic.worldmodel.movers import background_colour, learn_moves
from dreamteam.backends.symbolic.worldmodel.patrols import learn_patrols
from dreamteam.backends.symbolic.worldmodel.scenes import learn_scenes, learn_touches, learn_unders
from dreamteam.backends.symbolic.worldmodel.ticks import learn_hud_ticks, learn_ticks, tick_mask
from dreamteam.backends.symbolic.worldmodel.tints import (
    learn_single_pushes,
    learn_tints,
    with_tinted_pushables,
)


@dataclass(frozen=True, slots=True)
class LearnContext:
    """What every rule family learns from: the window, its motion cache, and hypotheses a family names beside
    those `describe` reads off the rules (filled in as the families run)."""

    transitions: Sequence[Transition]
    cache: MotionCache = field(compare=False)
    notes: list[Hypothesis] = field(default_factory=list, compare=False)


@dataclass(frozen=True, slots=True)
class RuleFamilyEntry:
    """A registered rule family (satisfies `families.RuleFamily`)."""

    name: str
    description: str
    games: str
    learn_rules: Callable[[LearnContext, WorldRules], WorldRules] = field(compare=False)

    def learn(self, context: LearnContext, rules: WorldRules) -> WorldRules:
        """`rules` with this family's rules added."""
        return self.learn_rules(context, rules)


def _movers(c: LearnContext, rules: WorldRules) -> WorldRules:
    return replace(rules, moves=tuple(learn_moves(c.transitions, c.cache)))


def _patrols(c: LearnContext, rules: WorldRules) -> WorldRules:
    patrols = learn_patrols(c.transitions, background_colour(c.transitions), c.cache)
    walking = {p.colour for p in patrols}
    return replace(rules, patrols=patrols, moves=tuple(m for m in rules.moves if m.colour not in walking))


def _tints(c: LearnContext, rules: WorldRules) -> WorldRules:
    tints = learn_tints(c.transitions, c.cache) if rules.moves else ()
    return replace(rules, tints=tints, moves=with_tinted_pushables(rules.moves, tints))


def _pushes(c: LearnContext, rules: WorldRules) -> WorldRules:
    return replace(rules, moves=learn_single_pushes(c.transitions, rules.moves))


def _scenes(c: LearnContext, rules: WorldRules) -> WorldRules:
    return replace(rules, scenes=learn_scenes(c.transitions))


def _unders(c: LearnContext, rules: WorldRules) -> WorldRules:
    return replace(rules, scenes=learn_unders(c.transitions, rules.scenes, rules.mover_colours()))


def _clicks(c: LearnContext, rules: WorldRules) -> WorldRules:
    return replace(rules, click=learn_click(c.transitions))


def _restored(c: LearnContext, rules: WorldRules) -> WorldRules:
    restored, covers = learn_restored(c.transitions, rules)
    c.notes.extend(describe_covers(covers))
    return replace(rules, restored=restored)


def _ticks(c: LearnContext, rules: WorldRules) -> WorldRules:
    ticks = tuple(learn_ticks(c.transitions, rules, c.cache))
    if ticks and rules.click is not None:
        rules = replace(rules, click=learn_click(c.transitions, ignore=lambda t: tick_mask(t, ticks)))
    return replace(rules, ticks=ticks)


def _hud(c: LearnContext, rules: WorldRules) -> WorldRules:
    return replace(rules, hud_ticks=tuple(learn_hud_ticks(c.transitions, rules, c.cache)))


def _touches(c: LearnContext, rules: WorldRules) -> WorldRules:
    goals, fatal = learn_touches(c.transitions, rules, c.cache)
    return replace(rules, goals=goals, fatal=fatal)


MOVERS = RuleFamilyEntry("movers", "per action and colour, the rigid shift it shows (slides, jumps, pushes, "
                         "walls)", "every keyboard game", _movers)
PATROLS = RuleFamilyEntry("patrols", "colours that move on their own along a route, whatever the action "
                          "(they are then no movers)", "guards and hazards on a beat", _patrols)
TINTS = RuleFamilyEntry("tints", "a pushed object that shows another colour while it stands on a target",
                        "block pushing with lit targets", _tints)
PUSHES = RuleFamilyEntry("pushes", "whether a push moves a whole object or single cells (decided by the window)",
                         "block pushing", _pushes)
SCENES = RuleFamilyEntry("scenes", "level starts (after step 0, a RESET, a level-up) remembered exactly, for "
                         "RESET and level-up predictions", "every game", _scenes)
UNDERS = RuleFamilyEntry("unders", "what lies under the movers at a level start, seen once a mover left it",
                         "keyboard games whose movers start on something", _unders)
CLICKS = RuleFamilyEntry("clicks", "the effect of a click around the clicked cell (toggles, colour cycles, "
                         "tiles)", "every click game", _clicks)
RESTORED = RuleFamilyEntry("restored", "colours that reappear when a mover leaves them (layers under movers)",
                           "targets and doors a mover walks over", _restored)
TICKS = RuleFamilyEntry("ticks", "counters and timers: cells that change by themselves each step or each action",
                        "games with a step counter, a timer or a bar in the HUD", _ticks)
HUD = RuleFamilyEntry("hud", "counters in the margin beside the cells (a HUD strip): pixels of a colour that turn "
                      "to another a few at a time, each step or each action", "a move counter, a bar or level dots "
                      "drawn one pixel wide above or below the board", _hud)
TOUCHES = RuleFamilyEntry("touches", "goal colours (entered right before a level-up, never otherwise) and fatal "
                          "colours (entered right before a game over)", "exits and hazards", _touches)
