"""World-model pipelines in one worker request: round trip and predicted frame."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dreamteam.sandbox import Sandbox, predict_request, roundtrip_request

SEED = Path(__file__).resolve().parents[2] / "seeds" / "default"
MOVE_RIGHT = '''
HYPOTHESES = []


def history(z, h, a):
    """Count the steps."""
    return {"steps": h.get("steps", 0) + 1}


def predict(z, h, a):
    """Every object moves one cell right on ACTION4."""
    if a["action"] != "ACTION4":
        return z
    out = dict(z)
    out["objects"] = [dict(o, cells=[[c[0] + 1, c[1]] for c in o["cells"]]) for o in z["objects"]]
    return out
'''


def _frame() -> np.ndarray:
    grid = np.zeros((64, 64), dtype=np.int8)
    grid[10, 10] = 9
    return grid


def test_roundtrip_and_predict_frame() -> None:
    with Sandbox() as sb:
        assert sb.load("observation", (SEED / "observable.py").read_text()).ok
        assert sb.load("dynamics", MOVE_RIGHT).ok
        assert sb.roundtrip("observation", _frame()).value == 0
        result = sb.predict_frame("observation", "dynamics", _frame(), {"steps": 2}, {"action": "ACTION4"})
        assert result.ok, result.reason
        assert result.value["history"] == {"steps": 3}
        rows = result.value["grid"]
        assert rows[10][11] == "9" and rows[10][10] == "0"


def test_predict_frame_reports_artifact_errors() -> None:
    with Sandbox() as sb:
        assert sb.load("observation", (SEED / "observable.py").read_text()).ok
        assert sb.load("dynamics", MOVE_RIGHT.replace('return z\n', 'return z["missing"]\n')).ok
        result = sb.predict_frame("observation", "dynamics", _frame(), {}, {"action": "ACTION1"})
        assert result.kind == "error" and "predict failed" in result.reason
        missing = sb.predict_frame("observation", "nope", _frame(), {}, {"action": "ACTION1"})
        assert missing.kind == "rejected" and "'nope' is not loaded" in missing.reason


def test_a_batch_answers_each_pipeline_in_order_and_each_failure_separately() -> None:
    with Sandbox() as sb:
        assert sb.load("observation", (SEED / "observable.py").read_text()).ok
        assert sb.load("dynamics", MOVE_RIGHT.replace('return z\n', 'return z["missing"]\n')).ok
        results = sb.batch([
            roundtrip_request("observation", _frame()),
            predict_request("observation", "dynamics", _frame(), {"steps": 0}, {"action": "ACTION4"}),
            predict_request("observation", "dynamics", _frame(), {}, {"action": "ACTION1"}),
        ])
        assert [r.kind for r in results] == ["ok", "ok", "error"]
        assert results[0].value == 0
        assert results[1].value["history"] == {"steps": 1} and results[1].value["grid"][10][11] == "9"
        assert "predict failed" in results[2].reason
        missing = sb.batch([roundtrip_request("nope", _frame())])
        assert missing[0].kind == "rejected" and "'nope' is not loaded" in missing[0].reason


def test_a_batch_holds_only_pipeline_requests() -> None:
    with Sandbox() as sb:
        assert sb.load("observation", (SEED / "observable.py").read_text()).ok
        load = {"op": "load", "name": "observation", "source": "x = 1", "filename": "observable.py"}
        results = sb.batch([load, roundtrip_request("observation", _frame())])
        assert results[0].kind == "rejected" and "cannot be batched" in results[0].reason
        assert results[1].ok and results[1].value == 0


def test_a_sent_batch_is_read_before_the_next_request_and_kept_for_its_owner() -> None:
    with Sandbox() as sb:
        assert sb.load("observation", (SEED / "observable.py").read_text()).ok
        assert sb.load("dynamics", MOVE_RIGHT).ok
        pending = sb.send_batch([predict_request("observation", "dynamics", _frame(), {}, {"action": "ACTION4"})])
        direct = sb.predict_frame("observation", "dynamics", _frame(), {"steps": 5}, {"action": "ACTION4"})
        assert direct.ok and direct.value["history"] == {"steps": 6}
        first = pending.results()[0]
        assert first.ok and first.value["history"] == {"steps": 1}
        left = sb.send_batch([roundtrip_request("observation", _frame())])
    assert left.results()[0].kind == "killed" and "closed" in left.results()[0].reason
