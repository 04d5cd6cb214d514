"""What a mover covers: the level start's colour comes back where a mover leaves it, when adopted."""

from __future__ import annotations

from dreamteam.backends.symbolic.common.artifact_layer import (
    lib_level_floor,
    lib_restore_covered,
    lib_vacated_cells,
)
from dreamteam.backends.symbolic.worldmodel.layers import CoverEvidence

START = [[5, 5, 5, 5], [5, 9, 6, 5], [5, 5, 8, 5]]
SCENES = [{"geometry": [4, 0, 0], "grid": ["5555", "5965", "5585"], "fill": 5, "residual": []}]


def test_vacated_cells_are_mover_cells_that_changed_to_a_non_mover_colour() -> None:
    before = [[5, 5, 5, 5], [5, 5, 9, 5], [5, 5, 8, 5]]
    out = [[5, 5, 5, 5], [5, 5, 5, 9], [5, 5, 8, 5]]
    assert lib_vacated_cells(before, out, [9]) == [[2, 1]]


def test_restored_colour_reappears_and_others_keep_the_vacated_colour() -> None:
    before = [[5, 5, 5, 5], [5, 5, 9, 5], [5, 5, 8, 5]]
    out = [[5, 5, 5, 5], [5, 5, 5, 9], [5, 5, 8, 5]]
    assert lib_restore_covered(before, out, SCENES, [9], [6]) == 1
    assert out[1][2] == 6
    left = [[5, 5, 5, 5], [5, 5, 5, 9], [5, 5, 8, 5]]
    assert lib_restore_covered(before, left, SCENES, [9], [8]) == 0
    assert left[1][2] == 5


def test_a_level_start_too_different_from_the_grid_is_not_used() -> None:
    assert lib_level_floor(START, SCENES) == START
    other = [[3, 3, 3, 3], [3, 9, 3, 3], [3, 3, 3, 5]]
    assert lib_level_floor(other, SCENES) is None
    assert lib_level_floor([[5]], SCENES) is None


def test_restoring_is_adopted_only_when_it_fits_more_cells() -> None:
    assert CoverEvidence(6, restored=3, vacated=1).adopted
    assert not CoverEvidence(8, restored=2, vacated=2).adopted
    assert not CoverEvidence(15, restored=8, vacated=6).adopted
