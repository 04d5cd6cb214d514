"""The compiled step graph: its mermaid drawing is a snapshot; the six roles are nodes, the explorers and the
maintainers run as parallel branches, and the fast path skips every role node."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from dreamteam.graph.build import HARNESS, NODES, ROLES, mermaid
from dreamteam.graph.runner import StepGraph
from dreamteam.graph.state import StepState

SNAPSHOT = Path(__file__).with_name("step_graph.mmd")


def test_mermaid_snapshot() -> None:
    assert mermaid().strip() == SNAPSHOT.read_text().strip(), "graph changed: regenerate with `dreamteam graph`"


def test_the_drawing_names_the_six_roles_and_the_harness_steps() -> None:
    text = mermaid()
    for name in ROLES + HARNESS:
        assert f"\t{name}({name})" in text
    for a, b in (("observer", "review"), ("simulator", "review"), ("review", "inductive"),
                 ("inductive", "critic"), ("transductive", "critic"), ("critic", "leader")):
        assert f"{a} --> {b};" in text


class Recorder:
    """Step logic that records which nodes ran, and when."""

    def __init__(self, hit: bool | None, maintainers: tuple[str, ...] = (), pause: float = 0.0,
                 barrier: threading.Barrier | None = None) -> None:
        self.ran: list[str] = []
        self.spans: dict[str, tuple[float, float]] = {}
        self.hit = hit
        self.wanted = list(maintainers)
        self.pause = pause
        self.barrier = barrier

    def maintainers(self, state: StepState) -> list[str]:
        return list(self.wanted)

    def __getattr__(self, name: str) -> Any:
        if name not in NODES:
            raise AttributeError(name)

        def node(state: StepState) -> StepState:
            began = time.perf_counter()
            self.ran.append(name)
            if name in ROLES and self.pause:
                time.sleep(self.pause)
            if self.barrier is not None and name in ("observer", "simulator", "transductive"):
                self.barrier.wait(timeout=5)
            self.spans[name] = (began, time.perf_counter())
            if name == "commit":
                return {"pending": None, "hit": self.hit, "components": []}
            if name == "act":
                plan = list(state.get("plan") or [{"action": "ACTION1"}])
                return {"action": plan[0], "plan": plan[1:], "pending": {"step": 0, "action": plan[0]}}
            if name == "leader":
                return {"plan": [{"action": "ACTION1"}, {"action": "ACTION2"}], "proposed": {name: "a plan"}}
            if name in ROLES:
                return {"proposed": {name: "something"}}
            return {}

        return node


def test_first_step_runs_every_role_node() -> None:
    rec = Recorder(hit=None, maintainers=("observer", "simulator"))
    out = StepGraph(rec).step({"pending": None, "plan": []})
    assert rec.ran[:2] == ["observe", "retrodict"] and rec.ran[-3:] == ["leader", "predict", "act"]
    assert sorted(rec.ran) == sorted(NODES[1:])
    assert sorted(out["proposed"]) == sorted(ROLES)  # the reducer merged every role's write
    order = rec.ran.index
    assert order("review") > max(order("observer"), order("simulator")) and order("inductive") > order("review")
    assert order("critic") > max(order("inductive"), order("transductive"))


def test_without_maintainers_the_explorers_start_together() -> None:
    rec = Recorder(hit=False)
    StepGraph(rec).step({"pending": None, "plan": []})
    assert "observer" not in rec.ran and "simulator" not in rec.ran and "review" not in rec.ran
    assert set(rec.ran[2:4]) == {"inductive", "transductive"}


def test_the_maintainers_and_the_transductive_explorer_run_concurrently() -> None:
    # the three wait for each other at a barrier: run one after another, they would time out
    rec = Recorder(hit=None, maintainers=("observer", "simulator"), barrier=threading.Barrier(3))
    StepGraph(rec).step({"pending": None, "plan": []})
    assert {"observer", "simulator", "transductive", "critic"} <= set(rec.ran)


def test_parallel_branches_cut_the_sequential_role_time() -> None:
    rec = Recorder(hit=None, maintainers=("observer", "simulator"), pause=0.3)
    began = time.perf_counter()
    StepGraph(rec).step({"pending": None, "plan": []})
    took = time.perf_counter() - began
    # six role calls of 0.3 s: 1.8 s one after another, 1.2 s along the longest path
    assert 1.2 <= took < 1.6, took


def test_a_step_starts_with_empty_merged_channels() -> None:
    rec = Recorder(hit=False)
    state: StepState = {"pending": None, "plan": [], "proposed": {"observer": "old"},
                        "patches": [{"surface": "dynamics", "accepted": True, "reason": "old"}]}
    out = StepGraph(rec).step(state)
    assert "observer" not in out["proposed"] and out["patches"] == []


def test_fast_path_while_the_plan_holds_and_predictions_hit() -> None:
    rec = Recorder(hit=True)
    StepGraph(rec).step({"pending": {"step": 0, "action": {"action": "ACTION1"}}, "plan": [{"action": "ACTION2"}]})
    assert rec.ran == ["commit", "observe", "retrodict", "predict", "act"]


def test_a_miss_leaves_the_fast_path() -> None:
    rec = Recorder(hit=False)
    StepGraph(rec).step({"pending": {"step": 0, "action": {"action": "ACTION1"}}, "plan": [{"action": "ACTION2"}]})
    assert "inductive" in rec.ran and "leader" in rec.ran


def test_a_concurrency_of_one_runs_the_branches_one_at_a_time() -> None:
    rec = Recorder(hit=None, maintainers=("observer", "simulator"), pause=0.3)
    began = time.perf_counter()
    StepGraph(rec, concurrency=1).step({"pending": None, "plan": []})
    assert time.perf_counter() - began >= 1.8
    spans = sorted(rec.spans.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), "no two nodes overlapped"
