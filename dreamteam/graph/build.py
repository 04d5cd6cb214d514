"""Build the compiled step graph: the harness steps and the six roles, each a node.

One graph invocation is one environment step. It starts by committing the previous step's outcome (the
environment is stepped by the play loop between invocations), so the cycle is
observe -> ... -> act -> [env.step] -> commit -> observe. After retrodict a slow step fans out: the Observer
and the Simulator (those the diff asks for) and the Transductive Explorer run in parallel; the harness's
review runs the maintainers' patches through the lifecycle; the Inductive Explorer then plans on the
reviewed world model while the Transductive Explorer's branch may still run; the Critic waits for both
explorers, then the Team Leader decides. The fast path: while a committed plan still has actions and the
last prediction held, retrodict goes straight to predict (no role node runs).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from dreamteam.graph.state import StepLogic, StepState, fast_path

HARNESS = ("commit", "observe", "retrodict", "review", "predict", "act")
ROLES = ("observer", "simulator", "inductive", "transductive", "critic", "leader")
NODES = HARNESS + ROLES


@dataclass
class RunContext:
    """Run dependencies reached by nodes through the runtime context, never through state."""

    logic: StepLogic
    timings: dict[str, list[float]] = field(default_factory=dict)
    """Seconds spent in each node, per call (for the team benchmark)."""


def _node(name: str) -> Any:
    def run(state: StepState, runtime: Runtime[RunContext]) -> StepState:
        start = time.perf_counter()
        result: StepState = getattr(runtime.context.logic, name)(state)
        runtime.context.timings.setdefault(name, []).append(time.perf_counter() - start)
        if name == "retrodict":
            # a new step: the merged channels start empty (the reducers would add to the last slow step's)
            fresh: dict[str, Any] = {"proposed": Overwrite({}), "patches": Overwrite([])}
            result = {**result, **fresh}  # type: ignore[typeddict-item]
        return result

    run.__name__ = name
    return run


def _entry(state: StepState) -> str:
    return "commit" if state.get("pending") else "observe"


def _after_retrodict(state: StepState, runtime: Runtime[RunContext]) -> list[str]:
    """The fast path, or the slow step's first parallel branches."""
    if fast_path(state):
        return ["predict"]
    maintainers = runtime.context.logic.maintainers(state)
    return [*maintainers, "transductive"] if maintainers else ["inductive", "transductive"]


def build_graph(checkpointer: Any = None) -> Any:
    """Compile the step graph (optionally with a checkpointer)."""
    graph: StateGraph[StepState, RunContext, StepState, StepState] = StateGraph(StepState, context_schema=RunContext)
    for name in NODES:
        graph.add_node(name, _node(name))
    graph.add_conditional_edges(START, _entry, {"commit": "commit", "observe": "observe"})
    graph.add_edge("commit", "observe")
    graph.add_edge("observe", "retrodict")
    branches = ("predict", "observer", "simulator", "inductive", "transductive")
    graph.add_conditional_edges("retrodict", _after_retrodict, {b: b for b in branches})
    for a, b in (("observer", "review"), ("simulator", "review"), ("review", "inductive"), ("critic", "leader"),
                 ("leader", "predict"), ("predict", "act")):
        graph.add_edge(a, b)
    graph.add_edge(["inductive", "transductive"], "critic")
    graph.add_edge("act", END)
    return graph.compile(checkpointer=checkpointer)


def mermaid() -> str:
    """The compiled graph drawn as mermaid text."""
    text: str = build_graph().get_graph().draw_mermaid()
    return text
