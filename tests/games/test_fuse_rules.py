"""Rules of `fuse`: ice slides (one frame per cell), a hidden spark timer, a door that needs the spark."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import ActionInput, GameAction

GAME_FILE = Path(__file__).resolve().parents[2] / "games" / "fuse" / "v1" / "fuse.py"
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4
PLAYER, SPARK, WALL, FLOOR = 9, 11, 3, 5


def _new_game() -> Any:
    spec = importlib.util.spec_from_file_location("dt_rules_fuse", GAME_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.Fuse()
    game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
    return game


def _act(game: Any, action: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.from_id(action)), raw=True)


def _colour(frame: np.ndarray, game: Any, x: int, y: int) -> int:
    scale, x_offset, y_offset = game.camera._calculate_scale_and_offset()
    return int(frame[y_offset + y * scale, x_offset + x * scale])


def test_a_push_slides_to_the_wall_with_one_frame_per_cell() -> None:
    game = _new_game()  # level 1: player at (1, 1), open room, spark at (6, 1)
    fd = _act(game, DOWN)
    assert game.player == (1, 6)
    assert len(fd.frame) == 5
    for index, frame in enumerate(fd.frame):
        assert _colour(frame, game, 1, 2 + index) == PLAYER
        assert _colour(frame, game, 1, 1 + index) == FLOOR


def test_a_blocked_push_renders_a_single_unchanged_frame() -> None:
    game = _new_game()
    fd = _act(game, UP)
    assert game.player == (1, 1) and len(fd.frame) == 1


def test_the_door_is_solid_without_a_spark() -> None:
    game = _new_game()
    _act(game, DOWN)
    fd = _act(game, RIGHT)  # the door sits at (6, 6)
    assert game.player == (5, 6) and fd.levels_completed == 0 and not game.carrying


def test_sliding_over_the_spark_picks_it_up_and_only_the_corner_shows_it() -> None:
    game = _new_game()
    before = _act(game, LEFT).frame[-1]  # a blocked push, to read the still board
    assert _colour(before, game, 0, 0) == WALL and _colour(before, game, 6, 1) == SPARK
    after = _act(game, RIGHT).frame[-1]
    assert game.carrying and game.player == (6, 1)
    assert _colour(after, game, 0, 0) == SPARK
    changed = {
        (x, y)
        for x in range(8)
        for y in range(8)
        if _colour(before, game, x, y) != _colour(after, game, x, y)
    }
    assert changed == {(0, 0), (1, 1), (6, 1)}


def test_the_spark_burns_out_after_the_fuse_and_returns_home_unseen_until_then() -> None:
    game = _new_game()
    _act(game, RIGHT)  # pick the spark up at (6, 1); level 1's fuse is 9 actions
    frames = [_act(game, UP).frame[-1] for _ in range(game.fuse - 1)]  # blocked pushes still burn
    assert game.carrying
    assert all(np.array_equal(frames[0], frame) for frame in frames)  # the countdown is never drawn
    fd = _act(game, LEFT)
    assert not game.carrying and game.player == (1, 1)
    assert _colour(fd.frame[-1], game, 6, 1) == SPARK and _colour(fd.frame[-1], game, 0, 0) == WALL


def test_carrying_the_spark_into_the_door_completes_the_level() -> None:
    game = _new_game()
    _act(game, RIGHT)
    fd = _act(game, DOWN)
    assert fd.levels_completed == 1 and game.level_index == 1
