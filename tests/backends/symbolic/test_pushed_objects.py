"""Pushed objects: tints (a box that shows another colour on a target) and the pushed unit (one cell or a region)."""

from __future__ import annotations

from typing import Any

import pytest

from dreamteam.backends.symbolic.common.artifact_dyn import lib_tint, lib_try_move
from dreamteam.codec import decode_grid

from .helpers import load
from .test_simulator import held_out_hits, learn
from .worlds import RowWorld, TintWorld, random_moves, record


def tint_changes(world: TintWorld, transitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The transitions where a box went onto a target or off one (the tinted colour's count changed)."""
    return [t for t in transitions
            if (decode_grid(t["after"]) == world.tinted).sum() != (decode_grid(t["before"]) == world.tinted).sum()]


def test_a_box_on_a_target_shows_its_tint_and_leaves_the_target_behind() -> None:
    world = TintWorld(seed=9)
    transitions = record(world, random_moves(9), 300)
    changes = tint_changes(world, transitions)
    assert len(changes) >= 3, "the walk pushes boxes onto targets and off them"
    source = learn(transitions)["patch"]
    assert source is not None
    names = {h["name"] for h in load(source)["HYPOTHESES"]}
    assert f"tint:colour{world.box}:on:colour{world.target}:as:colour{world.tinted}" in names
    assert f"tint:colour{world.tinted}:on:colour{world.floor}:as:colour{world.box}" in names
    assert f"push:colour{world.player}:colour{world.tinted}" in names
    assert all(held_out_hits(source, changes))


def test_without_a_tint_no_tint_is_learned() -> None:
    world = TintWorld(seed=9, tinted=12)  # the box keeps its colour on a target
    transitions = record(world, random_moves(9), 300)
    source = learn(transitions)["patch"]
    assert source is not None
    assert not [h for h in load(source)["HYPOTHESES"] if h["name"].startswith("tint:")]
    assert "dyn_TINTS = {}" in source


def test_tint_helper_recolours_landing_cells_and_uncovers_what_a_tinted_box_left() -> None:
    before = [[5, 9, 12, 6], [5, 5, 7, 5]]
    out = [[5, 5, 9, 12], [5, 5, 7, 5]]
    assert lib_tint(before, out, {12: {6: 7}}, {7: 6}, [9, 12, 7]) == 1
    assert out == [[5, 5, 9, 7], [5, 5, 7, 5]]
    left = [[5, 5, 7, 5]]
    moved = [[5, 5, 5, 12]]
    assert lib_tint(left, moved, {7: {5: 12}}, {7: 6}, [9, 12, 7]) == 1
    assert moved == [[5, 5, 6, 12]]


def test_single_cell_pushes_stop_at_the_next_block_while_regions_move_together() -> None:
    grid = [[5, 9, 12, 12, 5, 5]]
    region = [list(r) for r in grid]
    single = [list(r) for r in grid]
    assert lib_try_move(region, 9, 1, 0, [3], [12], 5, [])
    assert region == [[5, 5, 9, 12, 12, 5]]
    assert not lib_try_move(single, 9, 1, 0, [3], [12], 5, [], True)
    assert single == grid


@pytest.mark.parametrize("seed", [1, 4])
def test_side_by_side_boxes_are_learned_as_separate_objects(seed: int) -> None:
    world = RowWorld(seed=seed)
    transitions = record(world, random_moves(seed), 300)
    source = learn(transitions[:220])["patch"]
    assert source is not None
    units = [h for h in load(source)["HYPOTHESES"] if h["name"] == f"push-unit:colour{world.player}:cell"]
    assert units and units[0]["status"] == "adopted" and units[0]["evidence"] > units[0]["against"]
    assert all(held_out_hits(source, transitions[220:]))
