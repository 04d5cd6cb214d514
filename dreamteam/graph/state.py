"""Graph state: small JSON-able values only (frames, workspace and models live in the run context).

Nodes that run in parallel (the Observer and the Simulator, the two explorers) write disjoint keys of the
reducer-merged channels `proposed` and `patches`; the harness's retrodict node starts each slow step with an
`Overwrite` of both, so they hold one step's writes.
"""

from __future__ import annotations

from typing import Annotated, Any, Protocol, TypedDict

SURFACE_ORDER = {"observation": 0, "dynamics": 1, "strategy": 2}
"""The order in which a step's patches go through the lifecycle (and are listed)."""


def merge_proposed(old: dict[str, str], new: dict[str, str]) -> dict[str, str]:
    """Reducer of `proposed`: the roles that ran this step, each with a one-line summary of what it produced."""
    return {**old, **new}


def merge_patches(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reducer of `patches`: the step's patch outcomes, in surface order whatever order the writers finished."""
    return sorted([*old, *new], key=lambda p: SURFACE_ORDER.get(str(p.get("surface")), len(SURFACE_ORDER)))


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
    proposed: Annotated[dict[str, str], merge_proposed]
    patches: Annotated[list[dict[str, Any]], merge_patches]
    action: dict[str, Any] | None
    committed: int
    history: dict[str, Any]
    history_before: dict[str, Any]
    level_changed: bool


def fast_path(state: StepState) -> bool:
    """Whether the step skips the role nodes: a committed plan goes on and its last prediction held."""
    return bool(state.get("plan") and state.get("hit") and not state.get("components"))


class StepLogic(Protocol):
    """What the graph's nodes delegate to: one method per node, each `state -> partial state`."""

    def commit(self, state: StepState) -> StepState:
        """Commit the previous step's outcome to the workspace."""

    def observe(self, state: StepState) -> StepState:
        """Parse the current frame with the observation surface."""

    def retrodict(self, state: StepState) -> StepState:
        """Diff the committed prediction with what happened, split into components."""

    def maintainers(self, state: StepState) -> list[str]:
        """The maintaining roles this slow step needs ("observer", "simulator"; maybe none)."""

    def observer(self, state: StepState) -> StepState:
        """The Observer proposes a new observation surface (observable.py)."""

    def simulator(self, state: StepState) -> StepState:
        """The Simulator proposes a new dynamics surface (dynamics.py)."""

    def review(self, state: StepState) -> StepState:
        """The maintainers' patches go through the patch lifecycle, observation first; peer feedback is routed."""

    def inductive(self, state: StepState) -> StepState:
        """The Inductive Explorer proposes tactics (from rollouts) and maybe a strategy patch."""

    def transductive(self, state: StepState) -> StepState:
        """The Transductive Explorer proposes probes."""

    def critic(self, state: StepState) -> StepState:
        """The Critic audits the proposals and routes feedback."""

    def leader(self, state: StepState) -> StepState:
        """The Team Leader picks a plan (a tactic or a probe)."""

    def predict(self, state: StepState) -> StepState:
        """Commit a prediction for the next action before it is sent."""

    def act(self, state: StepState) -> StepState:
        """Emit the next action."""
