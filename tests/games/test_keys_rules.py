"""Rules of the bundled `keys` game, driven through arcengine's perform_action."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import ActionInput, GameAction, GameState

SOURCE = Path(__file__).resolve().parents[2] / "games" / "keys" / "v1" / "keys.py"
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4
RED, VIOLET = 8, 15


def _game_at(level: int) -> Any:
    spec = importlib.util.spec_from_file_location("keys_rules_game", SOURCE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.Keys()
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


def _count(frame: Any, colour: int) -> int:
    return int(np.count_nonzero(np.asarray(frame.frame[-1]) == colour))


def test_a_wall_blocks_movement() -> None:
    game = _game_at(0)
    _act(game, UP)
    assert game.player_cell == (1, 1)
    _act(game, RIGHT)
    assert game.player_cell == (2, 1)


def test_a_closed_door_blocks_until_its_key_is_taken() -> None:
    game = _game_at(0)
    frame = _walk(game, [RIGHT, RIGHT, DOWN, RIGHT])
    assert game.player_cell == (3, 2), "the red door at (4, 2) must block"
    red_before = _count(frame, RED)
    frame = _walk(game, [LEFT, DOWN])
    assert game.player_cell == (2, 3)
    assert _count(frame, RED) == 0 < red_before, "key and door both vanish"
    assert all("1" not in row and "R" not in row for row in game.cells)
    _walk(game, [UP, RIGHT, RIGHT])
    assert game.player_cell == (4, 2)


def test_a_plate_toggles_its_doors_each_time_it_is_entered() -> None:
    game = _game_at(2)
    assert game.cells[2][6] == "V"
    frame = _walk(game, [RIGHT, RIGHT, DOWN, DOWN])
    assert game.player_cell == (3, 3) and game.cells[2][6] == "v"
    open_pixels = _count(frame, VIOLET)
    frame = _walk(game, [UP, DOWN])
    assert game.cells[2][6] == "V"
    assert _count(frame, VIOLET) == 4 * open_pixels, "an open door is one dot of the 2x2 closed block"


def test_a_plate_closes_open_doors_of_its_colour() -> None:
    game = _game_at(3)
    _walk(game, [RIGHT] * 8 + [DOWN])
    assert game.player_cell == (9, 2)
    assert game.cells[1][6] == "V" and game.cells[3][7] == "v"
    _walk(game, [UP, LEFT, LEFT, LEFT, LEFT])
    assert game.player_cell == (7, 1), "the violet door at (6, 1) is now closed"


def test_reaching_the_exit_completes_the_level_and_reset_restores_it() -> None:
    game = _game_at(0)
    _walk(game, [DOWN, DOWN, RIGHT])
    assert all("1" not in row for row in game.cells)
    frame = _act(game, 0)
    assert frame.state == GameState.NOT_FINISHED and game.level_index == 0
    assert any("1" in row for row in game.cells) and game.player_cell == (1, 1)
    frame = _walk(game, [DOWN, DOWN, RIGHT, UP, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT])
    assert frame.levels_completed == 1 and game.level_index == 1
