"""Rules of `copy`: clicks cycle canvas colours, the target is inert, a match completes the level."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import ActionInput, GameAction, GameState

from tests.games.solvers.copy import display_point, solve_level

GAME_FILE = Path(__file__).resolve().parents[2] / "games" / "copy" / "v1" / "copy.py"


def _new_game() -> Any:
    spec = importlib.util.spec_from_file_location("dt_rules_copy", GAME_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.Copy()
    game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
    return game


def _click(game: Any, x: int, y: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.ACTION6, data={"x": x, "y": y}), raw=True)


def _pixel(frame: np.ndarray, game: Any, grid_x: int, grid_y: int) -> int:
    x, y = display_point(game, grid_x, grid_y)
    return int(frame[y, x])


def test_click_on_canvas_cycles_the_cell_through_the_palette_and_wraps() -> None:
    game = _new_game()
    ox, oy = game.canvas_origin()
    x, y = display_point(game, ox, oy)
    seen = []
    for _ in range(game.colours):
        fd = _click(game, x, y)
        seen.append(_pixel(fd.frame[-1], game, ox, oy))
    assert seen == [9, 0]  # level 1 cycles white <-> blue
    assert int(game.canvas[0, 0]) == 0


def test_click_on_the_target_or_the_gap_changes_nothing() -> None:
    game = _new_game()
    before = _click(game, 0, 0).frame[-1]  # a click in the corner, outside both panels
    tx, ty = game.target_origin()
    for grid_x, grid_y in [(tx, ty), (tx + 1, ty + 1), (game.pattern_size + 1, 1)]:
        fd = _click(game, *display_point(game, grid_x, grid_y))
        assert np.array_equal(fd.frame[-1], before)
    assert fd.state == GameState.NOT_FINISHED


def test_level_completes_exactly_when_the_canvas_matches() -> None:
    game = _new_game()
    steps = solve_level(game, 0)
    for _, x, y in steps[:-1]:
        assert _click(game, x, y).levels_completed == 0
    _, x, y = steps[-1]
    assert _click(game, x, y).levels_completed == 1


def test_later_levels_cycle_through_more_colours() -> None:
    game = _new_game()
    for level in range(3):
        for _, x, y in solve_level(game, level):
            _click(game, x, y)
    assert game.level_index == 3 and game.colours == 4
    ox, oy = game.canvas_origin()
    point = display_point(game, ox, oy + 1)  # row 1 starts white
    colours = [_pixel(_click(game, *point).frame[-1], game, ox, oy + 1) for _ in range(4)]
    assert colours == [9, 8, 11, 0]
