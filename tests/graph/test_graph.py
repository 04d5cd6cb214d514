"""The compiled step graph: its mermaid drawing is a snapshot; the fast path skips the role nodes; commit and
observe share a superstep."""

from __future__ import annotations

import threading
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
    assert sorted(rec.ran[:2]) == ["commit", "observe"]
    assert rec.ran[2:] == ["retrodict", "predict", "act"]


class Meeting(Recorder):
    """Step logic whose commit and observe each wait for the other: it finishes only if they run together."""

    def __init__(self) -> None:
        super().__init__(hit=True)
        self.barrier = threading.Barrier(2, timeout=10)

    def __getattr__(self, name: str) -> Any:
        node = super().__getattr__(name)
        if name not in ("commit", "observe"):
            return node

        def meet(state: StepState) -> StepState:
            self.barrier.wait()
            return node(state)

        return meet


def test_commit_and_observe_run_side_by_side() -> None:
    rec = Meeting()
    StepGraph(rec).step({"pending": {"step": 0, "action": {"action": "ACTION1"}}, "plan": [{"action": "ACTION2"}]})
    assert rec.ran[2:] == ["retrodict", "predict", "act"]


def test_a_miss_leaves_the_fast_path() -> None:
    rec = Recorder(hit=False)
    StepGraph(rec).step({"pending": {"step": 0, "action": {"action": "ACTION1"}}, "plan": [{"action": "ACTION2"}]})
    assert "maintain" in rec.ran and "lead" in rec.ran
