"""The in-process route for artifact code: RestrictedPython compile, the worker's guards, hard limits."""

from __future__ import annotations

import resource
import threading
import time

import pytest

from dreamteam.sandbox.inprocess import (
    ArtifactCompileError,
    ArtifactFault,
    FaultJournal,
    GuardedModule,
    InProcessLimits,
    load_guarded,
)
from dreamteam.sandbox.watchdog import MEMORY

LIMITS = InProcessLimits(time_s=0.5, memory_bytes=256 << 20, print_bytes=1000)
PATIENT = InProcessLimits(time_s=8.0, memory_bytes=256 << 20, print_bytes=1000)
"""For the memory and recursion cases: their limit must end them, not the clock."""

RUNAWAY = {
    "loop": ("def f():\n    while True:\n        pass\n", "timeout after 0.5s"),
    "bare except swallows": (
        "def f():\n    while True:\n        try:\n            while True:\n                pass\n"
        "        except:\n            pass\n", "timeout after 0.5s"),
    "finally continues": (
        "def f():\n    while True:\n        try:\n            while True:\n                pass\n"
        "        finally:\n            continue\n", "timeout after 0.5s"),
    "allocation": ("def f():\n    x = []\n    while True:\n        x.append([0] * 100000)\n", "memory limit"),
    "one huge allocation": ("def f():\n    return [0] * (1 << 40)\n", "memory limit"),
    "memory error swallowed": (
        "def f():\n    x = []\n    while True:\n        try:\n            x.append([0] * 100000)\n"
        "        except Exception:\n            x = []\n", "memory limit"),
    "recursion": ("def f():\n    return f()\n", "recursion limit"),
    "recursion swallowed": (
        "def f():\n    try:\n        return f()\n    except RuntimeError:\n        return 0\n", "recursion limit"),
    "endless count in C": ("import itertools\n\ndef f():\n    return sum(itertools.count())\n",
                           "timeout after 0.5s"),
    "product in C": ("from itertools import product\n\ndef f():\n    return max(product(range(10**3), repeat=6))\n",
                     "timeout after 0.5s"),
    "printing": ("def f():\n    while True:\n        print('x' * 100)\n", "output limit"),
}


def _load(source: str, journal: FaultJournal | None = None, limits: InProcessLimits = LIMITS) -> GuardedModule:
    return load_guarded(source, "dynamics.py", limits, journal or FaultJournal())


@pytest.mark.parametrize("case", sorted(RUNAWAY))
def test_a_runaway_call_ends_with_a_fault_and_poisons_the_module(case: str) -> None:
    source, reason = RUNAWAY[case]
    journal = FaultJournal()
    module = _load(source, journal, LIMITS if reason.startswith("timeout") else PATIENT)
    f = module.namespace["f"]
    started = time.monotonic()
    with pytest.raises(ArtifactFault) as caught:
        module.run(f)
    assert caught.value.reason == reason
    assert time.monotonic() - started < 5
    assert journal.reason(source) == f"dynamics.py: {reason}"
    assert module.namespace == {}, "a poisoned module's globals are dropped"
    started = time.monotonic()
    with pytest.raises(ArtifactFault):
        module.run(f)
    assert time.monotonic() - started < 0.05, "a poisoned module is not called again"


def _relaxed() -> None:
    deadline = time.monotonic() + 3
    while MEMORY.bound and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not MEMORY.bound


def test_the_memory_bound_is_lifted_as_soon_as_guarded_calls_stop() -> None:
    # a process started between two guarded calls (git, a browser) must not inherit the lowered bound
    _relaxed()
    before = resource.getrlimit(resource.RLIMIT_AS)
    module = _load("def f(x):\n    return x + 1\n")
    seen: list[tuple[int, int]] = []
    MEMORY.enter(LIMITS.memory_bytes)
    seen.append(resource.getrlimit(resource.RLIMIT_AS))
    MEMORY.leave()
    assert seen[0][0] != resource.RLIM_INFINITY and (before[0] == resource.RLIM_INFINITY or seen[0][0] <= before[0])
    assert module.run(module.namespace["f"], 1) == 2
    assert resource.getrlimit(resource.RLIMIT_AS) == before and not MEMORY.bound


def test_good_calls_return_and_ordinary_errors_pass_through() -> None:
    module = _load("import math\n\ndef f(x):\n    return {'y': math.floor(x)}\n\ndef g(d):\n    return d['missing']\n")
    assert module.run(module.namespace["f"], 2.5) == {"y": 2}
    with pytest.raises(KeyError):
        module.run(module.namespace["g"], {})
    assert module.run(module.namespace["f"], 1.0) == {"y": 1}, "an artifact's own error does not poison it"


def test_the_sandbox_policy_applies() -> None:
    with pytest.raises(ArtifactCompileError, match="import of 'os' is not allowed"):
        _load("import os\n")
    with pytest.raises(ArtifactCompileError, match="invalid attribute name"):
        _load("def f(x):\n    return x.__class__\n")
    guarded = _load("def f(s):\n    return s.format\n")
    with pytest.raises(AttributeError, match="str.format is not allowed"):
        guarded.run(guarded.namespace["f"], "{0}")


def test_a_top_level_that_hangs_is_a_fault_and_a_journaled_source_is_refused_at_once() -> None:
    journal = FaultJournal()
    source = "x = 0\nwhile True:\n    x = x + 1\n"
    with pytest.raises(ArtifactFault, match="timeout"):
        _load(source, journal)
    started = time.monotonic()
    with pytest.raises(ArtifactFault, match="timeout"):
        _load(source, journal)
    assert time.monotonic() - started < 0.05


def test_calls_in_other_threads_are_limited_on_their_own() -> None:
    hang = _load(RUNAWAY["loop"][0])
    fine = _load("def f(n):\n    t = 0\n    for i in range(n):\n        t = t + i\n    return t\n")
    results: dict[str, object] = {}

    def run_hang() -> None:
        try:
            hang.run(hang.namespace["f"])
        except ArtifactFault as exc:
            results["hang"] = exc.reason

    thread = threading.Thread(target=run_hang)
    thread.start()
    for _ in range(200):
        results["fine"] = fine.run(fine.namespace["f"], 1000)
    thread.join(timeout=5)
    assert results == {"hang": "timeout after 0.5s", "fine": 499500}
    assert fine.run(fine.namespace["f"], 10) == 45, "the other thread's interrupt never reaches this one"


def test_c_level_loops_that_could_not_be_interrupted_are_refused() -> None:
    module = _load("def f():\n    return sum(range(10**15))\n\ndef g():\n    return sum(iter(int, 1))\n")
    with pytest.raises(TypeError, match="not available in artifacts"):
        module.run(module.namespace["g"])
    with pytest.raises(ArtifactFault, match=r"range limit \(1000000000000000 items; at most 50000000\)"):
        module.run(module.namespace["f"])
