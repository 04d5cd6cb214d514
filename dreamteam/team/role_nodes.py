"""The six role nodes of the team's step: observer || simulator (then the harness's review) and
inductive || transductive, then critic and leader.

Role nodes the graph runs in parallel only call their role model and write their own slots in `StepMemory`;
workspace writes take the `writing` lock, and what must happen in order (the patch lifecycle, peer feedback)
runs in review. `TeamLogic` (logic.py) adds the harness nodes and owns the collaborators declared here.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dreamteam.agents.exploration_map import ExplorationMap
from dreamteam.codec import encode_grid, grid_hash
from dreamteam.graph.state import StepState
from dreamteam.roles.critic import Critic
from dreamteam.roles.inductive import InductiveExplorer, Tactic
from dreamteam.roles.leader import Decision, TeamLeader
from dreamteam.roles.observer import Observer
from dreamteam.roles.simulator import Simulator
from dreamteam.roles.transductive import TransductiveExplorer
from dreamteam.scorers import ScoredTactic, ScorerSet
from dreamteam.team.memory import StepMemory
from dreamteam.team.ports import PatchLifecycle, PatchResult, WorldModel
from dreamteam.team.rollback import Rollback
from dreamteam.team.summaries import fallback_actions, proposals_json
from dreamteam.types import CLICK, RESET, Action
from dreamteam.workspace import Workspace

STALE_AFTER = 12
"""Steps without a new state after which the team is grinding (see `_grinding` and the leader's rule)."""
SEARCH_WHILE_GRINDING = 6
"""While grinding, the Inductive Explorer still searches every this many slow steps."""
FLOOR_ACCURACY = 0.6
"""Below this share of held predictions (the symbolic leader's `goal_trust`) the leader walks the exploration
map while it has a walk, whatever the probes say; they then matter only when a loop is flagged or the walk's
first step loses, so the Transductive Explorer runs every SEARCH_ON_FLOOR-th slow step there. (Skipping the
Inductive Explorer there too was measured to cost levels: bundled lava 3/5 instead of 5/5 at 1,000 actions.)"""
SEARCH_ON_FLOOR = 3
LOCAL_LEADER_ASKS = 4
"""A local (symbolic) leader is asked at most this many times per step, each time told one more predicted loss."""


@dataclass
class TeamRoles:
    """The six team members."""

    observer: Observer
    simulator: Simulator
    inductive: InductiveExplorer
    transductive: TransductiveExplorer
    critic: Critic
    leader: TeamLeader

    def by_name(self) -> dict[str, Any]:
        """Roles keyed by their role name (as used for routed feedback)."""
        return {r.name: r for r in (self.observer, self.simulator, self.inductive, self.transductive,
                                    self.critic, self.leader)}



class RoleNodes:
    """The role nodes (and review) over the collaborators `TeamLogic` sets up."""

    ws: Workspace
    world: WorldModel
    lifecycle: PatchLifecycle
    roles: TeamRoles
    budget: int
    stale_after: int
    rng: random.Random
    mem: StepMemory
    map: ExplorationMap
    sources: dict[str, str]
    writing: threading.Lock
    rollback: Rollback
    scorers: ScorerSet

    # ----- the maintainers: observer || simulator, then review ---------------------------------------------

    def maintainers(self, state: StepState) -> list[str]:
        """The maintaining roles this slow step needs: the Observer at its first look or on parse errors, the
        Simulator on a wrong prediction, a new level or a death."""
        components = state.get("components") or []
        out = ["observer"] if "observation" in components or not self.mem.observer_asked else []
        return out + (["simulator"] if {"dynamics", "level", "death"} & set(components) else [])

    def observer(self, state: StepState) -> StepState:
        """The Observer proposes observable.py (the lifecycle runs in review)."""
        self.mem.observer_asked = True
        frames = [encode_grid(g) for g in self.mem.frames]
        errors = [{"step": self.mem.obs.step if self.mem.obs else 0, "wrong_cells": self.mem.parse_errors}]
        patch = self.roles.observer.maintain(self.sources["observation"], frames, errors)
        self.mem.proposals["observation"] = patch
        return {"proposed": {"observer": _said(patch, "observable.py")}}

    def simulator(self, state: StepState) -> StepState:
        """The Simulator proposes dynamics.py from the regression set and the last replay's counterexamples."""
        patch = self.roles.simulator.maintain(self.sources["dynamics"], self._window(),
                                              self.mem.counterexamples.get("dynamics", []),
                                              self.sources["observation"])
        self.mem.proposals["dynamics"] = patch
        return {"proposed": {"simulator": _said(patch, "dynamics.py")}}

    def review(self, state: StepState) -> StepState:
        """The maintainers' patches go through the lifecycle, observation first (dynamics is replayed with the
        observable.py this leaves); then each maintainer's notes go to its peer's next call."""
        ran = state.get("proposed") or {}
        done = len(self.mem.patches)
        if "observer" in ran:
            self._submit("observation", self.mem.proposals.pop("observation", None))
        if "simulator" in ran:
            self._submit("dynamics", self.mem.proposals.pop("dynamics", None), self._window())
        if "observer" in ran:
            self._peer(self.roles.observer.last_notes, self.roles.simulator)
        if "simulator" in ran:
            self._peer(self.roles.simulator.last_notes, self.roles.observer)
        return {"patches": [_patch_json(p) for p in self.mem.patches[done:]]}

    def _window(self) -> list[dict[str, Any]]:
        """The step's regression window, a fresh list of fresh dicts per reader (as `Workspace.regression`)."""
        return [dict(t) for t in self.mem.regression]

    @staticmethod
    def _peer(notes: str, to: Any) -> None:
        """Peer feedback (Observer <-> Simulator): the sender's notes travel with the receiver's next call."""
        if notes.strip():
            to.feedback.append(notes.strip())

    def _submit(self, surface_name: str, patch: str | None, transitions: list[dict[str, Any]] | None = None) -> None:
        if patch is None or patch == self.sources[surface_name]:
            return
        companions = {"observation": self.sources["observation"]} if surface_name == "dynamics" else {}
        result = self.lifecycle.submit(surface_name, self.sources[surface_name], patch,
                                       transitions if transitions is not None else self._window(), companions)
        with self.writing:
            self.mem.patches.append(result)
            self.mem.counterexamples[surface_name] = [dict(c) for c in result.counterexamples]
            if result.report is not None:
                self.ws.write_replay_report(dict(result.report))
            if result.accepted:
                self.sources[surface_name] = patch
                self.ws.write_surface(surface_name, patch)
        if result.accepted and surface_name in ("observation", "dynamics"):
            self.world.load(surface_name, patch)

    # ----- the explorers: inductive || transductive ----------------------------------------------------

    def inductive(self, state: StepState) -> StepState:
        """The Inductive Explorer rolls out the strategy's policies on the reviewed world model: tactics."""
        obs = self.mem.obs
        assert obs is not None
        if self._grinding() and self.mem.skipped_searches < SEARCH_WHILE_GRINDING - 1:
            # The tactics had `stale_after` steps to find anything new; the leader now walks the map's
            # frontier, so the Inductive Explorer's search (the costliest call) is skipped until a new state,
            # except every SEARCH_WHILE_GRINDING-th step (the map can be wrong, e.g. when things move).
            self.mem.skipped_searches += 1
            self.mem.tactics, self.mem.ranking, self.mem.critiques = [], [], {}
            self.mem.flags.append(f"inductive skipped: no new state for "
                                  f"{self.mem.exploration['steps_since_new_state']} steps")
            return {"proposed": {"inductive": "skipped: grinding"}}
        self.mem.skipped_searches = 0
        regression = self._window()
        done = len(self.mem.patches)
        strategy_patch, tactics = self.roles.inductive.propose(self.sources["strategy"], {
            "frame": encode_grid(obs.grid), "transitions": regression[-60:],
            "level_ups": [t for t in regression if t.get("level_up")],
            "dynamics": self.sources["dynamics"], "observable": self.sources["observation"],
            "available_actions": list(obs.available_actions), "budget_left": self.budget - obs.step,
            "history": dict(state.get("history") or {}),
            "prediction_accuracy": _accuracy(state),
        })
        self.mem.ranking = self._rank(tactics, state)
        self.mem.critiques = self.scorers.critiques() if tactics else {}
        self.mem.tactics = [s.tactic for s in self.mem.ranking]
        self._submit("strategy", strategy_patch, [])
        return {"proposed": {"inductive": f"{len(self.mem.tactics)} tactics"},
                "patches": [_patch_json(p) for p in self.mem.patches[done:]]}

    def _rank(self, tactics: list[Tactic], state: StepState) -> list[ScoredTactic]:
        """The tactics ranked by the configured scorers (docs/scorers.md); their goals are the tactics'
        sub-goals in the explorer's order (its goal priority)."""
        obs = self.mem.obs
        assert obs is not None
        if not tactics:
            return []
        goals = list(dict.fromkeys(t.sub_goal for t in tactics))
        return self.scorers.rank(obs, tactics, goals, {
            "step": obs.step, "level": obs.levels_completed, "prediction_accuracy": _accuracy(state),
            "budget_left": self.budget - obs.step, "available_actions": list(obs.available_actions),
            "history": dict(state.get("history") or {}),
        })

    def transductive(self, state: StepState) -> StepState:
        """The Transductive Explorer proposes probes where the world model does not fit yet (it reads neither
        observable.py nor dynamics.py, so it runs beside the maintainers)."""
        obs = self.mem.obs
        assert obs is not None
        if self._on_floor(state) and self.mem.skipped_probes < SEARCH_ON_FLOOR - 1:
            self.mem.skipped_probes += 1
            self.mem.probes = []
            return {"proposed": {"transductive": "skipped: the world model does not fit, the map is walked"}}
        self.mem.skipped_probes = 0
        self.mem.probes = self.roles.transductive.propose(self.sources["probes"], {
            "frame": encode_grid(obs.grid), "transitions": self._window()[-60:],
            "available_actions": list(obs.available_actions), "tested": dict(self.mem.tested),
            "wrong_regions": [], "frontier": self.mem.exploration,
        })
        self._write_json("probes", {"probes": [p.to_json() for p in self.mem.probes[:20]]})
        return {"proposed": {"transductive": f"{len(self.mem.probes)} probes"}}

    def _on_floor(self, state: StepState) -> bool:
        """Prediction accuracy under FLOOR_ACCURACY (or nothing checked yet) while the map has a walk to an
        untested action whose first step is not known or predicted to lose: the leader's floor, for which
        no probe is needed (a walk that starts with a loss leaves the leader to the probes)."""
        accuracy = _accuracy(state)
        walk = self.mem.exploration.get("actions") or []
        if accuracy is not None and accuracy >= FLOOR_ACCURACY or not walk:
            return False
        return not self._loses(state, Action.from_json(walk[0]))

    def _grinding(self) -> bool:
        """No new state for `stale_after` steps while the map still knows a way to something untested."""
        e = self.mem.exploration
        return e["steps_since_new_state"] >= self.stale_after and bool(e["actions"] or e["reset_helps"])

    def _exploration(self) -> dict[str, Any]:
        """The map's summary: known states, steps since a new one, the path to the nearest untested action."""
        walk = self.map.frontier()
        return {"actions": [a.to_json() for a in walk], "states": len(self.map.memory.graph),
                "steps_since_new_state": self.map.steps_since_new,
                "reset_helps": not walk and self.map.reset_helps(), "stale_after": self.stale_after,
                "level_steps": self.mem.level_steps, "floor_steps": self.mem.floor_steps,
                "levels_by_floor": self.mem.levels_by_floor, "levels_by_team": self.mem.levels_by_team}

    # ----- critic / leader -----------------------------------------------------------------------------

    def critic(self, state: StepState) -> StepState:
        """The Critic audits and routes feedback to the owners."""
        self.mem.patches += self.rollback.apply(self.sources, self.ws.write_surface, self.world)  # faulted artifacts
        hits = state.get("recent_hits") or []
        flags, feedback = self.roles.critic.audit(self.sources["critique"], {
            "recent_actions": list(self.mem.actions), "recent_hashes": list(self.mem.hashes),
            "deaths": self.mem.deaths, "level_steps": self.mem.level_steps,
            "prediction_accuracy": sum(hits) / len(hits) if hits else 0.0,
            "proposals": proposals_json(self.mem.tactics, self.mem.probes),
        })
        feedback = dict(feedback)
        for name, lines in self.mem.critiques.items():
            # a learned critic's critique of the tactics goes to those who choose and make them
            for role in ("leader", "inductive"):
                said = f"{name} critique: " + " ".join(lines[:3])
                feedback[role] = f"{feedback[role]}\n{said}" if feedback.get(role) else said
        roles = self.roles.by_name()
        for role, text in feedback.items():
            if role in roles:
                roles[role].feedback.append(text)
        self.mem.flags.extend(flags)
        record: dict[str, Any] = {"feedback": feedback, "flags": flags}
        if self.mem.critiques:
            record["critiques"] = self.mem.critiques
        self._write_json("critique", record)
        return {"feedback": feedback}

    def leader(self, state: StepState) -> StepState:
        """The Team Leader picks the plan: a tactic, a probe, or RESET after a death."""
        obs = self.mem.obs
        assert obs is not None
        if obs.game_over:
            return self._record_decision(Decision("GOAL", (Action(RESET),), "leader", 1.0, "level lost: reset"))
        hits = state.get("recent_hits") or []
        local = self.roles.leader.model.name == "symbolic"
        fatal = self._fatal_actions(state, predict=not local)
        tactics = self._scored_tactics()
        for _ in range(LOCAL_LEADER_ASKS if local else 1):
            decision = self.roles.leader.decide(self.sources["leadership"], {
                "tactics": tactics,
                "probes": proposals_json([], self.mem.probes)["probes"],
                "critique": {"flags": self.mem.flags, "feedback": state.get("feedback") or {}},
                "prediction_accuracy": sum(hits) / len(hits) if hits else 0.0,
                "budget_left": self.budget - obs.step, "fatal_actions": fatal,
                "exploration": self.mem.exploration,
            })
            # A local leader is asked again rather than told every predicted loss up front: one prediction
            # (of the chosen first action, which the predict node then reads from the cache) instead of one
            # per simple action.
            first = decision.plan[0] if local and decision and decision.plan else None
            if first is None or not self._predicts_game_over(state, first):
                break
            fatal.append(first.to_json())
        reset_ok = bool(self.mem.exploration.get("reset_helps"))
        chosen = decision.plan if decision else ()
        # a tactic may begin with a level reset, unless the level has just begun (the engine would restart the
        # whole game): there its RESET is dropped and the rest of the plan starts from the level start as planned
        at_level_start = not self.mem.actions or self.mem.actions[-1] == "RESET" or bool(state.get("level_changed"))
        reset_first = bool(decision and decision.source not in ("probe", "fallback") and len(chosen) > 1
                           and not at_level_start)
        plan = tuple(a for i, a in enumerate(chosen) if self._allowed(a, reset_ok or (reset_first and i == 0)))
        if not plan:
            if local:  # the fallback avoids every predicted loss, not only those the re-asks found
                fatal = self._fatal_actions(state)
            plan = fallback_actions(self.mem.probes, obs.available_actions, self.rng,
                                    {Action.from_json(a).id for a in fatal})
            decision = Decision("DISCOVER", plan, "fallback", 0.0, "no usable plan from the leader")
        assert decision is not None
        return self._record_decision(Decision(decision.goal, plan, decision.source, decision.confidence,
                                              decision.reason))

    def _scored_tactics(self) -> list[dict[str, Any]]:
        """The tactics for the leader, in combined order, each with its explorer rank, combined score and every
        scorer's score (value, uncertainty, note, status)."""
        scored = {id(s.tactic): s for s in self.mem.ranking}
        out = []
        for t, item in zip(self.mem.tactics, proposals_json(self.mem.tactics, [])["tactics"], strict=False):
            s = scored.get(id(t))
            if s is not None:
                record = s.to_json()
                item.update(explorer_rank=record["explorer_rank"], score=record["combined"], scores=record["scores"])
            out.append(item)
        return out

    def _fatal_actions(self, state: StepState, predict: bool = True) -> list[dict[str, Any]]:
        """Simple actions that did end the game from this very frame before (whatever the model says now), and
        with `predict` those the world model predicts to end the level (game_over among the predicted events)."""
        obs = self.mem.obs
        assert obs is not None
        return [Action(aid).to_json() for aid in obs.available_actions
                if aid not in (RESET, CLICK) and self._loses(state, Action(aid), predict)]

    def _loses(self, state: StepState, action: Action, predict: bool = True) -> bool:
        """Whether `action` ended the game from this very frame before, or (with `predict`) the world model
        predicts that it ends the level."""
        obs = self.mem.obs
        assert obs is not None
        return ((grid_hash(obs.grid), action.label()) in self.mem.deadly
                or (predict and self._predicts_game_over(state, action)))

    def _predicts_game_over(self, state: StepState, action: Action) -> bool:
        """Whether the world model predicts that the simple `action` ends the level from the current frame."""
        obs = self.mem.obs
        assert obs is not None
        if action.id in (RESET, CLICK):
            return False
        return "game_over" in self.world.predict(obs.grid, dict(state.get("history") or {}), action).events

    def _allowed(self, action: Action, reset_ok: bool = False) -> bool:
        """Available, and not a RESET unless the map says a level reset is the only way to anything new
        (or `reset_ok` says so: a tactic that begins with a level reset)."""
        obs = self.mem.obs
        if obs is None:
            return False
        return (reset_ok and action.id == RESET) or (action.id != RESET and action.id in obs.available_actions)

    def _record_decision(self, d: Decision) -> StepState:
        log = json.loads(self.sources["leadership"]).get("decisions", [])[-29:]
        scores = [s.to_json() for s in self.mem.ranking]
        log.append({"step": self.mem.obs.step if self.mem.obs else 0, "goal": d.goal, "source": d.source,
                    "plan": [a.label() for a in d.plan], "confidence": round(d.confidence, 3), "reason": d.reason,
                    "scores": scores})
        self._write_json("leadership", {"goal": d.goal, "plan": [a.to_json() for a in d.plan],
                                        "confidence": d.confidence, "scorers": self.scorers.names,
                                        "decisions": log})
        return {"plan": [a.to_json() for a in d.plan], "plan_source": d.source, "goal": d.goal}

    def _write_json(self, surface_name: str, data: Mapping[str, Any]) -> None:
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
        with self.writing:
            if text != self.sources[surface_name]:
                self.sources[surface_name] = text
                self.ws.write_surface(surface_name, text)



def _accuracy(state: StepState) -> float | None:
    """The share of recent predictions that held (None before the first prediction was checked)."""
    hits = state.get("recent_hits") or []
    return round(sum(hits) / len(hits), 3) if hits else None


def _said(patch: str | None, path: str) -> str:
    """A one-line summary of a maintainer's reply."""
    return f"a new {path} ({len(patch)} chars)" if patch else "no change"


def _patch_json(p: PatchResult) -> dict[str, Any]:
    return {"surface": p.surface, "accepted": p.accepted, "reason": p.reason}

