"""Invoke the compiled step graph once per environment step."""

from __future__ import annotations

from typing import Any

from dreamteam.graph.build import RunContext, build_graph
from dreamteam.graph.state import StepLogic, StepState

THREAD = "team"


class StepGraph:
    """The compiled graph plus its checkpointer; `step(state)` runs one environment step's nodes."""

    def __init__(self, logic: StepLogic, checkpointer: Any = None, concurrency: int | None = None) -> None:
        self.graph = build_graph(checkpointer)
        self.context = RunContext(logic)
        self.checkpointer = checkpointer
        self.concurrency = concurrency
        """Most nodes run at once (None: every parallel branch). Threads help role models that wait on the
        network; in-process (CPU-bound) models gain nothing from them under the GIL and would slow each other,
        e.g. cut the Inductive Explorer's time-bounded search short, so such a team runs them one at a time."""

    def step(self, state: StepState) -> StepState:
        """Run the nodes of one step from `state`; the checkpointer stores the result (one write per step)."""
        config: dict[str, Any] = {"configurable": {"thread_id": THREAD}, "recursion_limit": 64}
        if self.concurrency is not None:
            config["max_concurrency"] = self.concurrency
        extra: dict[str, Any] = {"durability": "exit"} if self.checkpointer is not None else {}
        result: StepState = self.graph.invoke(state, config=config, context=self.context, **extra)
        return result
