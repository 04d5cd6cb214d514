"""Rules of `lava`: walls block, lava and sentries kill, sentries step once per action, the goal completes."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from arcengine import ActionInput, GameAction, GameState

from tests.games.solvers.lava import solve_level

GAME_FILE = Path(__file__).resolve().parents[2] / "games" / "lava" / "v1" / "lava.py"
UP, DOWN, LEFT, RIGHT, WAIT = 1, 2, 3, 4, 5


def _new_game(level: int = 0) -> Any:
    spec = importlib.util.spec_from_file_location("dt_rules_lava", GAME_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.Lava()
    game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
    for index in range(level):
        for action, _, _ in solve_level(game, index):
            _act(game, action)
    assert game.level_index == level
    return game


def _act(game: Any, action: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.from_id(action)), raw=True)


def _cell_colour(fd: Any, game: Any, x: int, y: int) -> int:
    scale, x_offset, y_offset = game.camera._calculate_scale_and_offset()
    return int(fd.frame[-1][y_offset + y * scale, x_offset + x * scale])


def test_wall_blocks_the_player_and_the_move_is_drawn() -> None:
    game = _new_game()
    assert game.player == (1, 1)
    fd = _act(game, UP)
    assert game.player == (1, 1) and _cell_colour(fd, game, 1, 1) == 9
    fd = _act(game, RIGHT)
    assert game.player == (2, 1)
    assert _cell_colour(fd, game, 2, 1) == 9 and _cell_colour(fd, game, 1, 1) == 5


def test_stepping_on_lava_is_game_over_and_reset_restarts_the_level() -> None:
    game = _new_game()
    _act(game, RIGHT)
    fd = _act(game, DOWN)  # (2, 2) is lava
    assert fd.state == GameState.GAME_OVER
    fd = game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
    assert fd.state == GameState.NOT_FINISHED and game.player == (1, 1) and game.level_index == 0


def test_sentries_take_one_step_per_action_including_waits_and_bumps() -> None:
    game = _new_game(2)
    route = game.routes[0]
    assert game.sentries_at(game.tick) == [route[0]]
    fd = _act(game, WAIT)
    assert game.player == (1, 1) and game.sentries_at(game.tick) == [route[1]]
    fd = _act(game, UP)  # bump into the top wall: time still passes
    x, y = route[2]
    assert game.sentries_at(game.tick) == [route[2]] and _cell_colour(fd, game, x, y) == 12


def test_meeting_a_sentry_is_game_over() -> None:
    game = _new_game(2)
    game.player = (6, 3)  # the sentry walks down column 6 from (6, 1)
    assert _act(game, WAIT).state == GameState.NOT_FINISHED
    assert _act(game, WAIT).state == GameState.GAME_OVER


def test_swapping_cells_with_a_sentry_is_game_over() -> None:
    game = _new_game(2)
    game.player = (6, 2)
    assert _act(game, UP).state == GameState.GAME_OVER


def test_reaching_the_goal_completes_the_level() -> None:
    game = _new_game()
    steps = solve_level(game, 0)
    for action, _, _ in steps[:-1]:
        assert _act(game, action).levels_completed == 0
    assert _act(game, steps[-1][0]).levels_completed == 1
