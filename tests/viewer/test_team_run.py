"""A real team run end to end: it replays, and the viewer shows what its step commits say."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.env.replay import load_recording
from dreamteam.viewer.model import build_view
from dreamteam.viewer.page import render_page
from dreamteam.workspace import Workspace
from tests.replay.helpers import run_cli
from tests.viewer.browser import DevTools, chromium_binary

BINARY = chromium_binary()


def test_team_run_replays(real_team_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["replay", str(real_team_run)]) == 0
    assert capsys.readouterr().out.startswith("OK tiny-v1:")


def test_view_matches_the_step_commits(real_team_run: Path) -> None:
    view = build_view(load_recording(real_team_run / "recording.jsonl"), real_team_run)
    assert view["has_workspace"] and view["warnings"] == []
    with Workspace.open(real_team_run / "workspace") as ws:
        log = {entry.step: entry for entry in ws.log()}
    assert sorted(log) == [record["step"] for record in view["steps"]]
    for record in view["steps"]:
        info, entry = record["ws"], log[record["step"]]
        assert info["action"] == record["action"] == entry.action and "action_mismatch" not in info
        assert [(p["surface"], p["verdict"]) for p in info["patches"]] == list(entry.patches)
        assert info["prediction"] == entry.prediction and info["wrong_cells"] == entry.wrong_cells
        assert info.get("observed_matches", True) is True
        assert info["decision"] is not None
    assert any("dynamics.py" in record["ws"]["diff"] for record in view["steps"])


@pytest.mark.skipif(BINARY is None, reason="no chromium binary found (run scripts/install_chromium.sh)")
def test_page_lists_the_patches_of_a_step(real_team_run: Path, tmp_path: Path) -> None:
    assert BINARY is not None
    view = build_view(load_recording(real_team_run / "recording.jsonl"), real_team_run)
    step = next(r["step"] for r in view["steps"] if r["ws"]["patches"])
    page = tmp_path / "team.html"
    page.write_text(render_page(view))
    with DevTools(BINARY) as browser:
        browser.open(page.resolve().as_uri() + f"#step={step}")
        shown = browser.evaluate("Array.from(document.querySelectorAll('#patch-list li[data-surface]'))"
                                 ".map((li) => [li.dataset.surface, li.dataset.verdict])")
    assert shown == [[p["surface"], p["verdict"]] for p in view["steps"][step]["ws"]["patches"]]
