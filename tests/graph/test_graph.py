"""The compiled step graph: its mermaid drawing is a snapshot; the fast path skips the role nodes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dreamteam.graph.build import mermaid
from dreamteam.graph.runner import StepGraph
from dreamteam.graph.state import StepState

SNAPSHOT = Path(__file__).with_name("step_graph.mmd")
NODES = ("commit", "observe", "retrodict", "maintain", "propose", "critic", "lead", "predict", "act")


def test_mermaid_snapshot() -> None:
    assert mermaid().strip() == SNAPSHOT.read_text().strip(), "graph changed: regenerate with `dreamteam graph`"


class Recorder:
    """Step logic that records which nodes ran."""

    def __init__(self, hit: bool | None) -> None:
        self.ran: list[str] = []
        self.hit = hit

    def __getattr__(self, name: str) -> Any:
        if name not in NODES:
            raise AttributeError(name)

        def node(state: StepState) -> StepState:
            self.ran.append(name)
            if name == "commit":
                return {"pending": None, "hit": self.hit, "components": []}
            if name == "act":
                plan = list(state.get("plan") or [{"action": "ACTION1"}])
                return {"action": plan[0], "plan": plan[1:], "pending": {"step": 0, "action": plan[0]}}
            if name == "lead":
                return {"plan": [{"action": "ACTION1"}, {"action": "ACTION2"}]}
            return {}

        return node


def test_first_step_runs_every_role_node() -> None:
    rec = Recorder(hit=None)
    StepGraph(rec).step({"pending": None, "plan": []})
    assert rec.ran == ["observe", "retrodict", "maintain", "propose", "critic", "lead", "predict", "act"]


def test_fast_path_while_the_plan_holds_and_predictions_hit() -> None:
    rec = Recorder(hit=True)
    StepGraph(rec).step({"pending": {"step": 0, "action": {"action": "ACTION1"}}, "plan": [{"action": "ACTION2"}]})
    assert rec.ran == ["commit", "observe", "retrodict", "predict", "act"]


def test_a_miss_leaves_the_fast_path() -> None:
    rec = Recorder(hit=False)
    StepGraph(rec).step({"pending": {"step": 0, "action": {"action": "ACTION1"}}, "plan": [{"action": "ACTION2"}]})
    assert "maintain" in rec.ran and "lead" in rec.ran
