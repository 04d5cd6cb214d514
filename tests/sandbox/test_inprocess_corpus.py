"""The hostile corpus in-process: refused at the same compile step, and nothing it does at run time gets out.

Also: compiling statement by statement (`incremental.py`) gives exactly the errors, warnings and line numbers
of compiling the whole module.
"""

from __future__ import annotations

import traceback
import types

import pytest

from dreamteam.sandbox import compile_artifact
from dreamteam.sandbox.incremental import compile_incremental
from dreamteam.sandbox.inprocess import (
    ArtifactCompileError,
    ArtifactFault,
    FaultJournal,
    InProcessLimits,
    load_guarded,
)
from dreamteam.sandbox.inprocess_guards import GuardedPolicy
from dreamteam.sandbox.policy import ArtifactPolicy
from dreamteam.sandbox.worker import decode_args
from tests.sandbox.escape_corpus import CORPUS, Hostile

LIMITS = InProcessLimits(time_s=0.5, memory_bytes=320 << 20, print_bytes=64 * 1024)
RUNTIME = [h for h in CORPUS if h.stage in ("load", "call") and h.id != "huge-result"]
"""In-process a returned value is not serialised, so it has no size limit of its own (memory bounds it)."""


@pytest.mark.parametrize("hostile", CORPUS, ids=[h.id for h in CORPUS])
def test_statement_by_statement_compiles_as_the_whole_module(hostile: Hostile) -> None:
    whole = compile_artifact(hostile.source, "dynamics.py", policy=GuardedPolicy)
    worker = compile_artifact(hostile.source, "dynamics.py")
    assert (whole.ok, whole.errors) == (worker.ok, worker.errors), "the in-process policy refuses what the worker's does"
    parts, codes = compile_incremental(hostile.source, "dynamics.py", GuardedPolicy)
    assert (parts.ok, parts.errors, parts.warnings) == (whole.ok, whole.errors, whole.warnings)
    assert bool(codes) == whole.ok
    if hostile.stage == "compile":
        assert parts.errors[0] == hostile.reason
    mine, worker_codes = compile_incremental(hostile.source, "dynamics.py", ArtifactPolicy)  # what the worker runs
    assert (mine.ok, mine.errors, mine.warnings) == (worker.ok, worker.errors, worker.warnings)
    assert bool(worker_codes) == worker.ok


def test_a_statement_compiled_under_one_policy_is_not_reused_under_the_other() -> None:
    source = "def dyn_f(x):\n    try:\n        return 1 // x\n    except ZeroDivisionError:\n        return 0\n"
    guarded = compile_incremental(source, "dynamics.py", GuardedPolicy)[1]
    plain = compile_incremental(source, "dynamics.py", ArtifactPolicy)[1]

    def names(code: object) -> set[str]:
        assert isinstance(code, types.CodeType)
        return set(code.co_names).union(*(names(c) for c in code.co_consts if isinstance(c, types.CodeType)))

    assert "_check_" in names(guarded[0]) and "_check_" not in names(plain[0])


@pytest.mark.parametrize("hostile", RUNTIME, ids=[h.id for h in RUNTIME])
def test_a_hostile_artifact_in_process_raises_and_returns_nothing(hostile: Hostile) -> None:
    args = decode_args(list(hostile.args)) if hostile.args is not None else [{}, {}, {"action": "ACTION1"}]
    with pytest.raises(Exception) as caught:  # noqa: PT011 - any refusal will do, as long as nothing returns
        module = load_guarded(hostile.source, "dynamics.py", LIMITS, FaultJournal())
        module.run(module.namespace["predict"], *args)
    if hostile.reason.startswith("killed:"):
        assert isinstance(caught.value, ArtifactFault | ArtifactCompileError), caught.value


def test_errors_in_later_statements_keep_their_line_numbers() -> None:
    source = ('"""Doc."""\n\nfrom __future__ import annotations\n\nX = [\n    1,\n]\n\n\n'
              "def dyn_f(d: dict) -> int:\n    return d['missing']\n")
    module = load_guarded(source, "dynamics.py", LIMITS, FaultJournal())
    with pytest.raises(KeyError) as caught:
        module.run(module.namespace["dyn_f"], {})
    frames = [f for f in traceback.extract_tb(caught.value.__traceback__) if f.filename == "dynamics.py"]
    assert [f.lineno for f in frames] == [11]
    assert module.namespace["dyn_f"].__annotations__ == {"d": "dict", "return": "int"}, "the future import holds"
    moved = compile_incremental("\n\n" + source.replace("'missing'", "missing"), "dynamics.py", GuardedPolicy)[0]
    assert moved.errors == ("line 13: name 'missing' is not defined",)
