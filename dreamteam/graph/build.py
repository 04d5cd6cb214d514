"""Build the compiled step graph: observe -> retrodict -> maintain -> propose -> critic -> lead -> predict -> act.

One graph invocation is one environment step. It starts by committing the previous step's outcome (the
environment is stepped by the play loop between invocations), so the cycle is
observe -> ... -> act -> [env.step] -> commit -> observe. The fast path: while a committed plan still has
actions and the last prediction held, retrodict goes straight to predict (no role-model calls).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from dreamteam.graph.state import StepLogic, StepState

NODES = ("commit", "observe", "retrodict", "maintain", "propose", "critic", "lead", "predict", "act")


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
        return result

    run.__name__ = name
    return run


def _entry(state: StepState) -> str:
    return "commit" if state.get("pending") else "observe"


def _after_retrodict(state: StepState) -> str:
    return "predict" if state.get("plan") and state.get("hit") and not state.get("components") else "maintain"


def build_graph(checkpointer: Any = None) -> Any:
    """Compile the step graph (optionally with a checkpointer)."""
    graph: StateGraph[StepState, RunContext, StepState, StepState] = StateGraph(StepState, context_schema=RunContext)
    for name in NODES:
        graph.add_node(name, _node(name))
    graph.add_conditional_edges(START, _entry, {"commit": "commit", "observe": "observe"})
    graph.add_edge("commit", "observe")
    graph.add_edge("observe", "retrodict")
    graph.add_conditional_edges("retrodict", _after_retrodict, {"predict": "predict", "maintain": "maintain"})
    for a, b in (("maintain", "propose"), ("propose", "critic"), ("critic", "lead"), ("lead", "predict"),
                 ("predict", "act")):
        graph.add_edge(a, b)
    graph.add_edge("act", END)
    return graph.compile(checkpointer=checkpointer)


def mermaid() -> str:
    """The compiled graph drawn as mermaid text."""
    text: str = build_graph().get_graph().draw_mermaid()
    return text
