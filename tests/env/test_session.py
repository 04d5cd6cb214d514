"""The game layer over the official toolkit: catalog, sessions, RESET guard, recording, scorecard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamteam.env.catalog import Catalog
from dreamteam.env.recording import RecordingWriter
from dreamteam.env.session import Arena
from dreamteam.errors import UnknownGameError, UserError
from dreamteam.types import RESET, Action

RIGHT, UP = Action(4), Action(1)


def _arena(fixture_games: Path) -> Arena:
    return Arena(Catalog.scan([fixture_games]))


def test_unknown_game_lists_close_matches(fixture_games: Path) -> None:
    with pytest.raises(UnknownGameError, match=r"did you mean: tiny"):
        Catalog.scan([fixture_games]).resolve("tiyn")


def test_empty_dir_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no games found"):
        Catalog.scan([tmp_path]).require_games()


def test_base_id_resolves_to_version(fixture_games: Path) -> None:
    assert Catalog.scan([fixture_games]).resolve("tiny").game_id == "tiny-v1"


def test_levels_scores_and_recording(fixture_games: Path, tmp_path: Path) -> None:
    arena = _arena(fixture_games)
    card = arena.new_scorecard()
    rec = RecordingWriter(tmp_path / "rec.jsonl")
    s = arena.open("tiny", card, rec)
    for _ in range(3):
        obs = s.step(RIGHT)
    assert obs.levels_completed == 1 and obs.state == "NOT_FINISHED"
    for _ in range(5):
        obs = s.step(RIGHT)
    assert obs.state == "WIN"
    rec.close()
    lines = [json.loads(x) for x in (tmp_path / "rec.jsonl").read_text().splitlines()]
    assert len(lines) == 1 + 8
    assert lines[0]["data"]["action_input"]["id"] == "RESET" and len(lines[0]["data"]["frame"][0]) == 64
    assert lines[1]["data"]["action_input"]["id"] == "ACTION4"
    env = arena.scorecard(card)["environments"][0]
    run = env["runs"][0]
    assert run["level_actions"] == [3, 5] and run["levels_completed"] == 2
    assert env["score"] == pytest.approx(100.0)  # both levels at their baseline


def test_reset_right_after_level_start_is_refused(fixture_games: Path) -> None:
    s = _arena(fixture_games).open("tiny", _arena(fixture_games).new_scorecard())
    assert s.reset_would_restart_game
    with pytest.raises(UserError, match="refused RESET"):
        s.step(Action(RESET))
    s.step(RIGHT)
    assert not s.reset_would_restart_game
    obs = s.step(Action(RESET))
    assert obs.levels_completed == 0 and not obs.full_reset
    assert s.reset_would_restart_game


def test_reset_after_level_up_would_restart_game(fixture_games: Path) -> None:
    s = _arena(fixture_games).open("tiny", _arena(fixture_games).new_scorecard())
    for _ in range(3):
        s.step(RIGHT)
    assert s.reset_would_restart_game  # the engine would wipe the completed level


def test_game_over_then_reset_restarts_level_and_counts_as_action(fixture_games: Path) -> None:
    arena = _arena(fixture_games)
    card = arena.new_scorecard()
    s = arena.open("tiny", card)
    for _ in range(3):
        s.step(RIGHT)
    s.step(RIGHT)
    assert s.step(UP).state == "GAME_OVER"
    obs = s.step(Action(RESET))
    assert obs.state == "NOT_FINISHED" and obs.levels_completed == 1
    run = arena.scorecard(card)["environments"][0]["runs"][0]
    assert run["actions"] == 6 and run["resets"] == 1
