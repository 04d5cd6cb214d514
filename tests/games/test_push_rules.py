"""Rules of the bundled `push` game, driven through arcengine's perform_action."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import ActionInput, GameAction

SOURCE = Path(__file__).resolve().parents[2] / "games" / "push" / "v1" / "push.py"
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4
ORANGE, GREEN = 12, 14


def _game_at(level: int) -> Any:
    spec = importlib.util.spec_from_file_location("push_rules_game", SOURCE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.Push()
    _act(game, 0)
    game.set_level(level)
    return game


def _act(game: Any, action_id: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.from_id(action_id)), raw=True)


def _walk(game: Any, actions: list[int]) -> Any:
    frame = None
    for action in actions:
        frame = _act(game, action)
    return frame


def test_walking_into_a_block_pushes_it_one_cell() -> None:
    game = _game_at(0)
    assert game.player_cell == (5, 2) and game.blocks == {(2, 2)}
    _walk(game, [LEFT, LEFT, LEFT])
    assert game.player_cell == (2, 2) and game.blocks == {(1, 2)}


def test_a_wall_behind_the_block_stops_the_push() -> None:
    game = _game_at(0)
    _walk(game, [LEFT, LEFT, LEFT, LEFT])
    assert game.player_cell == (2, 2) and game.blocks == {(1, 2)}


def test_blocks_cannot_be_pulled() -> None:
    game = _game_at(0)
    _walk(game, [LEFT, LEFT, LEFT, RIGHT])
    assert game.player_cell == (3, 2) and game.blocks == {(1, 2)}


def test_a_block_behind_the_block_stops_the_push() -> None:
    game = _game_at(3)
    _walk(game, [DOWN, RIGHT, DOWN, DOWN])
    assert game.player_cell == (6, 4)
    _act(game, LEFT)
    assert game.player_cell == (6, 4) and game.blocks == {(4, 4), (5, 4)}


def test_a_block_on_a_target_turns_green_and_covering_all_targets_completes_the_level() -> None:
    game = _game_at(0)
    frame = _walk(game, [UP, LEFT, LEFT, LEFT, LEFT, DOWN, RIGHT])
    assert game.blocks == {(3, 2)}
    assert np.count_nonzero(np.asarray(frame.frame[-1]) == ORANGE) > 0
    frame = _act(game, RIGHT)
    covered = np.asarray(frame.frame[0])
    assert np.count_nonzero(covered == GREEN) > 0 and np.count_nonzero(covered == ORANGE) == 0
    assert frame.levels_completed == 1 and game.level_index == 1
