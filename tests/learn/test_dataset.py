"""The dataset from recorded runs: a real short run, the workspace's sub-goals, the file round trip."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from dreamteam.cli import main
from dreamteam.env.replay import load_recording
from dreamteam.learn.dataset import (
    LEVEL_UP,
    LOSE,
    PAD,
    Dataset,
    DatasetError,
    _steps_to,
    build_dataset,
    pad_frame,
    parse_sub_goals,
    subgoal_held,
    workspace_sub_goals,
)


@pytest.fixture(scope="module")
def random_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "maze-random"
    assert main(["play", "maze", "--agent", "random", "--budget", "20", "--seed", "3", "--out", str(out)]) == 0
    return out


def test_dataset_from_a_real_run(random_run: Path, tmp_path: Path) -> None:
    ds = build_dataset([random_run])
    rec = load_recording(random_run / "recording.jsonl")
    acted = rec.actions
    assert len(ds) == len(acted) == 20
    assert [int(a) for a in ds.action] == [e.action_id for e in acted]
    # the next frame of one transition is the frame of the next one, and both are the recorded grids
    assert np.array_equal(ds.next_frame[:-1], ds.frame[1:])
    assert np.array_equal(ds.next_frame[-1], pad_frame(acted[-1].grid))
    assert np.array_equal(ds.frame[0], pad_frame(rec.entries[0].grid))
    assert ds.frame.shape == (20, 64, 64) and ds.frame.dtype == np.int8
    assert list(ds.level) == [e.levels_completed for e in rec.entries[:-1]]
    assert ds.goal_names[:2] == [LEVEL_UP, LOSE]
    assert ds.meta["games"] == [rec.game_id]
    assert ds.meta["sources"][0]["workspace_sub_goals"] is False   # the random agent keeps no workspace
    # the command writes the same transitions, and the file reads back
    out = tmp_path / "d.npz"
    assert main(["dataset", str(random_run.parent), "--out", str(out)]) == 0
    back = Dataset.load(out)
    assert np.array_equal(back.frame, ds.frame) and np.array_equal(back.action, ds.action)
    assert back.meta["fingerprint"] == ds.meta["fingerprint"]
    assert json.loads(Path(str(out) + ".json").read_text())["transitions"] == 20


def test_a_recording_file_is_a_source_too(random_run: Path, tmp_path: Path) -> None:
    loose = tmp_path / "maze-v1-abc.jsonl"
    loose.write_text((random_run / "recording.jsonl").read_text())
    ds = build_dataset([tmp_path])
    assert len(ds) == 20 and ds.meta["sources"][0]["format"] == "toolkit"


def test_no_recordings_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no recordings"):
        build_dataset([tmp_path])
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(DatasetError, match="not a DreamTeam dataset"):
        Dataset.load(bad)


def test_frames_are_padded_and_cropped() -> None:
    small = np.ones((10, 12), np.int8)
    g = pad_frame(small)
    assert g.shape == (64, 64) and g[9, 11] == 1 and g[10, 0] == PAD and g[0, 12] == PAD
    assert pad_frame(np.zeros((70, 70), np.int8)).shape == (64, 64)


def test_steps_to_next_event() -> None:
    assert list(_steps_to(np.array([0, 0, 1, 0, 1, 0], bool))) == [2, 1, 0, 1, 0, -1]


def test_sub_goal_names_and_the_frame_proxies() -> None:
    src = "X = 1\nSUB_GOALS = [{'name': 'level_up', 'test': 'p'}, {'name': 'enter:colour9'}]\n"
    assert parse_sub_goals(src) == ["level_up", "enter:colour9"]
    assert parse_sub_goals("SUB_GOALS = make()") == [] and parse_sub_goals("def (") == []
    a = np.zeros((4, 4), np.int8)
    a[1, 1] = 9
    b = a.copy()
    b[1, 1] = 3
    assert subgoal_held("enter:colour9", a, b, False, False)
    assert not subgoal_held("enter:colour9", a, a, False, False)
    assert not subgoal_held("enter:colour3", a, b, False, False)   # colour 3 appeared, none was taken
    assert subgoal_held("frontier", a, a, False, True) and not subgoal_held("frontier", a, a, False, False)
    assert subgoal_held("level_up", a, a, True, False) and not subgoal_held("odd-name", a, b, True, True)


def test_workspace_sub_goals_follow_the_step_trailers(tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    ws.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(ws), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                       capture_output=True)

    git("init", "-q")
    (ws / "strategy.py").write_text("SUB_GOALS = []\n")
    git("add", "-A")
    git("commit", "-qm", "seed")
    for step, names in ((2, ["level_up", "enter:colour4"]), (5, ["frontier"])):
        (ws / "strategy.py").write_text(f"SUB_GOALS = {[{'name': n} for n in names]!r}\n")
        git("add", "-A")
        git("commit", "-qm", f"step {step}\n\nDreamTeam-Step: {step}")
    assert workspace_sub_goals(ws) == {2: ["level_up", "enter:colour4"], 5: ["frontier"]}
