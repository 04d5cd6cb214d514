"""From a regression window to `WorldRules`: movers, clicks, counters, touch events, remembered scenes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dreamteam.codec import encode_grid
from dreamteam.roles.symbolic.artifact_lib import lib_background, lib_leftover
from dreamteam.roles.symbolic.clicks import learn_click
from dreamteam.roles.symbolic.describe import describe, describe_covers
from dreamteam.roles.symbolic.evidence import MotionCache, Transition
from dreamteam.roles.symbolic.frames import LogicalFrame
from dreamteam.roles.symbolic.layers import learn_restored
from dreamteam.roles.symbolic.model import Scene, WorldRules, apply_moves, apply_patrols
from dreamteam.roles.symbolic.movers import background_colour, learn_moves
from dreamteam.roles.symbolic.patrols import learn_patrols, window_changes
from dreamteam.roles.symbolic.ticks import learn_ticks, tick_mask
from dreamteam.roles.symbolic.tints import learn_tints, with_tinted_pushables

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


def learn_touches(transitions: Sequence[Transition], rules: WorldRules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(goal colours, fatal colours): entered just before a level-up / a game over and never otherwise."""
    safe: set[int] = set()
    goal: set[int] = set()
    fatal: set[int] = set()
    window = window_changes(transitions) if rules.patrols else {}
    for t in transitions:
        if not t.before.same_layout(t.after) and not t.level_up:
            continue
        out = t.before.grid.tolist()
        moved, entered = apply_moves(rules, out, t.label)
        apply_patrols(rules, t.before.grid.tolist(), out, window.get(t.index, []), entered)
        if not moved and not entered:
            continue
        if t.level_up:
            goal.update(entered)
        elif t.game_over:
            fatal.update(entered)
        else:
            safe.update(entered)
    return tuple(sorted(goal - safe)), tuple(sorted(fatal - safe))


def learn(transitions: Sequence[Transition], cache: MotionCache, hints: Sequence[Sequence[int]]) -> WorldRules:
    """Learn every rule family from the window and name the hypotheses."""
    hint_tuple = tuple((int(h[0]), int(h[1]), int(h[2])) for h in hints)
    moves = tuple(learn_moves(transitions, cache))
    patrols = learn_patrols(transitions, background_colour(transitions))
    walking = {p.colour for p in patrols}
    moves = tuple(m for m in moves if m.colour not in walking)
    tints = learn_tints(transitions, cache) if moves else ()
    rules = WorldRules(hints=hint_tuple, moves=with_tinted_pushables(moves, tints), patrols=patrols, tints=tints)
    rules = replace(rules, click=learn_click(transitions), scenes=learn_scenes(transitions))
    restored, covers = learn_restored(transitions, rules)
    rules = replace(rules, restored=restored)
    ticks = tuple(learn_ticks(transitions, rules))
    if ticks and rules.click is not None:
        rules = replace(rules, click=learn_click(transitions, ignore=lambda t: tick_mask(t, ticks)))
    rules = replace(rules, ticks=ticks)
    goals, fatal = learn_touches(transitions, rules)
    rules = replace(rules, goals=goals, fatal=fatal)
    return replace(rules, hypotheses=tuple(describe(rules, transitions) + describe_covers(covers)))
