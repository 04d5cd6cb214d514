"""The symbolic observer: a lossless parse for any frame, scale recovery, and roles from feedback."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from RestrictedPython import compile_restricted

from dreamteam.backends.symbolic.common.artifact_lib import (
    lib_boundaries,
    lib_downsample,
    lib_fits,
    lib_geometry,
    lib_parse,
    lib_rebuild,
    lib_render,
)
from dreamteam.backends.symbolic.common.frames import (
    banded_geometry,
    boundaries,
    boxed_geometry,
    downsample,
    fits,
    frame_geometry,
    scale_hints,
)
from dreamteam.backends.symbolic.obs_source import observable_source
from dreamteam.backends.symbolic.observer import feedback_entities
from dreamteam.codec import encode_grid

from .helpers import ask, load, sandboxed
from .worlds import MazeWorld, random_moves, record

OBSERVABLE = load(observable_source([], {}))


@st.composite
def scaled_frames(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """A random logical grid upscaled by 1..10 and placed anywhere in a letterboxed 64x64 frame."""
    scale = draw(st.integers(1, 10))
    cols, rows = draw(st.integers(1, 64 // scale)), draw(st.integers(1, 64 // scale))
    ox, oy = draw(st.integers(0, 64 - cols * scale)), draw(st.integers(0, 64 - rows * scale))
    palette = draw(st.lists(st.integers(0, 15), min_size=1, max_size=6, unique=True))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    logical = rng.choice(palette, size=(rows, cols))
    frame = np.full((64, 64), draw(st.integers(0, 15)), dtype=np.int8)
    frame[oy : oy + rows * scale, ox : ox + cols * scale] = np.kron(logical, np.ones((scale, scale), dtype=np.int8))
    return frame, scale


@given(st.integers(0, 2**32 - 1), st.integers(1, 16))
@settings(max_examples=40, deadline=None)
def test_round_trip_is_exact_for_noise_frames(seed: int, colours: int) -> None:
    frame = np.random.default_rng(seed).integers(0, colours, size=(64, 64)).tolist()
    z = OBSERVABLE["parse"](frame)
    assert OBSERVABLE["render"](z) == frame


@given(scaled_frames())
@settings(max_examples=60, deadline=None)
def test_round_trip_is_exact_for_scaled_letterboxed_frames(case: tuple[np.ndarray, int]) -> None:
    frame, scale = case
    z = OBSERVABLE["parse"](frame.tolist())
    assert OBSERVABLE["render"](z) == frame.tolist()
    assert z["scale"] == 1 or z["scale"] % scale == 0
    assert len(z["grid"]) == z["rows"] and all(len(row) == z["columns"] for row in z["grid"])


@given(scaled_frames())
@settings(max_examples=40, deadline=None)
def test_numpy_geometry_matches_the_artifact(case: tuple[np.ndarray, int]) -> None:
    frame, _ = case
    assert boundaries(frame) == lib_boundaries(frame.tolist())
    z = lib_parse(frame.tolist(), [], {})
    assert list(frame_geometry(frame, [])) == [z["scale"], z["x_offset"], z["y_offset"]]


def test_busy_frame_recovers_scale_offset_and_objects() -> None:
    world = MazeWorld(seed=1, scale=4)
    z = OBSERVABLE["parse"](world.frame().tolist())
    ox, oy = world.offset()
    assert z["scale"] == 4 and (z["x_offset"] - ox) % 4 == 0 and (z["y_offset"] - oy) % 4 == 0
    assert z["background"] == world.floor
    player = [o for o in z["objects"] if o["color"] == world.player]
    assert len(player) == 1 and player[0]["size"] == 1
    cx, cy = player[0]["cells"][0]
    assert world.frame()[z["y_offset"] + cy * 4, z["x_offset"] + cx * 4] == world.player


def test_render_of_hand_made_state() -> None:
    z = {"width": 5, "height": 3, "scale": 2, "x_offset": 1, "y_offset": 0, "grid": [[1, 2]], "fill": 7,
         "residual": [[0, 2, 3]]}
    assert lib_render(z) == [[7, 1, 1, 2, 2], [7, 1, 1, 2, 2], [3, 7, 7, 7, 7]]
    clipped = {**z, "width": 4}
    assert lib_render(clipped) == [[7, 1, 1, 2], [7, 1, 1, 2], [3, 7, 7, 7]]


def test_observer_learns_roles_from_feedback_and_frames() -> None:
    world = MazeWorld(seed=3)
    transitions = record(world, random_moves(1), 30)
    frames = [transitions[0]["before"]] + [t["after"] for t in transitions]
    feedback = 'earlier text | notes\nentities: {"controllable": {"colours": [' + str(world.player) + "]}}"
    reply = ask("observer", {"frames": frames, "parse_errors": [], "feedback": feedback})
    source = reply["patch"]
    assert source is not None and "scale" in reply["notes"]
    namespace = load(source)
    assert namespace["ENTITY_TYPES"]["controllable"]["colours"] == [world.player]
    assert world.player in namespace["ENTITY_TYPES"]["moving"]["colours"]
    z = namespace["parse"](world.frame().tolist())
    roles = {o["color"]: o["role"] for o in z["objects"]}
    assert roles[world.player] == "controllable" and roles[world.wall] == ""
    again = ask("observer", {"frames": frames, "parse_errors": [], "feedback": ""}, surface=source)
    assert again["patch"] is None


def test_observable_compiles_restricted_and_runs_in_the_sandbox() -> None:
    world = MazeWorld(seed=2)
    frames = [encode_grid(world.frame())]
    source = ask("observer", {"frames": frames, "parse_errors": [], "feedback": ""})["patch"]
    compile_restricted(source, "<observable>", "exec")
    namespace = sandboxed(source, "observer")
    frame = world.frame().tolist()
    assert namespace["render"](namespace["parse"](frame)) == frame


def test_feedback_entities_takes_the_last_valid_line() -> None:
    text = 'entities: {"goal": {"colours": [3]}}\nnoise\nentities: {"goal": {"colours": [4]}}\nentities: {bad'
    assert feedback_entities(text) == {"goal": {"colours": [4]}}
    assert feedback_entities("nothing here") == {}


@given(scaled_frames(), st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63), st.integers(0, 15)), max_size=6),
       st.integers(1, 10), st.integers(0, 9), st.integers(0, 9))
@settings(max_examples=80, deadline=None)
def test_the_numpy_fit_matches_the_artifact_fit(case: tuple[np.ndarray, int], marks: list[tuple[int, int, int]],
                                               scale: int, ox: int, oy: int) -> None:
    """`frames.fits` (numpy) and `lib_fits` (the artifacts') agree on any frame and geometry, also with stray
    pixels anywhere (in the margin or inside the cells)."""
    frame, _ = case
    for x, y, colour in marks:
        frame[y, x] = colour
    for geometry in ([scale, ox, oy], [scale, ox, oy, 1 + ox, 1 + oy]):  # also with columns and rows
        for stray_lines in (0, 4):
            assert fits(frame, geometry, stray_lines) == lib_fits(frame.tolist(), geometry, stray_lines)
        assert downsample(frame, tuple(geometry)).tolist() == lib_downsample(frame.tolist(), geometry)
    hints = scale_hints([frame])
    assert list(frame_geometry(frame, hints)) == lib_geometry(frame.tolist(), hints)


def test_a_grid_drawn_inside_a_margin_with_a_hud_is_found_and_parsed_as_cells() -> None:
    """A 10x10 grid at 6 pixels a cell in a 2-pixel margin whose top row holds HUD dots: the gcd of the frame's
    colour boundaries is 1, but every whole cell inside the margin is one colour, so the hints find the
    grid (scale 6, offset 2) and the observable parses 10x10 cells, the dots kept outside them."""
    world = MazeWorld(seed=1, size=10, bar=False, scale=6)
    frame = world.frame()
    frame[1, 1::3] = 8
    assert frame_geometry(frame, []) == (1, 0, 0)
    hints = scale_hints([frame])
    assert hints[0] == [6, 2, 2]
    z = lib_parse(frame.tolist(), hints, {})
    assert (z["scale"], z["x_offset"], z["y_offset"], z["rows"], z["columns"]) == (6, 2, 2, 10, 10)
    assert lib_render(z) == frame.tolist()
    plain = np.full((64, 64), 5, dtype=np.int8)
    assert boxed_geometry(plain) is None  # a single colour fits any scale: no grid to find


def test_a_stray_pixel_over_the_cells_keeps_the_hinted_grid_but_a_finer_pattern_does_not() -> None:
    """A flash of one pixel drawn over a cell (two or three stray lines) keeps the frame on the hinted grid,
    so the logical layout does not change from frame to frame; a pattern finer than the cells does not fit."""
    world = MazeWorld(seed=1, size=10, bar=False, scale=6)
    frame = world.frame()
    hints = scale_hints([frame])
    frame[3, 4] = 11
    assert frame_geometry(frame, hints) == (6, 2, 2)
    frame[30:33, 30:33] = 12
    frame[45, 20:23] = 13
    assert frame_geometry(frame, hints) != (6, 2, 2)


def _board_with_strip(top: bool) -> tuple[np.ndarray, np.ndarray]:
    """A 7x8 board of 8-pixel cells with an 8-pixel HUD strip of one-pixel detail above or below it."""
    cells = np.random.default_rng(5).integers(0, 4, (7, 8)).astype(np.int8)
    frame = np.zeros((64, 64), dtype=np.int8)
    board = np.repeat(np.repeat(cells, 8, axis=0), 8, axis=1)
    strip = 2 if top else 59
    if top:
        frame[8:] = board
    else:
        frame[:56] = board
    frame[strip, 3:40] = 5
    frame[strip + 2, 10] = 7
    return frame, cells


def test_a_board_beside_a_hud_strip_is_read_as_cells_and_the_strip_kept() -> None:
    """Board games often draw an 8-pixel grid with a HUD strip of one-pixel counters or bars above or below it:
    no grid fits the whole frame or a box inside a margin, but a band of whole cell rows does. The observable
    parses the band as cells and keeps the strip as residual pixels (lossless), the numpy and artifact
    readings agree, and a state rebuilt from its own geometry keeps the band's rows."""
    for top, geometry in ((True, (8, 0, 8)), (False, (8, 0, 0, 8, 7))):
        frame, cells = _board_with_strip(top)
        assert frame_geometry(frame, []) == (1, 0, 0)
        assert boxed_geometry(frame) is None
        assert banded_geometry(frame) == geometry
        hints = scale_hints([frame])
        assert tuple(hints[0]) == geometry
        assert list(frame_geometry(frame, hints)) == lib_geometry(frame.tolist(), hints)
        z = lib_parse(frame.tolist(), hints, {})
        assert (z["rows"], z["columns"]) == (7, 8) and z["grid"] == cells.tolist()
        assert lib_render(z) == frame.tolist()
        rebuilt = lib_rebuild(z, frame.tolist(), [], [])
        assert (rebuilt["rows"], rebuilt["columns"], rebuilt["y_offset"]) == (7, 8, z["y_offset"])
    plain = np.zeros((64, 64), dtype=np.int8)
    plain[60, 1:9] = 3  # detail in a strip over one colour: nothing to read as a board
    assert banded_geometry(plain) is None
