"""Status-bar detection on synthetic step sequences, and the masked frame hash."""

from __future__ import annotations

import numpy as np
import pytest

from dreamteam.perception import HudSettings, detect_hud, detect_hud_from_pairs, masked_grid, masked_hash
from dreamteam.types import Grid

MOVES = {1: (-1, 0), 2: (1, 0), 3: (0, -1), 4: (0, 1), 5: (0, 0)}


def scene(player: tuple[int, int], bar: int, counter: int | None = None) -> Grid:
    """A walled room at 4 pixels per cell, a player, a 2-pixel bar of `bar` pixels on top, a corner digit."""
    grid = np.zeros((64, 64), dtype=np.int8)
    grid[8, 8:56] = 3
    grid[60, 8:56] = 3
    grid[8:61, 8] = 3
    grid[8:61, 55] = 3
    y, x = player
    grid[12 + 4 * y : 16 + 4 * y, 12 + 4 * x : 16 + 4 * x] = 9
    grid[0:2, :bar] = 12
    if counter is not None:
        digit = np.array([[(counter >> i) & 1 for i in range(3)] for _ in range(3)], dtype=np.int8) * 14
        grid[61:64, 58:61] = digit
    return grid


def walk(steps: int, seed: int, bar_every_step: bool, counter: bool) -> tuple[list[Grid], list[int]]:
    """Random walk of the player; the bar shrinks by one pixel per effective move or per step."""
    rng = np.random.default_rng(seed)
    pos, bar, frames, actions = (4, 4), 60, [], []
    frames.append(scene(pos, bar, 0 if counter else None))
    for t in range(steps):
        action = int(rng.integers(1, 6))
        dy, dx = MOVES[action]
        new = (min(max(pos[0] + dy, 0), 9), min(max(pos[1] + dx, 0), 9))
        moved = new != pos
        pos = new
        if moved or bar_every_step:
            bar -= 1
        frames.append(scene(pos, bar, (t + 1) % 8 if counter else None))
        actions.append(action)
    return frames, actions


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_bar_used_up_by_every_move_is_masked_whole_and_the_player_is_not(seed: int) -> None:
    frames, actions = walk(30, seed, bar_every_step=False, counter=False)
    mask = detect_hud(frames, actions)
    assert mask[0:2, 0:60].all(), "the whole bar, including the part not used yet"
    assert not mask[8:61, 8:56].any(), "nothing of the room or the player"


def test_a_clock_bar_and_a_counter_are_masked() -> None:
    frames, actions = walk(30, 5, bar_every_step=True, counter=True)
    mask = detect_hud(frames, actions)
    assert mask[0:2, 0:60].all()
    assert mask[61:64, 58:61].any()
    assert not mask[8:61, 8:56].any()


def test_masked_hash_ignores_the_bar_but_not_the_player() -> None:
    frames, actions = walk(30, 3, bar_every_step=True, counter=False)
    mask = detect_hud(frames, actions)
    assert masked_hash(scene((2, 2), 50), mask) == masked_hash(scene((2, 2), 37), mask)
    assert masked_hash(scene((2, 2), 50), mask) != masked_hash(scene((2, 3), 50), mask)
    assert masked_hash(scene((2, 2), 50)) != masked_hash(scene((2, 2), 37))
    assert masked_grid(scene((2, 2), 50), mask)[0, 0] == 16


def test_too_few_steps_or_no_change_give_an_empty_mask() -> None:
    frames, actions = walk(3, 0, bar_every_step=True, counter=False)
    assert not detect_hud(frames, actions).any()
    still = [scene((1, 1), 10)] * 10
    assert not detect_hud(still).any()


def test_tiles_toggled_by_clicks_are_game_state_not_hud() -> None:
    """Lights-out-like: every click flips tiles around the click point; some tile flips on every step."""
    rng = np.random.default_rng(0)
    tiles = np.zeros((3, 3), dtype=bool)
    pairs, clicks = [], []
    for _ in range(12):
        ty, tx = (int(v) for v in rng.integers(0, 3, 2))
        before = np.repeat(np.repeat(np.where(tiles, 11, 3).astype(np.int8), 16, 0), 16, 1)
        for ny, nx in ((ty, tx), (ty - 1, tx), (ty + 1, tx), (ty, tx - 1), (ty, tx + 1)):
            if 0 <= ny < 3 and 0 <= nx < 3:
                tiles[ny, nx] = not tiles[ny, nx]
        after = np.repeat(np.repeat(np.where(tiles, 11, 3).astype(np.int8), 16, 0), 16, 1)
        pairs.append((np.pad(before, (8, 8)), np.pad(after, (8, 8))))
        clicks.append((8 + 16 * tx + 8, 8 + 16 * ty + 8))
    assert not detect_hud_from_pairs(pairs, [6] * len(pairs), clicks=clicks).any()


def test_cells_painted_where_clicked_are_game_state_not_hud() -> None:
    """One-way changes on every step, but each exactly at the click: the game answering, not a bar."""
    grid = np.zeros((64, 64), dtype=np.int8)
    pairs, clicks = [], []
    for i in range(10):
        after = grid.copy()
        after[20, 10 + i] = 9
        pairs.append((grid, after))
        clicks.append((10 + i, 20))
        grid = after
    assert not detect_hud_from_pairs(pairs, [6] * 10, clicks=clicks).any()
    assert detect_hud_from_pairs(pairs, [6] * 10).any(), "without click positions it looks like a bar"


def test_area_limit_keeps_big_regions_unmasked() -> None:
    frames, actions = walk(30, 0, bar_every_step=True, counter=False)
    tight = HudSettings(max_area_fraction=0.01)
    assert not detect_hud(frames, actions, tight)[0:2, 0:60].all()
