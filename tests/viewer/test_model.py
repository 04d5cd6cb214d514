"""The viewer's data model, built from real runs (with and without a workspace)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from dreamteam.env.replay import load_recording
from dreamteam.viewer.frames import decode_frames
from dreamteam.viewer.model import build_view
from dreamteam.viewer.workspace_steps import parse_body


def test_run_without_workspace(click_run: Path) -> None:
    recording = load_recording(click_run / "recording.jsonl")
    view = build_view(recording, click_run)
    assert view["has_workspace"] is False and view["warnings"] == []
    assert view["run"]["agent"] == "random" and view["run"]["game_id"] == "flip-v1"
    steps = view["steps"]
    assert len(steps) == 24 == len(recording.actions)
    for record, entry in zip(steps, recording.actions, strict=True):
        assert record["after"] == record["before"] + 1 == record["step"] + 1
        assert record["action"] == entry.action_label and (record["x"], record["y"]) == (entry.data["x"],
                                                                                          entry.data["y"])
    frames = decode_frames(view["frames"])
    assert all(np.array_equal(f, e.grid) for f, e in zip(frames, recording.entries, strict=True))
    assert sum(level["actions"] for level in view["levels"]) == 24
    assert len(view["levels"]) == 6 and view["levels"][0]["baseline"] == 1


def test_steps_count_changes_levels_and_events(team_run: Path) -> None:
    recording = load_recording(team_run / "recording.jsonl")
    view = build_view(recording, team_run)
    for record in view["steps"]:
        before, after = recording.entries[record["before"]].grid, recording.entries[record["after"]].grid
        assert record["changed"] == int(np.count_nonzero(before != after))
        assert record["level"] == recording.entries[record["before"]].levels_completed + 1
    ups = [r["step"] for r in view["steps"] if "LEVEL UP" in r["events"]]
    assert ups and all(view["steps"][s]["levels_after"] == view["steps"][s]["level"] for s in ups)
    assert any("GAME OVER" in r["events"] for r in view["steps"])
    assert view["levels"][0]["solved"] is True and view["levels"][0]["score"] > 0


def test_workspace_details_per_step(team_run: Path) -> None:
    view = build_view(load_recording(team_run / "recording.jsonl"), team_run)
    assert view["has_workspace"] is True
    steps = view["steps"]
    one, two = steps[1]["ws"], steps[2]["ws"]
    assert one["patches"] == [{"surface": "dynamics", "role": "simulator", "verdict": "accepted",
                               "reason": "no regression",
                               "replay": "2 transitions: fixed 1, broken 0, still wrong 1, unchanged right 0"}]
    assert "+# step 1: the player moves one cell per ACTION4" in one["diff"] and "dynamics.py" in one["diff"]
    assert one["replay_report"]["summary"].startswith("2 transitions") and len(one["replay_report"]["records"]) == 2
    assert two["patches"][0]["verdict"] == "rejected" and "replay_report" not in two
    assert "leader.json" in two["diff"] and "dynamics.py" not in two["diff"]
    for record in steps:
        ws = record["ws"]
        assert ws["observed_matches"] is True and "action_mismatch" not in ws
        assert ws["decision"]["step"] == record["step"] and ws["decision"]["current"] is True
        assert ws["probes"]["total"] == 1 and ws["prediction"] == ("hit" if record["changed"] == 0 else "miss")
        assert ws["wrong_cells"] == record["changed"]
    assert "level-1-start" in steps[0]["ws"]["tags"]
    assert steps[3]["ws"]["critique"]["flags"] == ["grinding loop"] and steps[3]["ws"]["notes"]
    level = view["levels"][0]
    assert level["hits"] + level["misses"] == level["actions"] and level["accepted"] > 0 and level["rejected"] > 0


def test_recording_that_disagrees_with_the_workspace(team_run: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(team_run, tmp_path / "run"))
    lines = (run / "recording.jsonl").read_text().splitlines()
    event = json.loads(lines[1])
    event["data"]["action_input"]["id"] = "ACTION7"
    event["data"]["frame"][-1][0][0] = (event["data"]["frame"][-1][0][0] + 1) % 16
    lines[1] = json.dumps(event)
    (run / "recording.jsonl").write_text("\n".join(lines) + "\n")
    ws = build_view(load_recording(run / "recording.jsonl"), run)["steps"][0]["ws"]
    assert ws["observed_matches"] is False and "the recording ACTION7" in ws["action_mismatch"]


def test_broken_workspace_still_shows_frames(team_run: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(team_run, tmp_path / "run"))
    shutil.rmtree(run / "workspace" / ".git" / "objects")
    view = build_view(load_recording(run / "recording.jsonl"), run)
    assert view["has_workspace"] is False and len(view["steps"]) == 30
    assert view["warnings"] and "the workspace could not be read" in view["warnings"][0]


def test_corrupt_run_files_become_warnings(click_run: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(click_run, tmp_path / "run"))
    (run / "run.json").write_text("{")
    (run / "scorecard.json").write_text('{"environments": [{"id": "flip-v1"}]}')
    view = build_view(load_recording(run / "recording.jsonl"), run)
    assert view["run"]["agent"] == "?" and view["scorecard"] is None and len(view["warnings"]) == 2


def test_parse_body_reads_the_commit_message_format() -> None:
    message = ("step 17 · level 2 · ACTION3 · prediction miss (4 cells wrong) · 1 patch accepted, 1 rejected\n\n"
               "diff: player did not move\n\npatches:\n"
               "- dynamics (Simulator): accepted: no regression [replay: fixed 3, broke 0, still wrong 1]\n"
               "- strategy (Inductive Explorer): rejected: scope: name 'parse' is not owned by strategy\n\n"
               "notes:\n- leader: probing ACTION3\n\n"
               "scores:\n- level_up explorer #1: combined 1 · rollout 0 (rollout rank 1/2)\n"
               "- frontier explorer #2: combined 0 · rollout -1 (rollout rank 2/2)\n\nDreamTeam-Step: 17\n")
    body = parse_body(message)
    assert body["diff_summary"] == "player did not move" and body["notes"] == ["leader: probing ACTION3"]
    assert body["scores"] == ["level_up explorer #1: combined 1 · rollout 0 (rollout rank 1/2)",
                              "frontier explorer #2: combined 0 · rollout -1 (rollout rank 2/2)"]
    assert body["patches"] == [
        {"surface": "dynamics", "role": "Simulator", "verdict": "accepted", "reason": "no regression",
         "replay": "fixed 3, broke 0, still wrong 1"},
        {"surface": "strategy", "role": "Inductive Explorer", "verdict": "rejected",
         "reason": "scope: name 'parse' is not owned by strategy", "replay": ""}]


def test_agents_recording_has_no_initial_frame(tmp_path: Path) -> None:
    from tests.replay.helpers import GAMES_DIR, agents_recording

    recording = load_recording(agents_recording(tmp_path, GAMES_DIR / "flip", "flip-v1", actions=5))
    view = build_view(recording, None)
    assert [(s["before"], s["after"]) for s in view["steps"]] == [(-1, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    assert view["steps"][0]["changed"] is None and view["steps"][0]["action"] == "RESET"
    assert view["run"]["format"] == "agents" and view["run"]["initial_frame"] is False
