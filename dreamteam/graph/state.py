"""Graph state: small JSON-able values only (frames, workspace and models live in the run context)."""

from __future__ import annotations

from typing import Any, Protocol, TypedDict


class StepState(TypedDict, total=False):
    """What the graph carries from node to node and checkpoints between steps."""

    step: int
    level: int
    pending: dict[str, Any] | None
    plan: list[dict[str, Any]]
    plan_source: str
    goal: str
    hit: bool | None
    wrong_cells: int
    components: list[str]
    fast_path: bool
    recent_hits: list[int]
    feedback: dict[str, str]
    patches: list[dict[str, Any]]
    action: dict[str, Any] | None
    committed: int
    history: dict[str, Any]
    history_before: dict[str, Any]
    level_changed: bool


class StepLogic(Protocol):
    """What the graph's nodes delegate to: one method per node, each `state -> partial state`."""

    def commit(self, state: StepState) -> StepState:
        """Commit the previous step's outcome to the workspace."""

    def observe(self, state: StepState) -> StepState:
        """Parse the current frame with the observation surface."""

    def retrodict(self, state: StepState) -> StepState:
        """Diff the committed prediction with what happened, split into components."""

    def maintain(self, state: StepState) -> StepState:
        """Observer and Simulator patch their surfaces through the patch lifecycle."""

    def propose(self, state: StepState) -> StepState:
        """Inductive and Transductive Explorers propose tactics and probes."""

    def critic(self, state: StepState) -> StepState:
        """The Critic audits the proposals and routes feedback."""

    def lead(self, state: StepState) -> StepState:
        """The Team Leader picks a plan (a tactic or a probe)."""

    def predict(self, state: StepState) -> StepState:
        """Commit a prediction for the next action before it is sent."""

    def act(self, state: StepState) -> StepState:
        """Emit the next action."""
