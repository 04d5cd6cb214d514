"""Rules of `twin`: one key moves every avatar (mirrored or flipped per room), walls block each one alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from arcengine import ActionInput, GameAction

from tests.games.solvers.twin import solve_level

GAME_FILE = Path(__file__).resolve().parents[2] / "games" / "twin" / "v1" / "twin.py"
UP, DOWN, LEFT, RIGHT = 1, 2, 3, 4


def _new_game(level: int = 0) -> Any:
    spec = importlib.util.spec_from_file_location("dt_rules_twin", GAME_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.Twin()
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


def test_one_key_moves_both_avatars_and_the_mirrored_one_goes_the_other_way() -> None:
    game = _new_game()
    (px, py), (mx, my) = game.avatars
    fd = _act(game, RIGHT)
    assert game.avatars == [(px + 1, py), (mx - 1, my)]
    assert _cell_colour(fd, game, px + 1, py) == 9 and _cell_colour(fd, game, mx - 1, my) == 12
    assert _cell_colour(fd, game, px, py) == 5 and _cell_colour(fd, game, mx, my) == 5
    _act(game, DOWN)
    assert game.avatars == [(px + 1, py + 1), (mx - 1, my + 1)]


def test_a_wall_blocks_one_avatar_while_the_other_moves() -> None:
    game = _new_game()
    (px, py), (mx, my) = game.avatars
    _act(game, LEFT)  # the plain avatar starts against its left wall; the mirrored one steps right
    assert game.avatars == [(px, py), (mx + 1, my)]


def test_the_flipped_avatar_has_up_and_down_swapped() -> None:
    game = _new_game(3)
    assert game.modes == ["plain", "mirror", "flip"]
    before = list(game.avatars)
    _act(game, UP)
    (p0, p1, p2), (b0, b1, b2) = game.avatars, before
    assert p0 == (b0[0], b0[1] - 1) and p1 == (b1[0], b1[1] - 1) and p2 == (b2[0], b2[1] + 1)


def test_the_level_completes_only_when_every_avatar_is_on_its_goal() -> None:
    game = _new_game()
    for _ in range(3):
        assert _act(game, RIGHT).levels_completed == 0
    assert game.avatars[1] == game.goals[1] and game.avatars[0] != game.goals[0]
    fd = _act(game, RIGHT)  # the mirrored avatar bumps its wall and stays on its goal
    assert fd.levels_completed == 1 and game.level_index == 1
