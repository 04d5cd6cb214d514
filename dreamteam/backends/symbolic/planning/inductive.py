"""The symbolic Inductive Explorer: derives sub-goals from evidence and searches predicted rollouts.

Request context (task "propose", surface = current strategy.py):
    frame, transitions, level_ups, dynamics (dynamics.py source), observable (observable.py source),
    available_actions (ids or names), budget_left (int), history (the world model's history before the frame:
    where moving things came from), feedback (text)
Reply: {"patch": strategy.py or null, "tactics": [{"name", "sub_goal", "actions", "expected"}], "notes"}.

Rollouts run the team's own dynamics.py (and observable.py), loaded in-process under the sandbox's policy, guards and per-call limits (see
`artifacts.py` and `rollout.py`); this role has no world model of its own. Breadth-first search with a
node budget and a time limit finds the shortest predicted plan for each sub-goal (`goals/`); when clicks
are available a planner also tries to make a clickable canvas match a same-size target panel.
When the frame is one the previous top tactic predicted, its remaining actions are returned without a
new search.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamteam.backends.symbolic.common.artifacts import ArtifactCache
from dreamteam.backends.symbolic.common.base import list_of, text_of
from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition, action_label, transition_key
from dreamteam.backends.symbolic.common.families import ALL_ON, FamilySwitches
from dreamteam.backends.symbolic.common.frames import Array, DisplayCache, LogicalFrame, logical
from dreamteam.backends.symbolic.planning.goals import (
    LevelStarts,
    Recall,
    SubGoal,
    click_goals,
    derive,
    gather,
)
from dreamteam.backends.symbolic.planning.linear import uniform_plans
from dreamteam.backends.symbolic.planning.rollout import (
    Action,
    LogicalRollout,
    Rollout,
    click_action,
    rollout_for,
)
from dreamteam.backends.symbolic.planning.search import (
    DEEP_LIMITS,
    ESTIMATED_LIMITS,
    Lapsing,
    SearchLimits,
    best_first,
    breadth_first,
    canvas_plan,
    click_candidates,
)
from dreamteam.backends.symbolic.planning.strategy_source import strategy_source
from dreamteam.protocols import RoleRequest
from dreamteam.types import ACTION_NAMES

MAX_TACTICS = 5
MAX_CLICKS_IN_SEARCH = 16
MAX_CLICKS_IN_LINEAR = 64
DEEP_EVERY = 8
"""Searches between two deep searches (a deep search runs only when the quick one missed every
level-completing sub-goal, and at most once per (world model, frame))."""
DEEP_MEMORY = 256
DEEP_GROWTH = 8
"""How far the deep search's limits may grow: each deep search cut short by its limits without reaching a
level-completing sub-goal doubles its nodes, seconds and depth (and the searches waited between two deep
ones), up to this factor. Large levels (a 15x14-cell maze, many rooms) need more predicted steps than a
tutorial-sized one; the wait keeps the time spent per step the same on average."""
GUIDED_GROWTH = 4
"""The guided search after a deep one grows with it, up to this factor: the last two of three blocks on a
large level's targets took 26,000 to 39,000 predicted steps (push-l0091, dev), a whole level more."""
RESETS_PER_GOAL = 2
"""A sub-goal that does not complete a level gets at most this many top tactics that begin with a level reset
per level: reached once without a level-up, reaching it again from the level start rarely teaches more, and
a plan that resets, walks a few steps and resets again spends the budget in a loop (a spark entered on the
way to the door, entered again and again)."""
LAPSE_LIMITS = SearchLimits(nodes=20_000, depth=120, seconds=2.0)
"""Limits of the search in which collected things come back (`Lapsing`): its states also count the actions
held, so it expands more of them than the quick search; it runs once per (world model, frame, sub-goal)
and only after the quick search reached that sub-goal."""
LOW_ACCURACY = 0.6
"""Below this share of recent predictions that held (the context's `prediction_accuracy`), the leader follows
no tactic (it probes or walks the exploration map; see leader.py's `goal_trust`), so the search stays cheap:
the quick search within `CHEAP_LIMITS` and none of the deep, guided or lapse searches nor the click
planners (uniform boards, canvas copies). A world model that
mispredicts most steps (a game whose mechanics the rules do not fit yet) would otherwise spend seconds per
step planning with predictions nobody follows."""
CHEAP_LIMITS = SearchLimits(nodes=300, depth=30, seconds=0.02)
CLICK_SHARE = 0.4
"""While predictions fail, the click candidates take up to this share of the quick search's time budget."""
CLICK_SECONDS = 0.1
"""The click candidates' time while the world model predicts well: a canvas painted cell by cell needs each
of its cells as a candidate (a 13x13 board is 169 predicted clicks), and planning it is worth the time."""
COMPLETING = 1
"""Sub-goals of this priority or lower complete a level (a predicted level-up, a repeated level-up)."""
DEEP_GOALS = 3
"""A deep search also looks for the sub-goals up to this priority that the quick search missed (touch what
has not been touched: a block that must be pushed a long way to a target), but not for new positions nor
for uniform click boards (the linear solver plans those)."""


