"""The sandbox: scope check, restricted compile, limited execution in a worker process, regression replay.

Layering: imports RestrictedPython, numpy and the standard library only. See docs/sandbox.md.
"""

from __future__ import annotations

from dreamteam.sandbox.decide import POLICIES, Counterexample, Decision, counterexamples, decide
from dreamteam.sandbox.incremental import check_compiles
from dreamteam.sandbox.limits import MEMORY_LIMIT, OUTPUT_LIMIT, RECURSION_LIMIT, Limits, timeout_reason
from dreamteam.sandbox.policy import CompileResult, compile_artifact
from dreamteam.sandbox.process import WorkerStartError
from dreamteam.sandbox.replay_plan import SURFACE_FILES
from dreamteam.sandbox.report import CellDiff, ReplayReport, TransitionRecord, Verdict, classify
from dreamteam.sandbox.sandbox import (
    CallResult,
    LoadResult,
    PendingBatch,
    Sandbox,
    predict_request,
    roundtrip_request,
)
from dreamteam.sandbox.scope import ScopeError, check_scope
from dreamteam.sandbox.wire import hex_rows

__all__ = [
    "MEMORY_LIMIT",
    "OUTPUT_LIMIT",
    "POLICIES",
    "RECURSION_LIMIT",
    "SURFACE_FILES",
    "CallResult",
    "CellDiff",
    "CompileResult",
    "Counterexample",
    "Decision",
    "Limits",
    "LoadResult",
    "PendingBatch",
    "ReplayReport",
    "Sandbox",
    "ScopeError",
    "TransitionRecord",
    "Verdict",
    "WorkerStartError",
    "check_compiles",
    "check_scope",
    "classify",
    "compile_artifact",
    "counterexamples",
    "decide",
    "hex_rows",
    "predict_request",
    "roundtrip_request",
    "timeout_reason",
]
