"""The team end to end through the CLI: one workspace commit per step, calls logged, replay cassettes."""

from __future__ import annotations

import json
from pathlib import Path

from dreamteam.cli import main
from dreamteam.workspace import Workspace
from tests.team.scripts_util import write_script

BUDGET = 24


def _play(run: Path, *extra: str) -> int:
    return main(["play", "maze", "--agent", "team", "--budget", str(BUDGET), "--out", str(run), "--quiet", *extra])


def _trees(run: Path) -> list[str]:
    with Workspace.open(run / "workspace") as ws:
        return [ws.repo.commit(sha).tree.hexsha for _, sha in sorted(ws.steps().items())]


def test_team_commits_once_per_step(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert _play(run, "--backend", "scripted", "--script", str(write_script(tmp_path / "s.json"))) == 0
    with Workspace.open(run / "workspace") as ws:
        assert sorted(ws.steps()) == list(range(BUDGET))
        assert all(e.action for e in ws.log())
        assert json.loads(ws.read_surface("leadership"))["decisions"]
    assert len((run / "recording.jsonl").read_text().splitlines()) == BUDGET + 1
    card = json.loads((run / "scorecard.json").read_text())
    assert card["environments"][0]["actions"] == BUDGET
    meta = json.loads((run / "run.json").read_text())
    assert meta["backends"]["leader"]["backend"] == "scripted" and meta["calls"]["calls"] > 0
    assert (run / "calls.jsonl").read_text().count("\n") == meta["calls"]["calls"]


def test_replay_cassette_reproduces_commits_and_scorecard(tmp_path: Path) -> None:
    script = str(write_script(tmp_path / "s.json"))
    cassette = str(tmp_path / "tape.jsonl")
    assert _play(tmp_path / "rec", "--backend", "record:scripted", "--script", script, "--cassette", cassette) == 0
    runs = [tmp_path / "a", tmp_path / "b"]
    for run in runs:
        assert _play(run, "--backend", "replay", "--cassette", cassette) == 0
    assert _trees(runs[0]) == _trees(runs[1]) == _trees(tmp_path / "rec")
    cards = [json.loads((r / "scorecard.json").read_text())["environments"] for r in runs]
    for env in cards:
        for run in env[0]["runs"]:
            run.pop("guid", None)
    assert cards[0] == cards[1]
