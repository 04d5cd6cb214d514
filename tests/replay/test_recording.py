"""Reading recordings: formats, field checks, clear errors; frame hashes; scorecard comparison."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dreamteam.env.replay import (
    RecordingError,
    frames_hash,
    load_recording,
    scorecard_differences,
)


def _line(**overrides: Any) -> str:
    data: dict[str, Any] = {"game_id": "tiny-v1", "state": "NOT_FINISHED", "levels_completed": 0, "win_levels": 2,
                            "action_input": {"id": "RESET", "data": {}, "reasoning": None}, "guid": "g",
                            "full_reset": True, "available_actions": [1, 4], "frame": [[[0, 1], [2, 3]]]}
    data.update(overrides)
    return json.dumps({"timestamp": "t", "data": data})


def _write(tmp_path: Path, *lines: str, name: str = "tiny-v1-g.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_toolkit_format_and_click_labels(tmp_path: Path) -> None:
    click = {"id": "ACTION6", "data": {"x": 3, "y": 9}, "reasoning": None}
    rec = load_recording(_write(tmp_path, _line(), _line(action_input=click, full_reset=False)))
    assert rec.format == "toolkit" and rec.game_id == "tiny-v1" and rec.has_initial_frame
    assert [e.action_label for e in rec.actions] == ["ACTION6@(3,9)"]
    assert rec.entries[0].grid is not None and rec.entries[0].grid.tolist() == [[0, 1], [2, 3]]


def test_numeric_action_ids_mean_the_agents_harness(tmp_path: Path) -> None:
    rec = load_recording(_write(tmp_path, _line(action_input={"id": 4, "data": {"game_id": "tiny-v1"}}),
                                json.dumps({"timestamp": "t", "data": {"score": 0.0}})))
    assert rec.format == "agents" and not rec.has_initial_frame and rec.actions == rec.entries
    assert rec.extras == ({"score": 0.0},)


def test_recording_without_frame_data(tmp_path: Path) -> None:
    line = json.loads(_line())
    del line["data"]["frame"]
    rec = load_recording(_write(tmp_path, json.dumps(line)))
    assert rec.entries[0].frames is None and rec.entries[0].grid is None


@pytest.mark.parametrize(("override", "message"), [
    ({"action_input": {"id": "JUMP", "data": {}}}, "unknown action id 'JUMP'"),
    ({"action_input": {"id": 9, "data": {}}}, "unknown action id 9"),
    ({"action_input": {"id": "ACTION1", "data": [1]}}, "action_input.data is not an object"),
    ({"frame": [[[0, 16]]]}, "not a 2-D grid of colours 0..15"),
    ({"frame": [[[0, 1], [2]]]}, "not a rectangular grid"),
    ({"frame": "abc"}, "frame is not a list of grids"),
    ({"levels_completed": "many"}, "malformed field"),
])
def test_malformed_lines_are_named(tmp_path: Path, override: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordingError, match="line 1") as err:
        load_recording(_write(tmp_path, _line(**override)))
    assert message in str(err.value)


def test_file_level_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="holds no recorded frames"):
        load_recording(_write(tmp_path, json.dumps({"timestamp": "t", "data": {}})))
    with pytest.raises(RecordingError, match="must hold one game"):
        load_recording(_write(tmp_path, _line(), _line(game_id="maze-v1")))
    with pytest.raises(RecordingError, match="line 1 is not a recording event"):
        load_recording(_write(tmp_path, "[1, 2]"))
    with pytest.raises(RecordingError, match="does not exist"):
        load_recording(tmp_path / "missing.jsonl")
    assert RecordingError("x").exit_code == 1


def test_frames_hash_covers_every_layer() -> None:
    a = np.zeros((64, 64), dtype=np.int8)
    b = a.copy()
    b[3, 4] = 7
    assert frames_hash([a]) == frames_hash([a.copy()])
    assert len({frames_hash([a]), frames_hash([b]), frames_hash([a, b]), frames_hash([b, a]), frames_hash([])}) == 5


def test_scorecard_differences_ignore_ids_and_catch_fields() -> None:
    play = {"guid": "1", "score": 2.5, "levels_completed": 1, "actions": 10, "resets": 0, "state": "WIN",
            "completed": True, "level_scores": [2.5], "level_actions": [10], "level_baseline_actions": [5]}
    card = {"card_id": "a", "score": 2.5, "environments": [{"id": "g-v1", "score": 2.5, "levels_completed": 1,
                                                             "actions": 10, "resets": 0, "runs": [play]}]}
    other = json.loads(json.dumps(card))
    other["card_id"], other["environments"][0]["runs"][0]["guid"] = "b", "2"
    assert scorecard_differences(card, other) == []
    other["environments"][0]["runs"][0]["level_scores"] = [2.5 + 1e-12]
    assert scorecard_differences(card, other) == []
    other["environments"][0]["runs"][0]["level_actions"] = [11]
    assert scorecard_differences(card, other) == ["g-v1 play 1 level_actions: recorded [10], replayed [11]"]
    other["environments"] = []
    assert scorecard_differences(card, other) == ["g-v1: only in the recorded scorecard"]
