"""Dynamics patches that pass the regression replay and misbehave later, as scripts for the scripted backend."""

from __future__ import annotations

import json
from pathlib import Path

_HEAD = '''"""Dynamics: nothing changes for five calls; from the sixth call, {what}."""

HYPOTHESES = []
dyn_CALLS = [0]
dyn_HOARD = []


def dyn_deep(n):
    """Recurse without end."""
    return dyn_deep(n + 1) + 1


def history(z, h, a):
    """History unchanged."""
    return h


def predict(z, h, a):
    """The state unchanged for five calls, then {what}."""
    dyn_CALLS[0] += 1
    if dyn_CALLS[0] > 5:
{body}
    return z
'''

BODIES = {
    "hang": ("it loops forever", "        while True:\n            pass"),
    "allocate": ("it allocates without bound",
                 "        while True:\n            dyn_HOARD.append([dyn_CALLS[0]] * 100000)"),
    "recurse": ("it recurses without bound", "        return dyn_deep(0)"),
}
"""Each misbehaviour: (what it does, the body that does it)."""


def faulty_dynamics(kind: str) -> str:
    """A dynamics.py that is right (on a still frame) for five calls and then `kind`s."""
    what, body = BODIES[kind]
    return _HEAD.format(what=what, body=body)


def write_fault_script(path: Path, kind: str, n: int = 400) -> Path:
    """A script whose Simulator proposes the faulty dynamics once, then nothing."""
    script = {"simulator": [{"patch": faulty_dynamics(kind), "notes": kind}]
              + [{"patch": None, "notes": "no change"}] * n}
    path.write_text(json.dumps(script))
    return path
