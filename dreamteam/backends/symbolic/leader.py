"""The symbolic Team Leader: a gate on measured prediction accuracy between tactics and probes.

Request context (task "decide", surface = leader.json):
    tactics (as proposed this step, ranked by the configured tactic scorers: best first; each with
    "explorer_rank" (its 0-based place in the Inductive Explorer's order), "score" (the combined score, 0..1,
    or None when no scorer could rank it) and "scores" ({scorer: {"value", "uncertainty", "note", "status",
    "scaled"}}, see docs/scorers.md)), probes (as proposed this step), critique ({"flags", "feedback"}),
    prediction_accuracy (recent window, 0..1), budget_left, fatal_actions (labels or action dicts predicted to
    lose), exploration ({"actions": path to the nearest untested action, "steps_since_new_state": n,
    "reset_helps", "stale_after", "level_steps": steps on this level, "floor_steps": how many of them walked
    the map, "levels_by_floor" / "levels_by_team": the game's levels credited so far to the map's walks / to
    any other plan, see `dreamteam.team.logic.credited`})
Reply: {"goal", "plan", "source", "confidence", "reason"}.

Tactics are taken in the order given (the scorers' combined order; with the default `rollout` scorer that
is the explorer's own order); when the scorers put a tactic ahead of the explorer's order the reason says so.

Rules: plans that start with a predicted-fatal action, or hold a RESET, are dropped (the harness resets after a loss), except
a tactic that begins with a RESET (its search found a level reset the cheapest way to its sub-goal).
When no new state has been seen for `stale_after` steps (from the context, else `stale`, 12), the team is grinding: the leader walks to the
nearest untested action (DISCOVER), whatever the tactics say, until something new shows up; when nothing
untested is reachable but the level's start has some (`reset_helps`), it resets the level.
A level that runs long gets the floor's share as well: past `patience` (100) steps on one level, the walks
to the nearest untested action take at least half of the steps beyond it (`floor_share` of
`level_steps - patience`, counted by `floor_steps` in the exploration context), whatever the tactics say;
tactics that keep finding new states but never the level's end (a sub-goal that is not the goal) would
otherwise starve the exploration that completes the levels a plain graph explorer completes. The share grows
as the level runs on, by 0.1 every `escalate` / 10 (50) steps beyond the patience, up to `floor_lead` (0.8).
The game's own record moves that line: once more of its levels are credited to the map's walks than to the
tactics and probes (a walk completed them after the tactics had their say), the walks are owed their share of those levels (at least `floor_share`, at most
`floor_lead`, 0.8) from a level's first step, with no patience: on such a game the tactics have shown no
way to a level's end that the floor does not find sooner.
While accuracy is at least `trust` (0.8) the first tactic is followed (GOAL for level-completing
sub-goals, DISCOVER for exploration); a level-completing tactic is followed down to `goal_trust` (0.6):
its plan stops at the first wrong prediction anyway, and a model that keeps missing one detail it cannot
learn yet (a counter it does not see) would otherwise spend on probes the few actions the level allows;
under a flagged loop the leader switches to the next tactic or a probe. Below `goal_trust` the world model
does not fit the game yet and the leader explores systematically, as a graph explorer does: it walks the
exploration map to the nearest untested action (the team's floor on mechanics its rules do not describe),
or resets the level at once when nothing untested is reachable but the level's start has some.
Otherwise below the gate it runs the first probe (DISCOVER for an untested action, VALIDATE otherwise), or
validates the first step of the best tactic when there is no probe; with no probe and no tactic it walks the
map after all (a flagged loop had skipped the walk).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreamteam.backends.symbolic.common.base import list_of
from dreamteam.backends.symbolic.critic import label
from dreamteam.protocols import RoleRequest

TRUST = 0.8
GOAL_TRUST = 0.6
STALE = 12
PATIENCE = 100
"""Steps on one level before the exploration map's walks are owed a share of the level's steps."""
FLOOR_SHARE = 0.5
"""The share of a level's steps beyond `PATIENCE` that the map's walks get (see `LeaderAnswerer._owed`)."""
FLOOR_LEAD = 0.8
"""The most of a level's steps the map's walks are owed when they completed most of the game's levels so far."""
ESCALATE = 500
"""Steps beyond `PATIENCE` over which the walks' share of a level grows by 1.0 (capped at `FLOOR_LEAD`): a level
the tactics have not completed in 250 steps is mostly the map's."""
GOAL_TACTICS = ("level_up", "repeat-level-up", "match-target")


def _fatal(ctx: Mapping[str, Any]) -> set[str]:
    return {label(a) for a in list_of(ctx, "fatal_actions")}


