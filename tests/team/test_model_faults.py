"""A session whose model-backed Simulator meets every kind of bad answer survives it, and the call log says so.

The Simulator asks an OpenAI-compatible loopback server (tests/backends/fake_vendor.py) that answers, in order:
a rate limit and a server error, two timeouts, malformed JSON, bytes that are not UTF-8, an oversized reply,
and replies whose patch is huge, deeply nested, or holds text that cannot be written as UTF-8 (a lone
surrogate) in an otherwise valid dynamics.py. Every other role stays symbolic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamteam.cli import main
from dreamteam.workspace import Workspace
from tests.backends.fake_vendor import Canned, error_reply, openai_reply, running_vendor, truncated_reply

BUDGET = 40
VALID = '"""Dynamics."""\n\nHYPOTHESES = []\n\n\ndef predict(z, h, a):\n    """Nothing changes."""\n    return z\n'


def _patch(source: str) -> Canned:
    return openai_reply(arguments=json.dumps({"patch": source, "notes": "a patch"}))


def _answers() -> list[Canned]:
    return [
        error_reply(429, {"retry-after": "0"}), error_reply(500),
        Canned({"never": "sent in time"}, delay_s=2.0), Canned({"never": "sent in time"}, delay_s=2.0),
        truncated_reply(), truncated_reply(),
        Canned(b"\xff\xfe\x00not utf-8 \xc3\x28"), Canned(b"\xff\xfe\x00not utf-8 \xc3\x28"),
        openai_reply(arguments=json.dumps({"patch": None, "notes": "x" * (12 << 20)})),
        _patch("x = 1\n" * 200_000),
        _patch("HYPOTHESES = " + "[" * 50_000 + "]" * 50_000 + "\n"),
        _patch(VALID + "# \ud800 a lone surrogate\n"),
    ]


@pytest.mark.timeout(240)
def test_bad_model_answers_do_not_end_the_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    run = tmp_path / "run"
    with running_vendor() as vendor:
        vendor.push(*_answers())
        code = main(["play", "maze", "--budget", str(BUDGET), "--out", str(run), "--quiet",
                     "--backend", "simulator=openai", "--base-url", f"{vendor.url}/v1", "--model", "gpt-4.1-mini",
                     "--max-retries", "1", "--timeout", "1"])
        asked = len(vendor.received)
    err = capsys.readouterr().err
    assert code == 0, err
    assert asked >= len(_answers()), "every bad answer was served"
    with Workspace.open(run / "workspace") as ws:
        assert sorted(ws.steps()) == list(range(BUDGET))
        assert "\ud800" not in ws.read_surface("dynamics")
    calls = [json.loads(line) for line in (run / "calls.jsonl").read_text().splitlines()]
    failed = [c for c in calls if c.get("role") == "simulator" and not c.get("ok")]
    errors = " ".join(str(c.get("error")) for c in failed)
    assert len(failed) >= 4, calls
    assert "500" in failed[0]["error"] and failed[0]["retries"] == 1, "the 429 was retried, then the 500 ended it"
    assert "timed out" in errors.lower(), errors
    assert "not valid JSON" in errors, errors
    patched = [c for c in calls if c.get("role") == "simulator" and c.get("ok")]
    assert len(patched) >= 4, "the oversized reply and the three bad patches came back as answers"
    with Workspace.open(run / "workspace") as ws:
        messages = "\n".join(str(ws.repo.commit(sha).message) for sha in ws.steps().values())
    assert messages.count("dynamics (simulator): rejected") >= 3, messages
    assert main(["replay", str(run)]) == 0
