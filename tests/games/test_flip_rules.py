"""Rules of the bundled `flip` game, driven through arcengine's perform_action."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import ActionInput, GameAction

SOURCE = Path(__file__).resolve().parents[2] / "games" / "flip" / "v1" / "flip.py"
OFF, ON = 3, 11


def _module() -> Any:
    spec = importlib.util.spec_from_file_location("flip_rules_game", SOURCE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game_at(level: int) -> Any:
    game = _module().Flip()
    game.perform_action(ActionInput(id=GameAction.RESET), raw=True)
    game.set_level(level)
    return game


def _click(game: Any, x: int, y: int) -> Any:
    return game.perform_action(ActionInput(id=GameAction.ACTION6, data={"x": x, "y": y}), raw=True)


def _off(game: Any) -> set[str]:
    return {char for char, on in game.lit.items() if not on}


def test_a_click_flips_the_tile_and_its_orthogonal_neighbours_only() -> None:
    game = _game_at(0)  # 3x3 board on a 7x7 grid, 9 display pixels per grid cell
    assert _off(game) == {"b", "d", "e", "f", "h"}
    frame = _click(game, 13, 13)  # top-left tile "a"
    assert _off(game) == {"a", "e", "f", "h"}
    pixels = np.asarray(frame.frame[-1])
    assert pixels[13, 13] == OFF and pixels[13, 31] == ON and pixels[31, 13] == ON
    assert np.count_nonzero(pixels == OFF) == 4 * 81


def test_clicking_twice_restores_the_board() -> None:
    game = _game_at(1)
    before = dict(game.lit)
    _click(game, 31, 49)
    assert game.lit != before
    _click(game, 31, 49)
    assert game.lit == before


def test_clicks_on_gaps_and_the_margin_change_nothing() -> None:
    game = _game_at(0)
    before = dict(game.lit)
    first = np.asarray(_click(game, 22, 13).frame[-1])
    second = np.asarray(_click(game, 63, 63).frame[-1])
    assert game.lit == before and np.array_equal(first, second)


def test_a_multi_cell_tile_flips_as_one_with_every_tile_it_touches() -> None:
    game = _game_at(4)  # 5x5 board on an 11x11 grid, scale 5, offset 4
    before = dict(game.lit)
    _click(game, 4 + 2 * 5 + 2, 4 + 1 * 5 + 2)  # the bridge pixel between the two cells of tile "a"
    flipped = {char for char in before if before[char] != game.lit[char]}
    assert flipped == {"a", "b", "d"}


def test_lighting_every_tile_completes_the_level() -> None:
    game = _game_at(0)
    frame = _click(game, 31, 31)
    assert frame.levels_completed == 1 and game.level_index == 1
    assert np.count_nonzero(np.asarray(frame.frame[0]) == OFF) == 0


def test_every_tile_group_is_one_connected_piece_and_every_start_is_unsolved() -> None:
    module = _module()
    for layout, scramble in module.LEVELS:
        for cells in module.tile_groups(layout).values():
            seen, todo = {cells[0]}, [cells[0]]
            while todo:
                x, y = todo.pop()
                for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if nxt in cells and nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            assert seen == set(cells)
        assert not all(module.start_state(layout, scramble).values())
