"""The worker process: load, call, limits, restarts, isolation of the process environment."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from dreamteam.sandbox import Limits, Sandbox, timeout_reason
from tests.sandbox.conftest import DYNAMICS_OWNED, TEST_LIMITS

FEATURES = '''"""Ordinary artifact code: every construct here must keep working under the policy."""
from __future__ import annotations
import math
from collections import Counter, defaultdict, deque
from functools import lru_cache, reduce
from itertools import chain, product
import grid

HYPOTHESES = [{"name": "features", "description": "exercise the allowed language", "evidence": 0}]


@lru_cache(maxsize=None)
def dyn_fib(n):
    return n if n < 2 else dyn_fib(n - 1) + dyn_fib(n - 2)


def predict(z, h, a):
    counts = defaultdict(int)
    tally = Counter()
    for y, row in enumerate(z["frame"]):
        for x, value in enumerate(row):
            counts[value] += 1
            tally[value] += 1
    pairs = {}
    pairs["k"] = 1
    pairs["k"] *= 5
    totals = [0, 0]
    totals[1] += 7
    first, *rest = [1, 2, 3]
    queue = deque([1, 2])
    queue.append(3)
    print("counted", len(counts))
    return {
        "counts": {str(k): v for k, v in sorted(counts.items())},
        "same": dict(counts) == dict(tally),
        "pairs": pairs, "totals": totals, "rest": rest, "first": first,
        "queue": list(queue), "fib": dyn_fib(20), "sqrt": math.isqrt(17),
        "chain": list(chain([1], [2])), "product": len(list(product(range(3), repeat=2))),
        "reduce": reduce(lambda s, v: s + v, range(5), 0), "fstring": f"{a['action']!r}",
        "cells": grid.cells(z["frame"], 2), "canvas": grid.zeros(1, 2),
        "printed": printed,
    }
'''


def test_ordinary_language_features_work(sandbox: Sandbox) -> None:
    loaded = sandbox.load("features", FEATURES, owned=DYNAMICS_OWNED, helper_prefixes=("dyn_",), surface="dynamics")
    assert loaded.ok, loaded.reason
    assert loaded.names == ("Counter", "HYPOTHESES", "annotations", "chain", "defaultdict", "deque", "dyn_fib",
                            "grid", "lru_cache", "math", "predict", "product", "reduce")
    frame = np.array([[0, 2], [2, 1]], dtype=np.int8)
    result = sandbox.call("features", "predict", [{"frame": frame}, {}, {"action": "ACTION1"}])
    assert result.ok, result.reason
    assert result.value == {
        "counts": {"0": 1, "1": 1, "2": 2}, "same": True, "pairs": {"k": 5}, "totals": [0, 7], "rest": [2, 3],
        "first": 1, "queue": [1, 2, 3], "fib": 6765, "sqrt": 4, "chain": [1, 2], "product": 9, "reduce": 10,
        "fstring": "'ACTION1'", "cells": [[1, 0], [0, 1]], "canvas": [[0, 0]], "printed": "counted 3\n",
    }
    assert result.printed == "counted 3\n"


def test_load_refusals_come_back_as_data(sandbox: Sandbox) -> None:
    scoped = sandbox.load("x", "other = 1\n", owned=DYNAMICS_OWNED, surface="dynamics")
    assert scoped.kind == "rejected" and scoped.errors[0].startswith("line 1: 'other' is not a name")
    compiled = sandbox.load("x", "import os\n")
    assert compiled.kind == "rejected" and "import of 'os'" in compiled.reason
    raised = sandbox.load("x", "HYPOTHESES = 1 / 0\n")
    assert (raised.kind, raised.reason) == ("error", "ZeroDivisionError: division by zero (x.py line 1)")


def test_call_refusals_and_errors(sandbox: Sandbox) -> None:
    assert sandbox.load("calls", "def predict(z, h, a):\n    return {1, 2}\n\ndef boom(x):\n    return x['missing']\n").ok
    assert sandbox.call("nowhere", "predict").reason == "artifact 'nowhere' is not loaded"
    assert sandbox.call("calls", "predictx").reason == "artifact 'calls' has no function 'predictx'"
    assert sandbox.call("calls", "predict", [object()]).kind == "rejected"
    not_json = sandbox.call("calls", "predict", [{}, {}, {}])
    assert not_json.kind == "error" and not_json.reason.startswith("ResultNotJSON: the result is not JSON-able")
    boom = sandbox.call("calls", "boom", [{}])
    assert (boom.kind, boom.reason) == ("error", "KeyError: 'missing' (calls.py line 5)")


SWALLOWS_TIMEOUTS = (
    "def predict(z, h, a):\n    while True:\n        try:\n            while True:\n                pass\n"
    "        except:\n            pass\n"
)


def test_a_soft_timeout_keeps_the_worker(sandbox: Sandbox) -> None:
    assert sandbox.load("spin", "def predict(z, h, a):\n    while True:\n        pass\n").ok
    pid = sandbox.start()
    spin = sandbox.call("spin", "predict", [{}, {}, {}])
    assert (spin.kind, spin.reason) == ("killed", timeout_reason(TEST_LIMITS.time_s))
    assert sandbox.worker_pid == pid


def test_a_hard_timeout_kill_restarts_the_worker_and_reloads_artifacts(sandbox: Sandbox) -> None:
    assert sandbox.load("steady", "def predict(z, h, a):\n    return z\n").ok
    assert sandbox.load("stuck", SWALLOWS_TIMEOUTS).ok
    pid, restarts = sandbox.start(), sandbox.restarts
    started = time.perf_counter()
    stuck = sandbox.call("stuck", "predict", [{}, {}, {}])
    assert (stuck.kind, stuck.reason) == ("killed", timeout_reason(TEST_LIMITS.time_s))
    assert time.perf_counter() - started < 2 * TEST_LIMITS.time_s + TEST_LIMITS.kill_grace_s + 1.0
    assert sandbox.call("steady", "predict", [{"a": 1}, {}, {}]).value == {"a": 1}
    assert sandbox.worker_pid != pid and sandbox.restarts == restarts + 1


def test_an_idle_worker_killed_from_outside_is_replaced_transparently(sandbox: Sandbox) -> None:
    assert sandbox.load("echo", "def predict(z, h, a):\n    return a\n").ok
    pid = sandbox.start()
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)
    assert sandbox.call("echo", "predict", [{}, {}, {"action": "ACTION2"}]).value == {"action": "ACTION2"}
    assert sandbox.worker_pid not in (None, pid)


def test_worker_runs_in_a_scratch_directory_without_the_parent_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DREAMTEAM_TEST_SECRET", "hunter2")
    with Sandbox(Limits(time_s=1.0), warm_spare=False) as box:
        pid = box.start()
        cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
        assert cwd.name.startswith("dreamteam-sandbox-") and cwd.is_dir()
        environ = Path(f"/proc/{pid}/environ").read_bytes()
        assert b"DREAMTEAM_TEST_SECRET" not in environ and b"PYTHONHASHSEED=0" in environ
        limits = Path(f"/proc/{pid}/limits").read_text()
        assert "Max address space" in limits and str(Limits().memory_bytes) in limits
    assert not cwd.exists()


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError):
        Limits(time_s=0)
    with pytest.raises(ValueError):
        Limits(memory_bytes=1 << 20)
    assert Limits.from_json(Limits().to_json()) == Limits()


def test_an_orphaned_worker_exits_even_when_stuck(tmp_path: Path) -> None:
    """A parent killed while its worker spins in a deadline-swallowing loop does not leave the worker behind."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import sys\n"
        "from dreamteam.sandbox import Limits, Sandbox\n"
        "box = Sandbox(Limits(time_s=60.0), warm_spare=False)\n"
        f"box.load('stuck', {SWALLOWS_TIMEOUTS!r})\n"
        "print(box.worker_pid, flush=True)\n"
        "box.call('stuck', 'predict', [{}, {}, {}])\n"
    )
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    worker_pid = int(parent.stdout.readline())
    time.sleep(0.3)
    parent.kill()
    parent.wait()
    status = Path(f"/proc/{worker_pid}/status")

    def gone() -> bool:  # exited (a zombie waiting for init counts as exited)
        try:
            return "State:\tZ" in status.read_text()
        except FileNotFoundError:
            return True

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not gone():
        time.sleep(0.1)
    assert gone()
