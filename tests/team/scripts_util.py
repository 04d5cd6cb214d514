"""Scripts for the scripted backend: fixed, schema-valid replies for every role."""

from __future__ import annotations

import json
from pathlib import Path

MOVES = ["ACTION1", "ACTION4", "ACTION2", "ACTION3", "ACTION4", "ACTION4", "ACTION2"]


def write_script(path: Path, n: int = 400) -> Path:
    """A script with `n` replies per role; the leader walks a fixed cycle of moves two at a time."""
    script = {
        "observer": [{"patch": None, "notes": "no change"}] * n,
        "simulator": [{"patch": None, "notes": "no change"}] * n,
        "inductive": [{"patch": None, "notes": "", "tactics": []}] * n,
        "transductive": [{"probes": [{"actions": [{"action": "ACTION1"}], "expected_effect": "moves",
                                      "target_hypothesis": "ACTION1 moves the player"}], "notes": ""}] * n,
        "critic": [{"flags": [], "feedback": {}, "notes": ""}] * n,
        "leader": [{"goal": "DISCOVER", "plan": [{"action": MOVES[i % len(MOVES)]},
                                                {"action": MOVES[(i + 1) % len(MOVES)]}],
                    "source": "script", "confidence": 0.5, "reason": "scripted"} for i in range(n)],
    }
    path.write_text(json.dumps(script))
    return path