def simple_actions(available: Sequence[Any]) -> list[str]:
    """Names of the available non-click, non-RESET actions."""
    names = []
    for item in available:
        name = ACTION_NAMES[item] if isinstance(item, int) and 0 <= item < len(ACTION_NAMES) else str(item).upper()
        if name in ACTION_NAMES and name not in ("RESET", "ACTION6") and name not in names:
            names.append(name)
    return names


def clicks_available(available: Sequence[Any]) -> bool:
    """Whether ACTION6 is among the available actions."""
    return any(item == 6 or str(item).upper() == "ACTION6" for item in available)


class LogicalCache:
    """Logical frames by (display cells, geometry hints), so a sliding window is not re-decoded every step."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: dict[tuple[bytes, tuple[int, ...], Any], LogicalFrame] = {}

    def frame(self, display: Array, hints: Sequence[Sequence[int]]) -> LogicalFrame:
        """`logical(display, hints)`, cached."""
        key = (display.tobytes(), display.shape, tuple(tuple(int(v) for v in h) for h in hints))
        found = self._items.get(key)
        if found is None:
            found = logical(display, hints)
            if len(self._items) >= self.size:
                self._items.clear()
            self._items[key] = found
        return found

    def decode(self, raw: Sequence[Mapping[str, Any]], hints: Sequence[Sequence[int]],
               displays: DisplayCache) -> list[Transition]:
        """`evidence.decode_transitions` over cached logical frames (malformed entries are skipped)."""
        out = []
        for index, item in enumerate(raw):
            try:
                before = self.frame(displays.get(item["before"]), hints)
                after = self.frame(displays.get(item["after"]), hints)
                action = dict(item["action"])
            except (KeyError, ValueError, TypeError):
                continue
            out.append(Transition(
                index, int(item.get("step", index)), action_label(action), action, before, after,
                bool(item.get("level_up", False)), bool(item.get("game_over", False)),
                dict(item.get("history") or {}), key=transition_key(item),
            ))
        return out


@dataclass(frozen=True, slots=True)
class _Continuation:
    """The previous top tactic with the state keys its steps were predicted to reach."""

    source_key: int
    tactic: dict[str, Any]
    keys: tuple[Any, ...]


def _reaches_any(found: Mapping[str, Any], goals: Sequence[SubGoal]) -> bool:
    """Whether a search found a plan for any of these sub-goals."""
    return any(g.name in found for g in goals)


def tactic(name: str, goal: str, plan: Sequence[Action], expected: str) -> dict[str, Any]:
    """A tactic in the reply schema's shape."""
    return {"name": name, "sub_goal": goal, "actions": [dict(a) for a in plan], "expected": expected}


