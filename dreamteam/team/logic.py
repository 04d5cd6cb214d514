"""The team's step, node by node: commit, observe, retrodict, maintain, propose, critic, lead, predict, act.

Each method takes the graph state and returns a partial state; frames, predictions and proposals stay in
`StepMemory`; the workspace, the world model and the role models are injected.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dreamteam.agents.exploration_map import ExplorationMap
from dreamteam.codec import decode_grid, encode_grid, grid_hash
from dreamteam.graph.state import StepState
from dreamteam.roles.critic import Critic
from dreamteam.roles.inductive import InductiveExplorer
from dreamteam.roles.leader import Decision, TeamLeader
from dreamteam.roles.observer import Observer
from dreamteam.roles.simulator import Simulator
from dreamteam.roles.transductive import TransductiveExplorer
from dreamteam.team.memory import StepMemory
from dreamteam.team.ports import PatchLifecycle, PatchResult, WorldModel
from dreamteam.team.rollback import Rollback, seed_reader
from dreamteam.team.summaries import diff_summary, fallback_actions, proposals_json
from dreamteam.types import CLICK, RESET, Action, Grid, Observation
from dreamteam.workspace import PatchOutcome, PredictionRecord, StepRecord, Workspace

ACCURACY_WINDOW = 20
STALE_AFTER = 12
"""Steps without a new state after which the team is grinding (see `_grinding` and the leader's rule)."""
SEARCH_WHILE_GRINDING = 6
"""While grinding, the Inductive Explorer still searches every this many slow steps."""
PLAN_SURFACES = {"observation": "observable.py", "dynamics": "dynamics.py", "strategy": "strategy.py"}


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


class TeamLogic:
    """Implements every node of the step graph over injected collaborators."""

    def __init__(self, workspace: Workspace, world: WorldModel, lifecycle: PatchLifecycle, roles: TeamRoles,
                 *, budget: int, seed: int = 0, stale_after: int = STALE_AFTER) -> None:
        self.ws = workspace
        self.world = world
        self.lifecycle = lifecycle
        self.roles = roles
        self.budget = budget
        self.stale_after = stale_after
        self.rng = random.Random(seed)
        self.mem = StepMemory()
        self.map = ExplorationMap(seed=seed)
        """Every state seen per level and which actions were tried there (the harness's map of the evidence)."""
        self.sources = {name: workspace.read_surface(name) for name in
                        ("observation", "dynamics", "strategy", "probes", "critique", "leadership")}
        for name in ("observation", "dynamics"):
            error = world.load(name, self.sources[name])
            if error:
                self.mem.flags.append(f"seed {name} artifact rejected: {error}")
        self.mem.deadly = _deadly(workspace.regression())
        self.rollback = Rollback(self.sources, seed_reader(workspace))

    # ----- arrival ------------------------------------------------------------------------------

    def arrive(self, obs: Observation, state: StepState) -> None:
        """A new frame arrived (before the step's nodes run): the sandbox worker starts on it at once.

        It parses and renders the frame for observe and, when the fast path will likely go on (the plan has
        actions, the last prediction held, the level and the game go on), predicts the plan's next action for
        predict, while this process writes the previous step's commit.
        """
        self.mem.obs = obs
        plan = state.get("plan") or []
        goes_on = bool(plan) and state.get("pending") is not None and not obs.game_over and not obs.full_reset
        if goes_on and obs.levels_completed == state.get("level", 0) and _compare(self.mem.predicted, obs.grid)[0]:
            self.world.prepare(obs.grid, then_predict=(dict(state.get("history") or {}), Action.from_json(plan[0])))
        else:
            self.world.prepare(obs.grid)

    # ----- commit -------------------------------------------------------------------------------

    def commit(self, state: StepState) -> StepState:
        """Record the previous action's transition and prediction, and make the step commit."""
        pending = state.get("pending") or {}
        obs, before = self.mem.obs, self.mem.before
        assert obs is not None and before is not None
        level = state.get("level", 0)
        hit, wrong = _compare(self.mem.predicted, obs.grid)
        transition = {
            "step": pending["step"], "level": level, "action": pending["action"],
            "before": encode_grid(before), "after": encode_grid(obs.grid), "frames": len(obs.frames),
            "history": state.get("history_before") or {}, "level_up": obs.levels_completed > level,
            "game_over": obs.game_over,
        }
        self.ws.add_transition(transition)
        label = Action.from_json(pending["action"]).label()
        predicted = grid_hash(self.mem.predicted) if self.mem.predicted is not None else None
        self.ws.add_prediction(PredictionRecord(pending["step"], label, predicted, grid_hash(obs.grid), hit, wrong))
        record = StepRecord(
            step=pending["step"], level=level, action=label, hit=hit, wrong_cells=wrong,
            diff_summary=diff_summary(self.mem.predicted, obs.grid, self.mem.prediction_error),
            patches=tuple(_outcome(p, self._owner(p.surface)) for p in self.mem.patches),
            notes=tuple(self.mem.flags[-3:]),
        )
        self.ws.commit_step(record)
        self._tag_levels(pending["step"], level, obs.levels_completed)
        self.mem.patches, self.mem.flags = [], []
        self.mem.actions.append(label)
        if obs.game_over:
            self.mem.deaths += 1
            self.mem.deadly.add((grid_hash(before), label))
        return {"pending": None, "hit": hit, "wrong_cells": wrong, "committed": pending["step"],
                "level": obs.levels_completed, "level_changed": obs.levels_completed != level}

    def _tag_levels(self, step: int, level: int, now: int) -> None:
        if step == 0:
            self.ws.tag_level(level + 1, "start", move=True)
        if now > level:
            self.ws.tag_level(level + 1, "solved", move=True)
            self.ws.tag_level(now + 1, "start", move=True)

    def _owner(self, surface_name: str) -> str:
        return {"observation": "observer", "dynamics": "simulator", "strategy": "inductive"}.get(surface_name, "")

    # ----- observe / retrodict --------------------------------------------------------------------

    def observe(self, state: StepState) -> StepState:
        """Parse the frame with the observation surface and check the round trip."""
        obs = self.mem.obs
        assert obs is not None
        self.mem.frames.append(obs.grid)
        self.mem.hashes.append(grid_hash(obs.grid))
        self.mem.parse_errors = self.world.roundtrip_errors(obs.grid)
        self.map.observe(obs)
        out: StepState = {}
        if state.get("level_changed") or obs.levels_completed != state.get("level", 0) or obs.full_reset:
            out["plan"], out["level"] = [], obs.levels_completed
            self.mem.level_steps = 0
        self.mem.level_steps += 1
        return out

    def retrodict(self, state: StepState) -> StepState:
        """Split the prediction error into components and route each to the role that owns it."""
        obs = self.mem.obs
        assert obs is not None
        components: list[str] = []
        if self.mem.parse_errors != 0:
            components.append("observation")
            self.roles.observer.feedback.append(f"render(parse(frame)) differs in {self.mem.parse_errors} cells")
        if state.get("hit") is False:
            components.append("level" if state.get("level_changed") else "dynamics")
            self.roles.simulator.feedback.append(f"last prediction wrong in {state.get('wrong_cells', 0)} cells")
        if obs.game_over:
            components.append("death")
        hits = list(state.get("recent_hits") or [])
        if state.get("hit") is not None:
            hits = (hits + [1 if state.get("hit") else 0])[-ACCURACY_WINDOW:]
        plan = [] if components else list(state.get("plan") or [])
        if plan and self._predicts_loss(state, plan[0]):
            # The fast path would send it: the roles decide again (the leader drops predicted losses).
            plan = []
            self.mem.flags.append("plan dropped: the world model predicts its next action loses the level")
        return {"components": components, "recent_hits": hits, "plan": plan}

    def _predicts_loss(self, state: StepState, action: dict[str, Any]) -> bool:
        """Whether the world model predicts `action` from the current frame ends the game (usually a cached
        answer: the worker computed it when the frame arrived)."""
        obs = self.mem.obs
        assert obs is not None
        prediction = self.world.predict(obs.grid, dict(state.get("history") or {}), Action.from_json(action))
        return "game_over" in prediction.events

    # ----- maintain ---------------------------------------------------------------------------------

    def maintain(self, state: StepState) -> StepState:
        """Observer and Simulator propose patches; each goes through the patch lifecycle."""
        components = state.get("components") or []
        first_look = not self.mem.observer_asked
        if "observation" in components or first_look:
            self.mem.observer_asked = True
            frames = [encode_grid(g) for g in self.mem.frames]
            errors = [{"step": self.mem.obs.step if self.mem.obs else 0, "wrong_cells": self.mem.parse_errors}]
            patch = self.roles.observer.maintain(self.sources["observation"], frames, errors)
            self._submit("observation", patch)
            self._peer(self.roles.observer.last_notes, self.roles.simulator)
        if "dynamics" in components or "level" in components or "death" in components:
            transitions = self.ws.regression()
            patch = self.roles.simulator.maintain(self.sources["dynamics"], transitions,
                                                  self.mem.counterexamples.get("dynamics", []),
                                                  self.sources["observation"])
            self._submit("dynamics", patch, transitions)
            self._peer(self.roles.simulator.last_notes, self.roles.observer)
        return {"patches": [_patch_json(p) for p in self.mem.patches]}

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
                                       transitions if transitions is not None else self.ws.regression(), companions)
        self.mem.patches.append(result)
        self.mem.counterexamples[surface_name] = [dict(c) for c in result.counterexamples]
        if result.report is not None:
            self.ws.write_replay_report(dict(result.report))
        if result.accepted:
            self.sources[surface_name] = patch
            self.ws.write_surface(surface_name, patch)
            if surface_name in ("observation", "dynamics"):
                self.world.load(surface_name, patch)

    # ----- propose / critic / lead ----------------------------------------------------------------------

    def propose(self, state: StepState) -> StepState:
        """The explorers propose tactics (from rollouts) and probes (for information)."""
        obs = self.mem.obs
        assert obs is not None
        frame = encode_grid(obs.grid)
        regression = self.ws.regression()
        self.mem.exploration = self._exploration()
        if self._grinding() and self.mem.skipped_searches < SEARCH_WHILE_GRINDING - 1:
            # The tactics had `stale_after` steps to find anything new; the leader now walks the map's
            # frontier, so the Inductive Explorer's search (the costliest call) is skipped until a new state,
            # except every SEARCH_WHILE_GRINDING-th step (the map can be wrong, e.g. when things move).
            self.mem.skipped_searches += 1
            self.mem.tactics = []
            self.mem.flags.append(f"inductive skipped: no new state for "
                                  f"{self.mem.exploration['steps_since_new_state']} steps")
        else:
            self.mem.skipped_searches = 0
            strategy_patch, self.mem.tactics = self.roles.inductive.propose(self.sources["strategy"], {
                "frame": frame, "transitions": regression[-60:],
                "level_ups": [t for t in regression if t.get("level_up")],
                "dynamics": self.sources["dynamics"], "observable": self.sources["observation"],
                "available_actions": list(obs.available_actions), "budget_left": self.budget - obs.step,
                "history": dict(state.get("history") or {}),
            })
            self._submit("strategy", strategy_patch, [])
        self.mem.probes = self.roles.transductive.propose(self.sources["probes"], {
            "frame": frame, "transitions": regression[-60:], "available_actions": list(obs.available_actions),
            "tested": dict(self.mem.tested), "wrong_regions": [], "frontier": self.mem.exploration,
        })
        self._write_json("probes", {"probes": [p.to_json() for p in self.mem.probes[:20]]})
        return {}

    def _grinding(self) -> bool:
        """No new state for `stale_after` steps while the map still knows a way to something untested."""
        e = self.mem.exploration
        return e["steps_since_new_state"] >= self.stale_after and bool(e["actions"] or e["reset_helps"])

    def _exploration(self) -> dict[str, Any]:
        """The map's summary: known states, steps since a new one, the path to the nearest untested action."""
        walk = self.map.frontier()
        return {"actions": [a.to_json() for a in walk], "states": len(self.map.memory.graph),
                "steps_since_new_state": self.map.steps_since_new,
                "reset_helps": not walk and self.map.reset_helps(), "stale_after": self.stale_after}

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
        roles = self.roles.by_name()
        for role, text in feedback.items():
            if role in roles:
                roles[role].feedback.append(text)
        self.mem.flags.extend(flags)
        self._write_json("critique", {"feedback": feedback, "flags": flags})
        return {"feedback": feedback}

    def lead(self, state: StepState) -> StepState:
        """The Team Leader picks the plan: a tactic, a probe, or RESET after a death."""
        obs = self.mem.obs
        assert obs is not None
        if obs.game_over:
            return self._record_decision(Decision("GOAL", (Action(RESET),), "leader", 1.0, "level lost: reset"))
        hits = state.get("recent_hits") or []
        fatal = self._fatal_actions(state)
        decision = self.roles.leader.decide(self.sources["leadership"], {
            "tactics": proposals_json(self.mem.tactics, [])["tactics"],
            "probes": proposals_json([], self.mem.probes)["probes"],
            "critique": {"flags": self.mem.flags, "feedback": state.get("feedback") or {}},
            "prediction_accuracy": sum(hits) / len(hits) if hits else 0.0,
            "budget_left": self.budget - obs.step, "fatal_actions": fatal,
            "exploration": self.mem.exploration,
        })
        reset_ok = bool(self.mem.exploration.get("reset_helps"))
        chosen = decision.plan if decision else ()
        # a tactic may begin with a level reset, unless the level has just begun (the engine would restart the
        # whole game): there its RESET is dropped and the rest of the plan starts from the level start as planned
        at_level_start = not self.mem.actions or self.mem.actions[-1] == "RESET" or bool(state.get("level_changed"))
        reset_first = bool(decision and decision.source not in ("probe", "fallback") and len(chosen) > 1
                           and not at_level_start)
        plan = tuple(a for i, a in enumerate(chosen) if self._allowed(a, reset_ok or (reset_first and i == 0)))
        if not plan:
            plan = fallback_actions(self.mem.probes, obs.available_actions, self.rng,
                                    {Action.from_json(a).id for a in fatal})
            decision = Decision("DISCOVER", plan, "fallback", 0.0, "no usable plan from the leader")
        assert decision is not None
        return self._record_decision(Decision(decision.goal, plan, decision.source, decision.confidence,
                                              decision.reason))

    def _fatal_actions(self, state: StepState) -> list[dict[str, Any]]:
        """Simple actions the world model predicts to end the level (game_over among the predicted events),
        and those that did end the game from this very frame before (whatever the model says now)."""
        obs = self.mem.obs
        assert obs is not None
        fatal = []
        here = grid_hash(obs.grid)
        for aid in obs.available_actions:
            if aid in (RESET, CLICK):
                continue
            if (here, Action(aid).label()) in self.mem.deadly:
                fatal.append(Action(aid).to_json())
                continue
            prediction = self.world.predict(obs.grid, dict(state.get("history") or {}), Action(aid))
            if "game_over" in prediction.events:
                fatal.append(Action(aid).to_json())
        return fatal

    def _allowed(self, action: Action, reset_ok: bool = False) -> bool:
        """Available, and not a RESET unless the map says a level reset is the only way to anything new
        (or `reset_ok` says so: a tactic that begins with a level reset)."""
        obs = self.mem.obs
        if obs is None:
            return False
        return (reset_ok and action.id == RESET) or (action.id != RESET and action.id in obs.available_actions)

    def _record_decision(self, d: Decision) -> StepState:
        log = json.loads(self.sources["leadership"]).get("decisions", [])[-29:]
        log.append({"step": self.mem.obs.step if self.mem.obs else 0, "goal": d.goal, "source": d.source,
                    "plan": [a.label() for a in d.plan], "confidence": round(d.confidence, 3), "reason": d.reason})
        self._write_json("leadership", {"goal": d.goal, "plan": [a.to_json() for a in d.plan],
                                        "confidence": d.confidence, "decisions": log})
        return {"plan": [a.to_json() for a in d.plan], "plan_source": d.source, "goal": d.goal}

    def _write_json(self, surface_name: str, data: Mapping[str, Any]) -> None:
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
        if text != self.sources[surface_name]:
            self.sources[surface_name] = text
            self.ws.write_surface(surface_name, text)

    # ----- predict / act ------------------------------------------------------------------------------

    def predict(self, state: StepState) -> StepState:
        """Commit the prediction for the next action before it is sent."""
        obs = self.mem.obs
        assert obs is not None
        action = Action.from_json((state.get("plan") or [])[0])
        history = dict(state.get("history") or {})
        prediction = self.world.predict(obs.grid, history, action)
        self.mem.predicted, self.mem.prediction_error = prediction.grid, prediction.error
        return {"history_before": history, "history": prediction.history,
                "fast_path": not state.get("components")}

    def act(self, state: StepState) -> StepState:
        """Emit the next action of the plan and remember what was sent."""
        obs = self.mem.obs
        assert obs is not None
        plan = list(state.get("plan") or [])
        action = plan.pop(0)
        self.mem.before = obs.grid
        self.map.sent(obs.grid, Action.from_json(action))
        label = Action.from_json(action).label()
        self.mem.tested[label] = self.mem.tested.get(label, 0) + 1
        return {"action": action, "plan": plan, "pending": {"step": obs.step, "action": action},
                "step": obs.step + 1}


def _deadly(transitions: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(frame hash, action label) of the transitions that ended the game: a resumed session (or one opened on
    a workspace with evidence) avoids them as the session that saw them did."""
    return {(grid_hash(decode_grid(t["before"])), Action.from_json(t["action"]).label())
            for t in transitions if t.get("game_over")}


def _compare(predicted: Grid | None, observed: Grid) -> tuple[bool | None, int]:
    if predicted is None:
        return None, 0
    wrong = int(np.count_nonzero(np.asarray(predicted) != np.asarray(observed)))
    return wrong == 0, wrong


def _outcome(p: PatchResult, role: str) -> PatchOutcome:
    return PatchOutcome(surface=p.surface, role=role, accepted=p.accepted, reason=p.reason, replay=p.replay_summary)


def _patch_json(p: PatchResult) -> dict[str, Any]:
    return {"surface": p.surface, "accepted": p.accepted, "reason": p.reason}
