"""The viewer page in headless Chromium: what it shows per step, #step=N, keys, slider, click marker.

Skipped only when no Chromium binary exists (scripts/install_chromium.sh installs Debian's). Screenshots go
to test-artifacts/ (ignored by git).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dreamteam.env.replay import Recording, load_recording
from dreamteam.viewer.model import build_view
from dreamteam.viewer.page import render_page
from tests.viewer.browser import DevTools, chromium_binary, dump_dom

BINARY = chromium_binary()
pytestmark = pytest.mark.skipif(BINARY is None, reason="no chromium binary found (set $CHROMIUM or run "
                                                       "scripts/install_chromium.sh); the browser tests need one")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

STATE_JS = """(() => {
  const cells = (id) => Array.from(document.getElementById(id).children).map((c) => c.className);
  const text = (id) => document.getElementById(id).textContent;
  return {step: text("step-no"), action: text("action-label"), level: text("level"), hash: location.hash,
          before: cells("grid-before"), after: cells("grid-after"), slider: document.getElementById("slider").value,
          patches: Array.from(document.querySelectorAll("#patch-list li[data-surface]"))
            .map((li) => [li.dataset.surface, li.dataset.verdict]),
          roles: Array.from(document.querySelectorAll("#team-rows tr")).map((tr) => [tr.dataset.role, tr.textContent]),
          prediction: (document.getElementById("prediction-verdict") || {dataset: {}}).dataset.verdict || null,
          hidden: ["team-block", "patches-section", "diff-section"].filter((id) => document.getElementById(id).hidden),
          diff: text("diff")};
})()"""


def _page(run: Path, tmp_path: Path) -> tuple[Recording, str]:
    recording = load_recording(run / "recording.jsonl")
    page = tmp_path / f"{run.name}.html"
    page.write_text(render_page(build_view(recording, run)))
    return recording, page.resolve().as_uri()


def _colours(recording: Recording, index: int) -> list[str]:
    grid = recording.entries[index].grid
    assert grid is not None
    return [f"c{v}" for v in grid.reshape(-1).tolist()]


def _check_frames(state: dict[str, Any], recording: Recording, step: int) -> None:
    assert state["step"] == str(step) and state["slider"] == str(step) and state["hash"] == f"#step={step}"
    assert state["action"] == recording.actions[step].action_label
    assert [c.split()[0] for c in state["before"]] == _colours(recording, step)
    assert [c.split()[0] for c in state["after"]] == _colours(recording, step + 1)
    before, after = recording.entries[step].grid, recording.entries[step + 1].grid
    assert before is not None and after is not None
    changed = [i for i, c in enumerate(state["after"]) if "chg" in c.split()]
    assert changed == [i for i, (a, b) in enumerate(zip(before.reshape(-1), after.reshape(-1), strict=True)) if a != b]


def test_fragment_opens_a_step_in_the_dumped_dom(team_run: Path, tmp_path: Path) -> None:
    assert BINARY is not None
    recording, url = _page(team_run, tmp_path)
    dom = dump_dom(BINARY, url + "#step=5")
    assert re.search(r'id="step-no">5<', dom)
    assert f'id="action-label" class="mono">{recording.actions[5].action_label}<' in dom
    level = recording.entries[5].levels_completed + 1
    assert re.search(rf'id="level">{level}( → \d+)?<', dom)
    grid = re.search(r'id="grid-after"[^>]*>(.*?)</div>', dom, re.S)
    assert grid is not None
    assert [c.split()[0] for c in re.findall(r'<i class="([^"]*)"', grid.group(1))] == _colours(recording, 6)


def test_keys_slider_and_hash_drive_the_page(team_run: Path, tmp_path: Path) -> None:
    assert BINARY is not None
    recording, url = _page(team_run, tmp_path)
    with DevTools(BINARY) as browser:
        browser.open(url + "#step=0")
        _check_frames(browser.evaluate(STATE_JS), recording, 0)
        for _ in range(3):
            browser.press("ArrowRight")
        state = browser.evaluate(STATE_JS)
        _check_frames(state, recording, 3)
        browser.press("ArrowLeft")
        state = browser.evaluate(STATE_JS)
        _check_frames(state, recording, 2)
        assert state["patches"] == [["strategy", "rejected"]] and state["prediction"] in ("hit", "miss")
        assert [role for role, _ in state["roles"]] == ["Observer", "Simulator", "Inductive Explorer",
                                                        "Transductive Explorer", "Critic", "Team Leader",
                                                        "Tactic scores"]
        assert f"probe {recording.actions[2].action_label}" in dict(state["roles"])["Team Leader"]
        scores = dict(state["roles"])["Tactic scores"]
        assert "frontier explorer #2 · combined 1" in scores and "reverse pick" in scores
        assert "level_up explorer #1 · combined none" in scores and "gated" in scores and "±0.9" in scores
        browser.press("ArrowLeft")
        state = browser.evaluate(STATE_JS)
        assert state["patches"] == [["dynamics", "accepted"]] and "+# step 1: the player moves" in state["diff"]
        assert "no tactics scored at this step" in dict(state["roles"])["Tactic scores"]
        browser.screenshot(ARTIFACTS / "viewer-team-step-1.png")
        browser.press("End")
        _check_frames(browser.evaluate(STATE_JS), recording, len(recording.actions) - 1)
        browser.press("Home")
        browser.press("PageDown")
        _check_frames(browser.evaluate(STATE_JS), recording, 10)
        browser.evaluate("(() => { const s = document.getElementById('slider'); s.value = 7;"
                         " s.dispatchEvent(new Event('input')); })()")
        _check_frames(browser.evaluate(STATE_JS), recording, 7)
        browser.evaluate("location.hash = '#step=12'")
        browser.wait_for("document.getElementById('step-no').textContent === '12'")
        _check_frames(browser.evaluate(STATE_JS), recording, 12)


def test_click_marker_and_run_without_workspace(click_run: Path, tmp_path: Path) -> None:
    assert BINARY is not None
    recording, url = _page(click_run, tmp_path)
    with DevTools(BINARY) as browser:
        browser.open(url + "#step=4")
        state = browser.evaluate(STATE_JS)
        _check_frames(state, recording, 4)
        x, y = recording.actions[4].data["x"], recording.actions[4].data["y"]
        marked = [i for i, c in enumerate(state["before"]) if "click" in c.split()]
        assert marked == [y * 64 + x] and "click" in state["after"][y * 64 + x]
        assert state["hidden"] == ["team-block", "patches-section", "diff-section"] and state["roles"] == []
        browser.screenshot(ARTIFACTS / "viewer-click-step-4.png")


def test_pages_without_an_initial_frame_or_without_actions(tmp_path: Path) -> None:
    from tests.replay.helpers import GAMES_DIR, agents_recording

    assert BINARY is not None
    agents = load_recording(agents_recording(tmp_path, GAMES_DIR / "flip", "flip-v1", actions=5))
    (tmp_path / "agents.html").write_text(render_page(build_view(agents, None)))
    first = json.loads(agents.path.read_text().splitlines()[0])
    first["data"]["action_input"]["id"] = "RESET"  # toolkit format: the line is the initial frame, no actions
    only_start = tmp_path / "flip-v1-g.jsonl"
    only_start.write_text(json.dumps(first) + "\n")
    start = load_recording(only_start)
    assert start.format == "toolkit" and start.actions == ()
    (tmp_path / "start.html").write_text(render_page(build_view(start, None)))
    with DevTools(BINARY) as browser:
        browser.open((tmp_path / "agents.html").resolve().as_uri() + "#step=0")
        state = browser.evaluate(STATE_JS)
        assert state["before"] == [] and state["action"] == "RESET"
        assert browser.evaluate("document.getElementById('grid-before').classList.contains('empty')")
        assert [c.split()[0] for c in state["after"]] == _colours(agents, 0)
        browser.open((tmp_path / "start.html").resolve().as_uri())
        state = browser.evaluate(STATE_JS)
        assert state["step"] == "0" and [c.split()[0] for c in state["after"]] == _colours(start, 0)
        assert state["before"] == [] and state["hash"] == "" and state["action"] == "(no actions recorded)"