class InductiveAnswerer:
    """Sub-goals from evidence, tactics from search over the team's predicted rollouts."""

    def __init__(self, limits: SearchLimits | None = None, deep: SearchLimits | None = DEEP_LIMITS,
                 families: FamilySwitches = ALL_ON) -> None:
        self.limits = limits or SearchLimits()
        self.families = families
        self.deep = deep
        self._deep_found: dict[tuple[int, Any], dict[str, list[Action]]] = {}
        self._lapse_plans: dict[tuple[Any, ...], list[Action] | None] = {}
        """`Lapsing` plans by (world model, frame, sub-goal), or None when it found none."""
        """Deep-search results by (world model, frame), found plans or none: never searched twice."""
        self._since_deep = DEEP_EVERY
        self._deep_scale = 1
        """The deep search's current growth (1 to DEEP_GROWTH): see DEEP_GROWTH."""
        self._deep_led = False
        self._deep_now: set[str] = set()
        """The sub-goals the deep search of the current search reached (empty when none ran)."""
        """Whether the last top tactic came from a deep search: when it is cut short (a surprise, a new world
        model), the next search may search deep again at once rather than wait `DEEP_EVERY` searches."""
        self.artifacts = ArtifactCache()
        self.displays = DisplayCache(size=256)
        self.motions = MotionCache(size=512)
        self.logicals = LogicalCache()
        self.previous: _Continuation | None = None
        self.recall = Recall()
        self.starts = LevelStarts()
        self._rollout: tuple[int, Rollout | None] | None = None
        self._resets: dict[str, int] = {}
        """Top tactics that began with a level reset, per non-completing sub-goal, on `_resets_level`."""
        self._resets_level = -1

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Reply content for one "propose" request."""
        ctx = request.context
        dynamics, observable = text_of(ctx, "dynamics"), text_of(ctx, "observable")
        source_key = hash((dynamics, observable))
        rollout = self._rollout_for(dynamics, observable, source_key)
        if rollout is None or "frame" not in ctx:
            return {"patch": None, "tactics": [], "notes": "no dynamics that can be rolled out yet"}
        history = ctx.get("history")
        start = rollout.start(self.displays.get(ctx["frame"]), history if isinstance(history, Mapping) else None)
        continued = self._continue(rollout, start, source_key)
        if continued is not None:
            return {"patch": None, "tactics": [continued], "notes": "following the previous plan: on prediction"}
        return self._search(request, ctx, rollout, start, source_key)

    def _rollout_for(self, dynamics: str, observable: str, source_key: int) -> Rollout | None:
        """The rollout of the last sources, kept while they do not change (it remembers predicted steps)."""
        if self._rollout is None or self._rollout[0] != source_key:
            self._rollout = (source_key, rollout_for(dynamics, observable, self.artifacts))
        return self._rollout[1]

    def _continue(self, rollout: Rollout, start: Any, source_key: int) -> dict[str, Any] | None:
        prev = self.previous
        if prev is None or prev.source_key != source_key:
            return None
        key = rollout.key(start)
        if key not in prev.keys[:-1]:
            return None
        done = prev.keys.index(key) + 1
        rest = prev.tactic["actions"][done:]
        return {**prev.tactic, "actions": rest} if rest else None

    def _search(self, request: RoleRequest, ctx: Mapping[str, Any], rollout: Rollout, start: Any,
                source_key: int) -> dict[str, Any]:
        available = list_of(ctx, "available_actions")
        raw = list_of(ctx, "transitions")[-60:] + list_of(ctx, "level_ups")
        transitions = self.logicals.decode(raw, [list(rollout.geometry)], self.displays)
        self.starts.note(transitions)
        evidence = gather(transitions, self.motions, ignore=frozenset(getattr(rollout, "patrols", ())),
                          known=frozenset(getattr(rollout, "movers", ())),
                          start_of=self.starts.of)
        grid = rollout.grid(start)
        level_start = getattr(rollout, "level_start", None)
        floor = level_start(start) if callable(level_start) else None
        level = max((t.step for t in transitions if t.level_up), default=-1)
        evidence = self.recall.merge(evidence, level, transitions, floor)
        goals = derive(evidence, grid, floor, tuple(getattr(rollout, "tints", ())), self.families)
        actions: list[Action] = [{"action": name} for name in simple_actions(available)]
        began = time.perf_counter()
        accuracy = ctx.get("prediction_accuracy")
        cheap = isinstance(accuracy, int | float) and accuracy < LOW_ACCURACY
        quick = self.limits
        if cheap:  # the cheap search never exceeds the configured quick one
            quick = SearchLimits(min(quick.nodes, CHEAP_LIMITS.nodes), min(quick.depth, CHEAP_LIMITS.depth),
                                 min(quick.seconds, CHEAP_LIMITS.seconds))
        budget_s = quick.seconds
        clicks = (click_candidates(rollout, start, seconds=CLICK_SHARE * budget_s if cheap else CLICK_SECONDS)
                  if clicks_available(available) else [])
        actions += [click_action(rollout, *cell) for cell, _ in clicks[:MAX_CLICKS_IN_SEARCH]]
        goals += click_goals(grid, clicks, self.families)
        budget = ctx.get("budget_left")
        cap = int(budget) if isinstance(budget, int) and budget > 0 else None
        depth = quick.depth if cap is None else min(quick.depth, cap)
        spent = time.perf_counter() - began if cheap else 0.0
        limits = SearchLimits(quick.nodes, depth, max(0.005, budget_s - spent))
        found, expanded = breadth_first(rollout, start, actions, goals, limits)
        if not cheap:
            found, expanded = self._deepen(rollout, start, actions, goals, found, expanded, source_key, cap)
            found, expanded = self._outlast(rollout, start, actions, goals, found, expanded, source_key, cap)
        tactics = [tactic(g.name, g.name, found[g.name], g.description) for g in goals if g.name in found]
        planned = [] if cheap else clicks  # (the click planners are unbounded in time: not while cheap)
        uniform = planned if self.families.on("uniform") else []
        for colour, plan in uniform_plans(rollout, start, uniform[:MAX_CLICKS_IN_LINEAR]):
            name = f"uniform:colour{colour}"
            if name not in found:
                tactics.append(tactic(name, name, plan, f"every clickable cell colour {colour} (solved as a "
                                      "linear system over the predicted click effects)"))
        if planned:
            canvas = canvas_plan(rollout, start, planned)
            if canvas is not None:
                plan, box, target = canvas
                tactics.insert(0 if not tactics or tactics[0]["name"] != "level_up" else 1, tactic(
                    "match-target", "make the clickable canvas equal the target panel", plan,
                    f"canvas {list(box)} shows the pattern of panel {list(target)}"))
        tactics = self._ration_resets(tactics, goals, level)
        tactics = tactics[:MAX_TACTICS]
        self._deep_led = bool(tactics) and tactics[0]["name"] in self._deep_now
        self._remember(rollout, start, source_key, tactics)
        source = strategy_source(evidence, goals, found)
        notes = (f"{len(goals)} sub-goals, {len(found)} reached in {expanded} predicted steps; "
                 f"movers {sorted(evidence.movers)}")
        return {"patch": None if source == request.surface else source, "tactics": tactics, "notes": notes}

    def _ration_resets(self, tactics: list[dict[str, Any]], goals: Sequence[SubGoal], level: int) -> list[dict[str, Any]]:
        """`tactics` without the reset-first ones of non-completing sub-goals that have had `RESETS_PER_GOAL`
        on this level (`level`: the step of the last level-up); counts the top one."""
        if level != self._resets_level:
            self._resets_level, self._resets = level, {}
        priority = {g.name: g.priority for g in goals}

        def resets(t: dict[str, Any]) -> bool:
            return (priority.get(str(t["name"]), 0) > COMPLETING and bool(t["actions"])
                    and t["actions"][0].get("action") == "RESET")

        kept = [t for t in tactics if not resets(t) or self._resets.get(str(t["name"]), 0) < RESETS_PER_GOAL]
        if kept and resets(kept[0]):
            self._resets[str(kept[0]["name"])] = self._resets.get(str(kept[0]["name"]), 0) + 1
        return kept

    def _deepen(self, rollout: Rollout, start: Any, actions: Sequence[Action], goals: Sequence[SubGoal],
                found: dict[str, list[Action]], expanded: int, source_key: int, cap: int | None,
                ) -> tuple[dict[str, list[Action]], int]:
        """A deep search for the level-completing sub-goals when the quick search reached none of them
        (and, while at it, for the other missed sub-goals up to `DEEP_GOALS`). With symbolic dynamics it
        may also reset the level (to the remembered level start): a block stuck in a corner needs it.

        Rare by construction: at most once per (world model, frame) and every `DEEP_EVERY` searches, so
        the per-step cost stays that of the quick search while long puzzles still get solved. A search cut
        short by its limits without a level-completing plan makes the next one bigger (`DEEP_GROWTH`) and
        may be run again from the same frame."""
        self._since_deep += 1
        self._deep_now = set()
        completing = [g for g in goals if g.priority <= COMPLETING]
        if self.deep is None or not completing or _reaches_any(found, completing):
            return found, expanded
        tried = (source_key, rollout.key(start))
        if tried in self._deep_found:
            self._deep_now = set(self._deep_found[tried])
            return {**found, **self._deep_found[tried]}, expanded
        if self._since_deep < DEEP_EVERY * self._deep_scale and not self._deep_led:
            return found, expanded
        self._since_deep = 0
        scale = self._deep_scale
        depth = self.deep.depth * scale if cap is None else min(self.deep.depth * scale, cap)
        limits = SearchLimits(self.deep.nodes * scale, depth, self.deep.seconds * scale)
        began = time.perf_counter()
        wanted = [g for g in goals if g.priority <= DEEP_GOALS and g.name not in found
                  and (g.priority <= COMPLETING or not g.name.startswith("uniform:"))]
        resets = [{"action": "RESET"}] if isinstance(rollout, LogicalRollout) else []
        deep, more = breadth_first(rollout, start, [*actions, *resets], wanted, limits)
        cut = more >= limits.nodes or time.perf_counter() - began >= 0.95 * limits.seconds
        grow = cut and scale < DEEP_GROWTH and not _reaches_any(deep, completing)
        if grow:
            self._deep_scale = 2 * scale
        # the guided search is for moving things (blocks to place): only when the world model moves or
        # pushes colours, and without clicks (their effects make the estimate meaningless)
        moving = bool(getattr(rollout, "movers", ())) and not any(a.get("action") == "ACTION6" for a in actions)
        for goal in wanted if moving else []:
            if goal.name not in deep and goal.estimate is not None:
                grown = min(scale, GUIDED_GROWTH)
                guided = SearchLimits(ESTIMATED_LIMITS.nodes * grown, ESTIMATED_LIMITS.depth if cap is None else
                                      min(ESTIMATED_LIMITS.depth, cap), ESTIMATED_LIMITS.seconds * grown)
                plan, steps = best_first(rollout, start, [*actions, *resets], goal, guided)
                more += steps
                if plan is not None:
                    deep[goal.name] = plan
        if len(self._deep_found) >= DEEP_MEMORY:
            self._deep_found.clear()
        if not grow or _reaches_any(deep, completing):
            self._deep_found[tried] = deep  # a search cut short may run again, bigger, from this frame
        self._deep_now = set(deep)
        return {**found, **deep}, expanded + more

    def _outlast(self, rollout: Rollout, start: Any, actions: Sequence[Action], goals: Sequence[SubGoal],
                 found: dict[str, list[Action]], expanded: int, source_key: int, cap: int | None,
                 ) -> tuple[dict[str, list[Action]], int]:
        """For each reached sub-goal with a `lapse` (something collected that comes back by itself after a
        measured number of actions), the shortest plan in which it has not come back when used: the plan
        found without that may hold it too long. Searched once per (world model, frame, sub-goal); when no
        such plan is found, the plain one stays."""
        if not isinstance(rollout, LogicalRollout):
            return found, expanded
        for goal in goals:
            if goal.lapse is None or goal.name not in found:
                continue
            tried = (source_key, rollout.key(start), goal.name, goal.lapse.lasts, goal.lapse.held)
            if tried not in self._lapse_plans:
                depth = LAPSE_LIMITS.depth if cap is None else min(LAPSE_LIMITS.depth, cap)
                limits = SearchLimits(LAPSE_LIMITS.nodes, depth, LAPSE_LIMITS.seconds)
                lapsing = Lapsing(rollout, goal.lapse)
                plans, steps = breadth_first(lapsing, lapsing.wrap(start), [*actions, {"action": "RESET"}],
                                             [goal], limits, retest=True)
                expanded += steps
                if len(self._lapse_plans) >= DEEP_MEMORY:
                    self._lapse_plans.clear()
                self._lapse_plans[tried] = plans.get(goal.name)
            plan = self._lapse_plans[tried]
            if plan is not None:
                found = {**found, goal.name: plan}
        return found, expanded

    def _remember(self, rollout: Rollout, start: Any, source_key: int, tactics: Sequence[dict[str, Any]]) -> None:
        """Record the states the top tactic passes through, to continue it without searching."""
        self.previous = None
        if not tactics:
            return
        keys, state = [], start
        for action in tactics[0]["actions"]:
            result = rollout.step(state, action)
            if result is None:
                return
            state = result[0]
            keys.append(rollout.key(state))
        self.previous = _Continuation(source_key, dict(tactics[0]), tuple(keys))