def _usable(items: Sequence[Any], fatal: set[str], budget: int | None,
            reset_first: bool = False) -> list[Mapping[str, Any]]:
    """Proposals whose plan is non-empty, does not start with a fatal action, has no RESET, and fits the
    budget (with `reset_first`, a plan may begin with a RESET that more actions follow: a level reset the
    search found to be the cheapest way to a sub-goal).

    `fatal` holds the actions that lose the level from the current frame, so only a plan's first action is
    judged by it: later steps start from other frames, which the rollout that made the plan already judged
    (on a lava field the way out of a pocket often needs, later, the very action that is fatal here)."""
    out: list[Mapping[str, Any]] = []
    for item in items:
        actions = item.get("actions") if isinstance(item, Mapping) else None
        if not actions:
            continue
        names = [label(a) for a in actions]
        first = names[0]
        if reset_first and len(names) > 1 and names[0] == "RESET":
            names, first = names[1:], ""  # after the reset, the frame is another one
        if "RESET" in names or first in fatal or first.split("@")[0] in fatal:
            continue
        out.append({**item, "actions": list(actions)[:budget] if budget else list(actions)})
    return out


def _looping(ctx: Mapping[str, Any]) -> bool:
    critique = ctx.get("critique")
    flags = list_of(critique, "flags") if isinstance(critique, Mapping) else []
    return any("loop" in str(f) for f in flags[-3:])


def _discovers(probe: Mapping[str, Any]) -> bool:
    """Whether a probe tries something untested (rather than re-testing a known action)."""
    return str(probe.get("target_hypothesis", "")).endswith("an effect")


def _walk(exploration: Any, budget: int | None) -> list[Any]:
    """The exploration map's walk to the nearest untested action, cut to the budget ([] when none)."""
    if not isinstance(exploration, Mapping):
        return []
    usable = _usable([{"actions": exploration.get("actions")}], set(), budget)
    return list(usable[0]["actions"]) if usable else []


def _resets(plan: Sequence[Any]) -> bool:
    """Whether a plan is the floor's level RESET."""
    return len(plan) == 1 and isinstance(plan[0], Mapping) and plan[0].get("action") == "RESET"


def _scored(best: Mapping[str, Any], tactics: Sequence[Mapping[str, Any]]) -> str:
    """A note for the reason when the scorers ranked `best` ahead of tactics the explorer put before it."""
    rank = best.get("explorer_rank")
    if not isinstance(rank, int) or isinstance(rank, bool):
        return ""
    ahead = [t for t in tactics if isinstance(t.get("explorer_rank"), int) and t["explorer_rank"] < rank]
    if not ahead:
        return ""
    score = best.get("score")
    shown = f" (combined score {score:.2f})" if isinstance(score, int | float) else ""
    return f"; the scorers ranked it first{shown}, ahead of the explorer's {str(ahead[0].get('name', ''))!r}"


def decision(goal: str, plan: Sequence[Any], source: str, confidence: float, reason: str) -> dict[str, Any]:
    """A reply in the schema's shape."""
    return {"goal": goal, "plan": [dict(a) for a in plan], "source": source,
            "confidence": round(max(0.0, min(1.0, confidence)), 3), "reason": reason}


