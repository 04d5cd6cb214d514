"""Procedural `twin`: random rooms whose avatars share the keys, planned by BFS over the joint positions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamteam.env.procgen.common import (
    DIRECTIONS,
    FamilySpec,
    VariantData,
    VariantError,
    as_written,
    draw_moves,
    draw_palette,
    rng_for,
    solve_with_keys,
)
from dreamteam.env.procgen.search import best_candidate, distances, shortest_path
from dreamteam.types import Action

NAME = "twin"
Cell = tuple[int, int]
Joint = tuple[Cell, ...]
STEPS: tuple[Cell, ...] = tuple(DIRECTIONS.values())
MODES = ("plain", "mirror", "flip", "reverse", "turn")
CANDIDATES = 10


@dataclass(frozen=True)
class LevelPlan:
    """Knobs of one generated level: room count and sizes, inner-wall share, stacking direction."""

    rooms: int
    across: int  # most inner cells along the stacking direction (each room draws its own)
    shared: int  # inner cells across it, the same for every room
    wall_share: float
    stack: str


@dataclass(frozen=True)
class TwinLevel:
    """A parsed level in board coordinates: walls, avatars, their goals and each room's mode."""

    walls: frozenset[Cell]
    avatars: Joint
    goals: Joint
    modes: tuple[str, ...]


def mode_step(mode: str, step: Cell) -> Cell:
    """The step an avatar in a room of this mode takes when the key means `step` (the game's room_move)."""
    dx, dy = step
    return {
        "mirror": (-dx, dy),
        "flip": (dx, -dy),
        "reverse": (-dx, -dy),
        "turn": (-dy, dx),
    }.get(mode, (dx, dy))


def parse_level(spec: Mapping[str, Any]) -> TwinLevel:
    """The level a `VARIANT["levels"]` entry describes, laid out as the game module lays it out."""
    walls: set[Cell] = set()
    avatars: list[Cell] = []
    goals: list[Cell] = []
    row_stack = spec.get("stack", "row") == "row"
    offset = 0
    for _, rows in spec["rooms"]:
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                cell = (offset + x, y) if row_stack else (x, offset + y)
                if ch == "#":
                    walls.add(cell)
                elif ch == "A":
                    avatars.append(cell)
                elif ch == "G":
                    goals.append(cell)
        offset += len(rows[0]) if row_stack else len(rows)
    modes = tuple(str(mode) for mode, _ in spec["rooms"])
    return TwinLevel(frozenset(walls), tuple(avatars), tuple(goals), modes)


def joint_step(level: TwinLevel, joint: Joint, step: Cell) -> Joint:
    """Every avatar takes the key's step as its room maps it, unless a wall is in the way."""
    moved = []
    for (x, y), mode in zip(joint, level.modes, strict=True):
        dx, dy = mode_step(mode, step)
        moved.append((x, y) if (x + dx, y + dy) in level.walls else (x + dx, y + dy))
    return tuple(moved)


def shortest_keys(level: TwinLevel) -> list[Cell] | None:
    """Fewest keys (as directions) that put every avatar on its goal at once, or None."""
    return shortest_path(
        level.avatars,
        lambda joint: [(step, joint_step(level, joint, step)) for step in STEPS],
        lambda joint: joint == level.goals,
    )


def _distance(walls: frozenset[Cell], start: Cell, goal: Cell) -> int | None:
    """Steps one avatar alone needs to reach its goal (any key mapping is a bijection of directions)."""
    return distances(start, lambda cell: cell not in walls, STEPS, until=goal).get(goal)


def level_plan(rng: random.Random, index: int) -> LevelPlan:
    """Rising difficulty: two rooms, then three; bigger rooms; more inner walls."""
    return LevelPlan(
        rooms=2 if index < 3 else 3,
        across=rng.randint(3, 4 + (index > 0)),
        shared=rng.randint(3, 4 + (index > 1)),
        wall_share=0.0 if index == 0 else min(0.3, rng.uniform(0.08, 0.16) + 0.03 * index),
        stack=rng.choice(("row", "column")),
    )


def _room_rows(rng: random.Random, plan: LevelPlan) -> tuple[str, ...]:
    """One room: a wall frame, some inner walls, an avatar 'A' and its goal 'G' on floor cells."""
    across = rng.randint(3, plan.across)
    width, height = (across, plan.shared) if plan.stack == "row" else (plan.shared, across)
    inner = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    walls = set(rng.sample(inner, round(len(inner) * plan.wall_share)))
    avatar, goal = rng.sample([c for c in inner if c not in walls], 2)
    marks = {avatar: "A", goal: "G"}
    return tuple(
        "".join(
            "#" if x in (0, width + 1) or y in (0, height + 1) or (x, y) in walls else marks.get((x, y), ".")
            for x in range(width + 2)
        )
        for y in range(height + 2)
    )


def _candidate(
    rng: random.Random, plan: LevelPlan, modes: Sequence[str], index: int
) -> tuple[dict[str, Any], float] | None:
    """One random level and its score (higher is better), or None when it is unusable."""
    rooms = tuple((mode, _room_rows(rng, plan)) for mode in rng.sample(list(modes), plan.rooms))
    spec: dict[str, Any] = {"rooms": rooms, "stack": plan.stack}
    level = parse_level(spec)
    alone = [_distance(level.walls, a, g) for a, g in zip(level.avatars, level.goals, strict=True)]
    if None in alone or 0 in alone:
        return None
    keys = shortest_keys(level)
    if keys is None:
        return None
    gap = len(keys) - max(d for d in alone if d is not None)
    if gap < 1:
        return None
    return spec, gap - 2 * abs(len(keys) - (4 + 3 * index))


def generate_level(rng: random.Random, index: int, modes: Sequence[str]) -> dict[str, Any]:
    """The best of a few random candidate levels for this position in the game."""
    plan = level_plan(rng, index)
    best = best_candidate(lambda: _candidate(rng, plan, modes, index), 400, CANDIDATES)
    if best is None:
        raise VariantError(f"twin: no solvable level {index} found for {plan}")
    return best


def generate(seed: int) -> VariantData:
    """A twin variant: three room modes, palette, key directions and 5-6 levels, all from the seed."""
    rng = rng_for(NAME, seed)
    modes = rng.sample(MODES, 3)
    colours = draw_palette(rng, "floor", ["wall", "goal", *modes])
    palette = {
        "floor": colours["floor"],
        "wall": colours["wall"],
        "goal": colours["goal"],
        "avatar": {mode: colours[mode] for mode in modes},
    }
    moves = draw_moves(rng)
    levels = tuple(generate_level(rng, i, modes) for i in range(rng.choice((5, 6))))
    return as_written(NAME, seed, {"palette": palette, "moves": moves, "levels": levels})


def plan(data: VariantData) -> list[list[Action]]:
    """A solution with the fewest keys per level."""
    return solve_with_keys(data, lambda spec: shortest_keys(parse_level(spec)), "cannot be solved")


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan)
