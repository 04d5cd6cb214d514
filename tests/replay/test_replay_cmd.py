"""`dreamteam replay` end to end: fresh runs verify; tampered, truncated or damaged ones fail clearly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from dreamteam.env.catalog import Catalog, env_dirs_from
from dreamteam.env.replay import load_recording, replay_recording, scorecard_differences
from tests.replay.helpers import GAMES_DIR, agents_recording, edit_line, make_run, run_cli, toolkit_recording

FIXTURE_GAMES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


def _replay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run_cli(["replay", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    return code, out.out, out.err


def test_fresh_run_replays_ok(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _replay(capsys, str(tiny_run))
    actions = len((tiny_run / "recording.jsonl").read_text().splitlines()) - 1
    assert code == 0
    assert out.startswith(f"OK tiny-v1: {actions} actions replayed") and "scorecard matches scorecard.json" in out
    assert len(out.strip().splitlines()) == 1


def test_bundled_game_with_clicks_replays_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path / "flip", "flip", agent="random", budget=40)
    code, out, _ = _replay(capsys, str(run / "recording.jsonl"))
    assert code == 0 and "all 41 recorded frames match" in out


def test_flipped_action_fails_at_that_step(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = tiny_run / "recording.jsonl"
    step = 1  # the second action: line 3 of the file (line 1 is the initial frame)
    original = load_recording(recording).actions[step].action_label
    flipped = "ACTION1" if original != "ACTION1" else "ACTION4"

    def flip(data: dict[str, Any]) -> None:
        data["action_input"]["id"] = flipped

    edit_line(recording, step + 1, flip)
    code, out, _ = _replay(capsys, str(tiny_run))
    assert code == 1
    assert out.startswith("MISMATCH tiny-v1: diverged at step 1 (action 2: " + flipped + "), recording line 3")
    assert "recorded state" in out and "replayed state" in out and len(out.strip().splitlines()) == 1


def test_changed_cell_is_reported(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def paint(data: dict[str, Any]) -> None:
        data["frame"][-1][5][7] = (data["frame"][-1][5][7] + 1) % 16

    edit_line(tiny_run / "recording.jsonl", 2, paint)
    code, out, _ = _replay(capsys, str(tiny_run))
    assert code == 1 and "step 1 " in out
    assert "first differing cell x=7 y=5 (layer 1 of 1)" in out and "1 cells differ" in out


def test_tampered_initial_frame(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_line(tiny_run / "recording.jsonl", 0, lambda d: d.update(levels_completed=1))
    code, out, _ = _replay(capsys, str(tiny_run))
    assert code == 1 and "diverged at the initial frame, recording line 1" in out and "differs in levels" in out
    assert "the game's code or levels differ" in out


def test_cut_off_last_line(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = tiny_run / "recording.jsonl"
    recording.write_bytes(recording.read_bytes()[:-500])
    code, _, err = _replay(capsys, str(tiny_run))
    lines = len(recording.read_text().splitlines())
    assert code == 1
    assert err.strip() == f"error: recording.jsonl line {lines} is cut off (the recording was truncated)"


def test_missing_lines_disagree_with_run_json(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = tiny_run / "recording.jsonl"
    lines = recording.read_text().splitlines()
    recording.write_text("\n".join(lines[:-2]) + "\n")
    code, out, _ = _replay(capsys, str(tiny_run))
    assert code == 1
    assert f"recording.jsonl holds {len(lines) - 3} actions but run.json records {len(lines) - 1}" in out


def test_corrupt_line_in_the_middle(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = tiny_run / "recording.jsonl"
    lines = recording.read_text().splitlines()
    lines[1] = lines[1][:40]
    recording.write_text("\n".join(lines) + "\n")
    code, _, err = _replay(capsys, str(tiny_run))
    assert code == 1 and "recording.jsonl line 2 is not valid JSON" in err and len(err.splitlines()) == 1


def test_missing_game_version(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = tiny_run / "recording.jsonl"
    recording.write_text(recording.read_text().replace('"tiny-v1"', '"tiny-v9"'))
    code, _, err = _replay(capsys, str(tiny_run), "--env-dir", str(FIXTURE_GAMES))
    assert code == 2
    assert err.startswith("error: game version tiny-v9 of the recording is not available locally (found tiny-v1)")


def test_corrupt_scorecard(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tiny_run / "scorecard.json").write_text('{"score": 1.0, "environ')
    code, _, err = _replay(capsys, str(tiny_run))
    assert code == 1 and "scorecard.json is corrupt: not valid JSON" in err


def test_scorecard_with_wrong_shape(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tiny_run / "scorecard.json").write_text('{"score": 1.0}')
    code, _, err = _replay(capsys, str(tiny_run))
    assert code == 1 and "is not a toolkit scorecard" in err


def test_edited_scorecard_is_a_mismatch(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = json.loads((tiny_run / "scorecard.json").read_text())
    card["environments"][0]["runs"][0]["level_actions"][0] += 1
    (tiny_run / "scorecard.json").write_text(json.dumps(card))
    code, out, _ = _replay(capsys, str(tiny_run))
    assert code == 1 and "scorecard differs: tiny-v1 play 1 level_actions: recorded [" in out


def test_toolkit_recording_replays_with_recomputed_scorecard(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path, toolkit_card = toolkit_recording(tmp_path, GAMES_DIR / "flip", "flip-v1")
    assert path.name.startswith("flip-v1-")
    recording = load_recording(path)
    assert recording.format == "toolkit" and recording.has_initial_frame
    outcome = replay_recording(recording, Catalog.scan(env_dirs_from([])))
    assert outcome.ok and outcome.frames_checked == 26
    assert scorecard_differences(toolkit_card, outcome.scorecard) == []
    code, out, _ = _replay(capsys, str(path))
    assert code == 0 and "recomputed scorecard: levels" in out and "scorecard · flip-v1" in out


def test_agents_harness_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = agents_recording(tmp_path, GAMES_DIR / "flip", "flip-v1")
    recording = load_recording(path)
    assert recording.format == "agents" and not recording.has_initial_frame
    assert len(recording.entries) == 26 and recording.extras == ({},)
    code, out, _ = _replay(capsys, str(path))
    assert code == 0 and "26 actions replayed offline, all 26 recorded frames match (agents recording" in out


def test_agents_recording_without_actions_gets_a_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = agents_recording(tmp_path, GAMES_DIR / "maze", "maze-v1", store_action=False)
    code, out, _ = _replay(capsys, str(path))
    assert code == 1 and "every action in this recording is RESET" in out


def test_game_that_raises_is_a_one_line_mismatch(tiny_run: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games" / "boom"
    shutil.copytree(FIXTURE_GAMES / "tiny", games)
    source = games / "v1" / "tiny.py"
    source.write_text(source.read_text().replace("        self.complete_action()",
                                                 "        if self.action.id == GameAction.ACTION4:\n"
                                                 "            raise RuntimeError('boom on ACTION4')\n"
                                                 "        self.complete_action()"))
    meta = games / "v1" / "metadata.json"
    meta.write_text(meta.read_text().replace('"tiny-v1"', '"boom-v1"'))
    recording = tiny_run / "recording.jsonl"
    recording.write_text(recording.read_text().replace('"tiny-v1"', '"boom-v1"'))
    code, out, err = _replay(capsys, str(recording), "--env-dir", str(tmp_path / "games"))
    assert code == 1 and "no frame: the game failed" in out and "boom on ACTION4" in out
    assert len(out.strip().splitlines()) == 1 and err == ""


def test_not_a_run_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _replay(capsys, str(tmp_path))
    assert code == 2 and "holds no recording.jsonl" in err
    code, _, err = _replay(capsys, str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in err


def test_unfinished_run_without_scorecard(tiny_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tiny_run / "scorecard.json").unlink()
    meta = json.loads((tiny_run / "run.json").read_text())
    meta.update(status="running")
    del meta["result"]
    (tiny_run / "run.json").write_text(json.dumps(meta))
    code, out, _ = _replay(capsys, str(tiny_run))
    assert code == 0 and "no scorecard.json to check (the run did not finish?); recomputed: levels" in out


def test_animated_frames_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path / "fuse", "fuse", agent="random", budget=30)
    layers = [len(json.loads(line)["data"]["frame"]) for line in (run / "recording.jsonl").read_text().splitlines()]
    assert max(layers) > 1
    code, out, _ = _replay(capsys, str(run))
    assert code == 0

    def drop_layer(data: dict[str, Any]) -> None:
        data["frame"] = data["frame"][1:]

    edit_line(run / "recording.jsonl", layers.index(max(layers)), drop_layer)
    code, out, _ = _replay(capsys, str(run))
    assert code == 1 and f"{max(layers) - 1} frame layers recorded, {max(layers)} replayed" in out


def test_game_that_cannot_start(tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games" / "tiny"
    shutil.copytree(FIXTURE_GAMES / "tiny", games)
    (games / "v1" / "tiny.py").write_text("this is not python\n")
    code, out, err = _replay(capsys, str(tiny_run), "--env-dir", str(tmp_path / "games"))
    assert code == 4 and err.startswith("error: game tiny-v1 produced no initial frame: Error executing game source")
    assert len(err.strip().splitlines()) == 1


def test_scorecard_entry_inside_an_agents_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = agents_recording(tmp_path, GAMES_DIR / "flip", "flip-v1", actions=5)
    lines = path.read_text().splitlines()
    lines[-1] = json.dumps({"timestamp": "t", "data": {"score": 50.0, "levels_completed": 3, "actions": 5}})
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = _replay(capsys, str(path))
    assert code == 0
    assert "note: the scorecard entry inside the recording differs from the replay: flip-v1 score: recorded 50" in out
    assert "flip-v1 levels_completed: recorded 3, replayed 0" in out and "actions:" not in out.split("note:")[1]