class LeaderAnswerer:
    """Trusts rollouts only while measured accuracy is high; otherwise probes."""

    def __init__(self, trust: float = TRUST, stale: int = STALE, goal_trust: float = GOAL_TRUST,
                 patience: int = PATIENCE, floor_share: float = FLOOR_SHARE, floor_lead: float = FLOOR_LEAD,
                 escalate: int = ESCALATE) -> None:
        self.trust = trust
        self.stale = stale
        self.goal_trust = goal_trust
        self.patience = patience
        self.floor_share = floor_share
        self.floor_lead = floor_lead
        self.escalate = escalate

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Reply content for one "decide" request."""
        ctx = request.context
        budget = ctx.get("budget_left") if isinstance(ctx.get("budget_left"), int) else None
        fatal = _fatal(ctx)
        tactics = _usable(list_of(ctx, "tactics"), fatal, budget, reset_first=True)
        probes = _usable(list_of(ctx, "probes"), fatal, budget)
        accuracy = float(ctx.get("prediction_accuracy") or 0.0)
        looping = _looping(ctx)
        explore = self._explore(ctx, fatal, budget)
        if explore is not None:
            return explore
        if looping:
            tactics, probes = tactics[1:] or tactics, [p for p in probes if _discovers(p)] or ([] if tactics else probes)
        if accuracy >= self.trust and tactics:
            best = tactics[0]
            name = str(best.get("name", "tactic"))
            goal = "GOAL" if name.startswith(GOAL_TACTICS) else "DISCOVER"
            why = "; a loop was flagged, so not the top tactic" if looping else ""
            return decision(goal, best["actions"], name, accuracy,
                            f"prediction accuracy {accuracy:.2f} >= {self.trust}: follow tactic {name!r}{why}"
                            f"{_scored(best, tactics)}")
        if accuracy >= self.goal_trust and tactics and str(tactics[0].get("name", "")).startswith(GOAL_TACTICS):
            best = tactics[0]
            name = str(best.get("name"))
            return decision("GOAL", best["actions"], name, accuracy,
                            f"prediction accuracy {accuracy:.2f} >= {self.goal_trust}: follow the level-completing "
                            f"tactic {name!r}{_scored(best, tactics)}")
        if accuracy < self.goal_trust and not looping:
            step = self._floor_step(ctx, fatal, budget)
            if step is not None:
                why = f"prediction accuracy {accuracy:.2f} < {self.goal_trust}: the world model does not fit yet"
                return decision("DISCOVER", step, "map-frontier", 1.0 - accuracy,
                                f"{why} and nothing untested is reachable: reset the level" if _resets(step) else
                                f"{why}, so explore systematically: walk {len(step) - 1} known steps to the "
                                "nearest untested action")
        if probes:
            best = probes[0]
            goal = "DISCOVER" if _discovers(best) else "VALIDATE"
            why = ("a loop was flagged" if looping else "no tactic reaches a sub-goal" if accuracy >= self.trust
                   else f"prediction accuracy {accuracy:.2f} < {self.trust}")
            return decision(goal, best["actions"], "probe", 1.0 - accuracy,
                            f"{why}: probe '{best.get('target_hypothesis', '')}'")
        if tactics:
            best = tactics[0]
            return decision("VALIDATE", best["actions"][:1], str(best.get("name", "tactic")), accuracy,
                            f"no probe and accuracy {accuracy:.2f}: test the first step of the best tactic"
                            + ("; a loop was flagged, so not the top tactic" if looping else ""))
        walk = self._frontier(ctx, fatal, budget)
        if walk is not None:  # a flagged loop skipped the walk above; with nothing else usable it is still the best
            return decision("DISCOVER", walk, "map-frontier", 1.0 - accuracy,
                            f"no tactic or probe is usable: walk {len(walk) - 1} known steps to the nearest "
                            "untested action")
        return decision("DISCOVER", [], "leader", 0.0, "nothing usable was proposed")

    @classmethod
    def _floor_step(cls, ctx: Mapping[str, Any], fatal: set[str], budget: int | None) -> list[Any] | None:
        """The floor's plan: the map's walk to the nearest untested action (its first step not fatal), else a
        level RESET when nothing untested is reachable but the level's start has some (`reset_helps`)."""
        walk = cls._frontier(ctx, fatal, budget)
        if walk is not None:
            return walk
        exploration = ctx.get("exploration")
        if isinstance(exploration, Mapping) and exploration.get("reset_helps") is True:
            return [{"action": "RESET"}]
        return None

    @staticmethod
    def _frontier(ctx: Mapping[str, Any], fatal: set[str], budget: int | None) -> list[Any] | None:
        """The map's walk to the nearest untested action, when it has one whose first step is not fatal."""
        walk = _walk(ctx.get("exploration"), budget)
        return walk if walk and label(walk[0]) not in fatal else None

    def _explore(self, ctx: Mapping[str, Any], fatal: set[str], budget: int | None) -> dict[str, Any] | None:
        """The walk to the nearest untested action, when no new state was seen for `stale` steps or the level
        has run long enough that the walks are owed steps (`_owed`)."""
        exploration = ctx.get("exploration")
        if not isinstance(exploration, Mapping):
            return None
        since = exploration.get("steps_since_new_state")
        limit = exploration.get("stale_after")
        limit = limit if isinstance(limit, int) and limit > 0 else self.stale
        stale = isinstance(since, int) and since >= limit
        owed = self._owed(exploration)
        if not stale and not owed:
            return None
        patience, share = self._terms(exploration)
        why = (f"no new state for {since} steps" if stale else
               f"{exploration.get('level_steps')} steps on this level, {exploration.get('floor_steps')} of them "
               f"exploring (the floor's share beyond {patience} is {share:.0%})")
        step = self._floor_step(ctx, fatal, budget)
        if step is None:
            return None
        if _resets(step):
            return decision("DISCOVER", step, "map-frontier", 1.0, f"{why} and nothing untested reachable: reset the level")
        return decision("DISCOVER", step, "map-frontier", 1.0,
                        f"{why}: walk {len(step) - 1} known steps to the nearest untested action")

    def _owed(self, exploration: Mapping[str, Any]) -> bool:
        """Whether the map's walks have had less than their share of this level's steps beyond the patience
        (`_terms`)."""
        steps, walked = exploration.get("level_steps"), exploration.get("floor_steps")
        patience, share = self._terms(exploration)
        if not isinstance(steps, int) or not isinstance(walked, int) or steps <= patience:
            return False
        return walked < share * (steps - patience)

    def _terms(self, exploration: Mapping[str, Any]) -> tuple[int, float]:
        """(patience, share) on this level: `patience` and `floor_share`, or, once the map's walks have completed
        more of the game's levels than the other plans, no patience and the walks' part of those levels (at
        least `floor_share`, at most `floor_lead`). Either share grows with the level's length, by 0.1 every
        `escalate` / 10 steps beyond the patience (up to `floor_lead`)."""
        by_floor, by_team = exploration.get("levels_by_floor"), exploration.get("levels_by_team")
        steps = exploration.get("level_steps")
        grown = self.floor_share + max(0, steps - self.patience) / self.escalate if isinstance(steps, int) else 0.0
        if not isinstance(by_floor, int) or not isinstance(by_team, int) or by_floor <= by_team:
            return self.patience, min(self.floor_lead, max(self.floor_share, grown))
        return 0, min(self.floor_lead, max(self.floor_share, grown, by_floor / (by_floor + by_team)))
