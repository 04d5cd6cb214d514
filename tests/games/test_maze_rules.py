"""Rules of the bundled `maze` game, driven through arcengine's perform_action."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import ActionInput, GameAction, GameState

from tests.games.solvers.maze import shortest_path

SOURCE = Path(__file__).resolve().parents[2] / "games" / "maze" / "v1" / "maze.py"
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4
BAR = 11


def _module() -> Any:
    spec = importlib.util.spec_from_file_location("maze_rules_game", SOURCE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _started() -> Any:
    game = _module().Maze()
    _act(game, 0)
    return game


def _act(game: Any, action_id: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.from_id(action_id)), raw=True)


def _bar_pixels(frame: Any) -> int:
    return int(np.count_nonzero(np.asarray(frame.frame[-1]) == BAR))


def test_a_wall_blocks_the_move_and_costs_nothing() -> None:
    game = _started()
    start = (game.player.x, game.player.y)
    assert game.is_wall(start[0] + 1, start[1])
    before = _bar_pixels(_act(game, 0))
    after = _act(game, RIGHT)
    assert (game.player.x, game.player.y) == start
    assert game.remaining == game.budget
    assert _bar_pixels(after) == before


def test_each_move_removes_one_bar_cell() -> None:
    game = _started()
    scale = 64 // max(game.camera.width, game.camera.height)
    before = _bar_pixels(_act(game, 0))
    after = _act(game, LEFT)
    assert (game.player.x, game.player.y) == (4, 5)
    assert game.remaining == game.budget - 1
    assert before - _bar_pixels(after) == scale * scale


def test_running_out_of_budget_is_game_over_and_reset_restores_the_bar() -> None:
    game = _started()
    full = _bar_pixels(_act(game, 0))
    for i in range(game.budget):
        frame = _act(game, LEFT if i % 2 == 0 else RIGHT)
        expected = GameState.GAME_OVER if i == game.budget - 1 else GameState.NOT_FINISHED
        assert frame.state == expected, f"move {i}"
    assert _bar_pixels(frame) == 0
    frame = _act(game, 0)
    assert frame.state == GameState.NOT_FINISHED
    assert game.level_index == 0 and game.remaining == game.budget
    assert _bar_pixels(frame) == full


def test_levels_grow_and_the_slack_shrinks_to_zero() -> None:
    module = _module()
    sizes, slacks = [], []
    for rows, budget in module.LEVELS:
        path = shortest_path(rows, module.find_cell(rows, "P"), module.find_cell(rows, "E"))
        sizes.append(len(rows) * len(rows[0]))
        slacks.append(budget - len(path))
    assert sizes == sorted(sizes)
    assert slacks == sorted(slacks, reverse=True)
    assert slacks[-1] == 0 and min(slacks) >= 0
