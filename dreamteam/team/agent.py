"""TeamAgent: the six roles as an Agent; one graph invocation per action, one workspace commit per step."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from dreamteam.backends.calllog import CallLog, CallRecord
from dreamteam.backends.config import BackendConfig, load_backend_config
from dreamteam.backends.registry import build_role_models
from dreamteam.graph.checkpoint import sqlite_checkpointer
from dreamteam.graph.runner import StepGraph
from dreamteam.graph.state import StepState
from dreamteam.protocols import RoleModel, RoleReply, RoleRequest
from dreamteam.roles.critic import Critic
from dreamteam.roles.inductive import InductiveExplorer
from dreamteam.roles.leader import TeamLeader
from dreamteam.roles.observer import Observer
from dreamteam.roles.simulator import Simulator
from dreamteam.roles.transductive import TransductiveExplorer
from dreamteam.scorers import ScorerSet
from dreamteam.team.logic import TeamLogic
from dreamteam.team.role_nodes import TeamRoles
from dreamteam.team.sandboxed import SandboxLifecycle, SandboxWorldModel
from dreamteam.types import RESET, Action, GameInfo, Observation
from dreamteam.workspace import Workspace, seed_path

WORKSPACE_DIR = "workspace"
CHECKPOINT = "checkpoint.sqlite"
CALLS = "calls.jsonl"
IN_PROCESS = ("symbolic",)
"""Backends that compute their answers in this process (CPU-bound: the graph runs their nodes one at a time)."""


def build_roles(models: dict[str, Any]) -> TeamRoles:
    """The six roles over their role models."""
    return TeamRoles(
        observer=Observer("observer", "observation", models["observer"]),
        simulator=Simulator("simulator", "dynamics", models["simulator"]),
        inductive=InductiveExplorer("inductive", "strategy", models["inductive"]),
        transductive=TransductiveExplorer("transductive", "probes", models["transductive"]),
        critic=Critic("critic", "critique", models["critic"]),
        leader=TeamLeader("leader", "leadership", models["leader"]),
    )


class LoggedModel:
    """Writes a calls.jsonl line for each call of a role model that does not log itself (symbolic)."""

    def __init__(self, model: RoleModel, calls: CallLog) -> None:
        self.model = model
        self.calls = calls
        self.name = model.name

    def respond(self, request: RoleRequest) -> RoleReply:
        """Answer through the wrapped model and log the call."""
        start = time.perf_counter()
        reply = self.model.respond(request)
        self.calls.append(CallRecord(request.role, request.task, self.name, reply.usage.model or self.name,
                                     latency_s=time.perf_counter() - start, ok=reply.ok, error=reply.error))
        return reply


def _logged(model: RoleModel, calls: CallLog) -> RoleModel:
    return LoggedModel(model, calls) if model.name == "symbolic" else model


class TeamAgent:
    """Plays through the step graph: commit the last outcome, observe, retrodict, maintain, ..., act."""

    name = "team"
    handles_game_over = True

    def __init__(self, seed: int = 0, run_dir: str | Path | None = None, backends: BackendConfig | None = None,
                 seed_workspace: str = "default", policy: str = "gate", checkpoint: bool = True,
                 scorers: ScorerSet | str | None = None) -> None:
        self.seed = seed
        self.temporary = run_dir is None
        """Without a run directory (e.g. in `dreamteam bench`) the team works in a temp dir removed at close."""
        self.run_dir = Path(run_dir) if run_dir else Path(tempfile.mkdtemp(prefix="dreamteam-run-"))
        self.backends = backends or load_backend_config("symbolic")
        self.seed_workspace = seed_workspace
        self.policy = policy
        self.use_checkpoint = checkpoint
        self.scorers = scorers if isinstance(scorers, ScorerSet) else ScorerSet.load(scorers)
        """The tactic scorers (a spec is loaded here, before any game starts: ScorerError when one cannot be)."""
        self.state: StepState = {}
        self.graph: StepGraph | None = None
        self.logic: TeamLogic | None = None
        self.calls: CallLog | None = None
        self.resend: dict[str, Any] | None = None
        self.node_timings: dict[str, list[float]] = {}

    def begin(self, info: GameInfo, budget: int) -> None:
        """Create the workspace from its seed, start the sandbox, build the role models and the graph."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        workspace = Workspace.create(self.run_dir / WORKSPACE_DIR, seed_path(self.seed_workspace))
        self._build(workspace, budget)

    def resume(self, info: GameInfo, budget: int, state: StepState | None) -> None:
        """Continue a killed session: reopen the workspace (already rolled back to `state`'s last commit)."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        workspace = Workspace.open(self.run_dir / WORKSPACE_DIR)
        self._build(workspace, budget)
        if state:
            self.state = dict(state)  # type: ignore[assignment]
            self.resend = self.state.get("action") if self.state.get("pending") else None

    def _build(self, workspace: Workspace, budget: int) -> None:
        self.calls = CallLog(self.run_dir / CALLS)
        models = {role: _logged(model, self.calls) for role, model in build_role_models(self.backends, self.calls).items()}
        world = SandboxWorldModel()
        self.logic = TeamLogic(workspace, world, SandboxLifecycle(world.sandbox, self.policy), build_roles(models),
                               budget=budget, seed=self.seed, scorers=self.scorers)
        saver = sqlite_checkpointer(self.run_dir / CHECKPOINT) if self.use_checkpoint else None
        self.graph = StepGraph(self.logic, saver, concurrency=None if self.waits_on_models() else 1)
        self.state = {"step": 0, "level": 0, "pending": None, "plan": [], "recent_hits": [], "feedback": {}}

    def waits_on_models(self) -> bool:
        """Whether some role's model answers from outside this process (a parallel branch then saves time)."""
        return any(role.backend not in IN_PROCESS for role in self.backends.roles)

    def act(self, obs: Observation) -> Action | None:
        """Run one step of the graph and return the action it chose."""
        assert self.graph is not None and self.logic is not None
        if self.resend is not None:
            self.logic.mem.obs = obs
            return self._resend(obs)
        pending = self.state.get("pending") or {}
        if any(str(n).startswith("reset-refused") for n in obs.notes) and \
                Action.from_json(pending.get("action") or {"action": "RESET"}).id == RESET:
            # the harness did not send our RESET (the level had just begun): nothing happened, nothing to commit
            self.state = {**self.state, "pending": None, "plan": [], "step": obs.step}
        self.logic.arrive(obs, self.state)
        self.state = self.graph.step(self.state)
        action = self.state.get("action")
        return Action.from_json(action) if action else None

    def _resend(self, obs: Observation) -> Action:
        """After a resume: send again the action chosen before the kill (it was not committed)."""
        assert self.logic is not None and self.resend is not None
        action = Action.from_json(self.resend)
        prediction = self.logic.world.predict(obs.grid, dict(self.state.get("history_before") or {}), action)
        self.logic.mem.predicted, self.logic.mem.prediction_error = prediction.grid, prediction.error
        self.logic.mem.before = obs.grid
        self.state = {**self.state, "pending": {"step": obs.step, "action": self.resend}, "step": obs.step + 1}
        self.resend = None
        return action

    def end(self, obs: Observation) -> None:
        """Commit the last step's outcome and stop the sandbox."""
        if self.logic is None:
            return
        self.node_timings = dict(self.graph.context.timings) if self.graph else {}
        try:
            if self.state.get("pending"):
                self.logic.mem.obs = obs
                self.state = {**self.state, **self.logic.commit(self.state)}
        finally:
            self.close()

    def close(self) -> None:
        """Release the sandbox worker and the workspace."""
        if self.logic is not None:
            self.logic.world.close()
            self.logic.ws.close()
            self.logic = None
        if self.temporary:
            shutil.rmtree(self.run_dir, ignore_errors=True)

    def totals(self) -> dict[str, Any]:
        """Model-call totals for run.json."""
        return self.calls.totals() if self.calls else {}
