"""Remembered scenes (level starts, what lies under movers) and the colours touched before a level-up or a loss."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from dreamteam.backends.symbolic.common.artifact_dyn import lib_unhex
from dreamteam.backends.symbolic.common.artifact_lib import lib_background, lib_leftover
from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition
from dreamteam.backends.symbolic.common.frames import LogicalFrame, colour_table
from dreamteam.backends.symbolic.worldmodel.model import Scene, WorldRules, apply_moves, apply_patrols
from dreamteam.backends.symbolic.worldmodel.patrols import window_changes
from dreamteam.codec import encode_grid

MAX_SCENES = 8


def scene_of(frame: LogicalFrame) -> Scene:
    """A frame as a remembered scene (exactly re-renderable)."""
    grid = frame.grid.tolist()
    fill, residual = lib_leftover(frame.display.tolist(), grid, list(frame.geometry), lib_background(grid))
    return Scene(frame.geometry, tuple(encode_grid(frame.grid)), int(fill), tuple((x, y, c) for x, y, c in residual))


def learn_scenes(transitions: Sequence[Transition]) -> tuple[Scene, ...]:
    """Level starts: frames after RESET or a level-up, and the frame before step 0."""
    frames = []
    for t in transitions:
        if t.step == 0:
            frames.append(t.before)
        if t.label == "RESET" or t.level_up:
            frames.append(t.after)
    scenes: dict[tuple[object, ...], Scene] = {}
    for frame in frames:
        scene = scene_of(frame)
        key = (scene.geometry, scene.grid)
        scenes.pop(key, None)
        scenes[key] = scene
    return tuple(scenes.values())[-MAX_SCENES:]


def learn_unders(transitions: Sequence[Transition], scenes: Sequence[Scene], movers: Sequence[int]) -> tuple[Scene, ...]:
    """Scenes with what lies under their movers: a cell a mover covered at the level start, seen with another
    colour once a mover left it (the latest sighting wins), in the scene `lib_level_floor` picks."""
    if not scenes or not movers:
        return tuple(scenes)
    grids = [np.array(lib_unhex(list(s.grid)), dtype=np.int8) for s in scenes]
    table = colour_table(movers)
    found: list[dict[tuple[int, int], int]] = [{} for _ in scenes]
    for t in transitions:
        if not t.local:
            continue
        before, after = t.before.grid, t.after.grid
        left = table[before] & ~table[after]
        if not left.any():
            continue
        index = _nearest(before, grids)
        if index is None:
            continue
        for y, x in np.argwhere(left & table[grids[index]]).tolist():
            found[index][(x, y)] = int(after[y, x])
    return tuple(replace(s, under=tuple(sorted((x, y, c) for (x, y), c in f.items()))) if f else s
                 for s, f in zip(scenes, found, strict=True))


def _nearest(grid: np.ndarray, scenes: Sequence[np.ndarray]) -> int | None:
    """The index of the scene `lib_level_floor` would take as the floor of `grid` (closest, first on ties,
    at most a quarter of the cells different), or None."""
    best, distance = None, -1
    for i, scene in enumerate(scenes):
        if scene.shape != grid.shape:
            continue
        d = int((scene != grid).sum())
        if best is None or d < distance:
            best, distance = i, d
    return best if best is not None and 4 * distance <= grid.size else None


def learn_touches(transitions: Sequence[Transition], rules: WorldRules,
                  cache: MotionCache | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(goal colours, fatal colours): entered just before a level-up / a game over and never otherwise."""
    safe: set[int] = set()
    goal: set[int] = set()
    fatal: set[int] = set()
    window = window_changes(transitions, cache) if rules.patrols else {}
    for t in transitions:
        if (not t.before.same_layout(t.after) and not t.level_up) or t.label == "RESET":
            continue  # (a RESET after a loss starts from the loss: patrollers on the player touch nothing)
        out = t.before.grid.tolist()
        moved, entered = apply_moves(rules, out, t.label)
        # (a patroller's guessed step is no evidence: a touch it predicts may not have happened, and a
        # colour once touched safely is never fatal)
        apply_patrols(rules, t.before.grid.tolist(), out, window.get(t.index, []), entered, guess=False)
        if not moved and not entered:
            continue
        if t.level_up:
            goal.update(entered)
        elif t.game_over:
            fatal.update(entered)
        else:
            safe.update(entered)
    return tuple(sorted(goal - safe)), tuple(sorted(fatal - safe))
