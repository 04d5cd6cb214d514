"""The team's step, node by node: the harness (commit, observe, retrodict, review, predict, act) and the six
roles (observer, simulator, inductive, transductive, critic, leader).

Each method takes the graph state and returns a partial state; frames, predictions and proposals stay in
`StepMemory`; the workspace, the world model and the role models are injected. Role nodes the graph runs in
parallel (observer || simulator || transductive, then inductive || transductive) only call their role model
and write their own slots; workspace writes go through the `writing` lock, and everything whose order matters
(the patch lifecycle, peer feedback) runs in the harness's review node.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np

from dreamteam.agents.exploration_map import ExplorationMap, ExplorerOptions
from dreamteam.codec import decode_grid, encode_grid, grid_hash
from dreamteam.graph.state import StepState, fast_path
from dreamteam.perception import HudSettings
from dreamteam.scorers import ScorerSet
from dreamteam.team.memory import StepMemory
from dreamteam.team.ports import PatchLifecycle, PatchResult, WorldModel
from dreamteam.team.role_nodes import STALE_AFTER, RoleNodes, TeamRoles
from dreamteam.team.rollback import Rollback, seed_reader
from dreamteam.team.summaries import diff_summary
from dreamteam.types import Action, Grid, Observation
from dreamteam.workspace import PatchOutcome, PredictionRecord, StepRecord, Workspace

ACCURACY_WINDOW = 20
IDLE_COLOUR_AFTER = 3
"""The team's exploration map clicks a colour seen this often to change nothing only after fresh ones."""
STALL_WAIT = 24
"""Unchanged frames the team's map waits in a sink before leaving it (games hold still before a level-up)."""
MAP_OPTIONS = ExplorerOptions(shuffle=True, idle_colour_after=IDLE_COLOUR_AFTER, click_enclosed=True,
                              balance_kinds=True, sample_cells=True, momentum=0.75, stall_wait=STALL_WAIT,
                              finer_clicks=True, click_marks=True, hud=HudSettings(thin_bars=True),
                              blind_clicks=True)
"""The team's exploration map (its floor): options the explorer baseline leaves off, measured side by side
with `scripts/bench_floor.py` (docs/benchmarks.md)."""
PLAN_SURFACES = {"observation": "observable.py", "dynamics": "dynamics.py", "strategy": "strategy.py"}


class TeamLogic(RoleNodes):
    """Implements every node of the step graph over injected collaborators (the role nodes in `RoleNodes`)."""

    def __init__(self, workspace: Workspace, world: WorldModel, lifecycle: PatchLifecycle, roles: TeamRoles,
                 *, budget: int, seed: int = 0, stale_after: int = STALE_AFTER,
                 scorers: ScorerSet | None = None) -> None:
        self.ws = workspace
        self.world = world
        self.lifecycle = lifecycle
        self.roles = roles
        self.budget = budget
        self.stale_after = stale_after
        self.scorers = scorers if scorers is not None else ScorerSet.load()
        """The tactic scorers the inductive node ranks tactics with (`rollout` alone by default)."""
        self.rng = random.Random(seed)
        self.mem = StepMemory()
        self.map = ExplorationMap(MAP_OPTIONS, seed=seed)
        """Every state seen per level and which actions were tried there (the harness's map of the evidence)."""
        self.sources = {name: workspace.read_surface(name) for name in
                        ("observation", "dynamics", "strategy", "probes", "critique", "leadership")}
        for name in ("observation", "dynamics"):
            error = world.load(name, self.sources[name])
            if error:
                self.mem.flags.append(f"seed {name} artifact rejected: {error}")
        self.mem.deadly = _deadly(workspace.regression())
        self.writing = threading.Lock()
        """Held while a node writes the workspace or the surfaces (parallel role nodes write different files)."""
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
            scores=tuple(s.line() for s in self.mem.ranking),
        )
        self.ws.commit_step(record)
        self._tag_levels(pending["step"], level, obs.levels_completed)
        if obs.levels_completed > level:
            credit = credited(self.mem.sent_by, self.mem.level_steps, self.mem.floor_steps)
            self.mem.levels_by_floor += credit == "floor"
            self.mem.levels_by_team += credit == "team"
        self.mem.patches, self.mem.flags, self.mem.ranking = [], [], []
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
        self.mem.parse_errors = self.world.roundtrip_errors(obs.grid)
        self.map.observe(obs)
        # The Critic's loop and no-effect checks read these: hash the frame as the map keys it (a click's
        # fading mark would make every click look like a change).
        self.mem.hashes.append(grid_hash(self.map.as_keyed(obs.grid)))
        out: StepState = {}
        if state.get("level_changed") or obs.levels_completed != state.get("level", 0) or obs.full_reset:
            out["plan"], out["level"] = [], obs.levels_completed
            self.mem.level_steps = self.mem.floor_steps = 0
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
        out: StepState = {"components": components, "recent_hits": hits, "plan": plan}
        if not fast_path({**state, **out}):
            # what the role nodes of this slow step read, computed once before they fan out
            self.mem.regression = self.ws.regression()
            self.mem.exploration = self._exploration()
        return out

    def _predicts_loss(self, state: StepState, action: dict[str, Any]) -> bool:
        """Whether the world model predicts `action` from the current frame ends the game (usually a cached
        answer: the worker computed it when the frame arrived)."""
        obs = self.mem.obs
        assert obs is not None
        prediction = self.world.predict(obs.grid, dict(state.get("history") or {}), Action.from_json(action))
        return "game_over" in prediction.events

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
        self.mem.sent_by = str(state.get("plan_source") or "")
        if self.mem.sent_by == "map-frontier":
            self.mem.floor_steps += 1
        return {"action": action, "plan": plan, "pending": {"step": obs.step, "action": action},
                "step": obs.step + 1}


def credited(sent_by: str, level_steps: int, floor_steps: int) -> str | None:
    """Who a completed level is credited to, for the leader's floor share: "team" when its last action came
    from a tactic or a probe; "floor" when it came from a walk of the map (`sent_by` "map-frontier") after the
    other plans had at least as many of the level's steps; else nobody (at a game's start, before the world
    model fits, the walks complete the easy levels alone: no evidence against the tactics)."""
    if sent_by != "map-frontier":
        return "team"
    return "floor" if level_steps - floor_steps >= floor_steps else None


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
