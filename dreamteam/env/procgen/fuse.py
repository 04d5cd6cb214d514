"""Procedural `fuse`: random ice rinks with a spark and a door, planned by BFS over (cell, carrying, fuse left)."""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dreamteam.env.procgen.common import (
    DIRECTIONS,
    FamilySpec,
    VariantData,
    VariantError,
    draw_moves,
    draw_palette,
    keyboard_actions,
    rng_for,
)
from dreamteam.types import Action

NAME = "fuse"
Cell = tuple[int, int]
State = tuple[Cell, bool, int]  # player, carrying, actions of fuse left
STEPS: tuple[Cell, ...] = tuple(DIRECTIONS.values())
# Negative coordinates count from the right / bottom edge (the game indexes its pixels with them).
CORNERS: tuple[Cell, ...] = ((0, 0), (-1, 0), (0, -1), (-1, -1))
NO_FUSE = -1  # a fuse that never burns out (to measure how much the real one binds)
CANDIDATES = 12


@dataclass(frozen=True)
class LevelPlan:
    """Knobs of one generated level: size, how many inner walls, how long a carried spark lasts."""

    width: int
    height: int
    walls: int
    fuse: int


@dataclass(frozen=True)
class FuseLevel:
    """A parsed level: walls, door, spark, player start and fuse."""

    walls: frozenset[Cell]
    door: Cell
    spark: Cell
    player: Cell
    fuse: int


def parse_level(spec: Mapping[str, Any]) -> FuseLevel:
    """The level a `VARIANT["levels"]` entry describes."""
    cells = {(x, y): ch for y, row in enumerate(spec["map"]) for x, ch in enumerate(row)}
    return FuseLevel(
        walls=frozenset(c for c, ch in cells.items() if ch == "#"),
        door=next(c for c, ch in cells.items() if ch == "D"),
        spark=next(c for c, ch in cells.items() if ch == "S"),
        player=next(c for c, ch in cells.items() if ch == "P"),
        fuse=int(spec["fuse"]),
    )


def slide(level: FuseLevel, state: State, step: Cell) -> tuple[State, bool]:
    """Outcome of one push under the game's rules: the new state and whether the player left by the door."""
    (x, y), carrying, fuse_left = state
    picked = False
    while True:
        nxt = (x + step[0], y + step[1])
        if nxt in level.walls or (nxt == level.door and not carrying):
            break
        x, y = nxt
        if nxt == level.spark and not carrying:
            carrying, fuse_left, picked = True, level.fuse, True
        if nxt == level.door:
            return ((x, y), carrying, fuse_left), True
    if carrying and not picked and level.fuse != NO_FUSE:
        fuse_left -= 1
        carrying = fuse_left > 0
    return ((x, y), carrying, fuse_left if carrying else 0), False


def shortest_pushes(level: FuseLevel) -> list[Cell] | None:
    """Fewest pushes that take the player through the door while carrying the spark, or None."""
    start: State = (level.player, False, 0)
    parents: dict[State, tuple[State, Cell] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for step in STEPS:
            nxt, exited = slide(level, state, step)
            if exited:
                return [*_unwind(parents, state), step]
            if nxt not in parents:
                parents[nxt] = (state, step)
                queue.append(nxt)
    return None


def _unwind(parents: Mapping[State, tuple[State, Cell] | None], end: State) -> list[Cell]:
    """The pushes that led from the search's start to `end`."""
    steps: list[Cell] = []
    link = parents[end]
    while link is not None:
        previous, step = link
        steps.append(step)
        link = parents[previous]
    return steps[::-1]


def level_plan(rng: random.Random, index: int) -> LevelPlan:
    """Rising difficulty: bigger rinks with more obstacles and a shorter fuse."""
    width, height = min(14, rng.randint(7, 8) + index), min(14, rng.randint(7, 8) + index)
    fuse = [rng.randint(7, 9), rng.randint(5, 6), rng.randint(4, 5), rng.randint(3, 4), 3, 3][min(index, 5)]
    walls = round((width - 2) * (height - 2) * rng.uniform(0.09, 0.14))
    return LevelPlan(width=width, height=height, walls=walls, fuse=fuse)


def _door_cells(plan: LevelPlan) -> list[Cell]:
    """Border cells that are not corners: where a door may sit."""
    w, h = plan.width, plan.height
    return (
        [(x, 0) for x in range(1, w - 1)]
        + [(x, h - 1) for x in range(1, w - 1)]
        + [(0, y) for y in range(1, h - 1)]
        + [(w - 1, y) for y in range(1, h - 1)]
    )


def _draw_map(rng: random.Random, plan: LevelPlan) -> dict[Cell, str] | None:
    """Border walls, scattered inner walls, a door on the border, a player and a spark on the ice."""
    grid = {(x, y): "." for x in range(plan.width) for y in range(plan.height)}
    for x, y in grid:
        if x in (0, plan.width - 1) or y in (0, plan.height - 1):
            grid[(x, y)] = "#"
    interior = [c for c, ch in grid.items() if ch == "."]
    for cell in rng.sample(interior, plan.walls):
        grid[cell] = "#"
    door = rng.choice(_door_cells(plan))
    inside = (min(max(door[0], 1), plan.width - 2), min(max(door[1], 1), plan.height - 2))
    if grid[inside] != ".":
        return None
    grid[door] = "D"
    player, spark = rng.sample([c for c, ch in grid.items() if ch == "."], 2)
    grid[player], grid[spark] = "P", "S"
    return grid


def _candidate(rng: random.Random, plan: LevelPlan, index: int) -> tuple[dict[str, Any], float] | None:
    """One random level and its score (higher is better), or None when it is unusable."""
    grid = _draw_map(rng, plan)
    if grid is None:
        return None
    rows = tuple("".join(grid[(x, y)] for x in range(plan.width)) for y in range(plan.height))
    spec: dict[str, Any] = {"fuse": plan.fuse, "map": rows}
    level = parse_level(spec)
    pushes = shortest_pushes(level)
    unlimited = shortest_pushes(FuseLevel(level.walls, level.door, level.spark, level.player, NO_FUSE))
    if pushes is None or unlimited is None or not 2 + index // 2 <= len(pushes) <= 10 + 3 * index:
        return None
    binding = len(pushes) - len(unlimited)
    closeness = -abs(len(pushes) - (3 + 2.5 * index))
    return spec, closeness + 2 * binding + (6 if index >= 2 and binding > 0 else 0)


def generate_level(rng: random.Random, index: int) -> dict[str, Any]:
    """The best of a few random candidate levels for this position in the game."""
    plan = level_plan(rng, index)
    best: tuple[dict[str, Any], float] | None = None
    tried = 0
    for _ in range(600):
        found = _candidate(rng, plan, index)
        if found is None:
            continue
        tried += 1
        if best is None or found[1] > best[1]:
            best = found
        if tried == CANDIDATES:
            break
    if best is None:
        raise VariantError(f"fuse: no solvable level {index} found for {plan}")
    return best[0]


def generate(seed: int) -> VariantData:
    """A fuse variant: palette, key directions, indicator corner and 5-6 levels, all from the seed."""
    rng = rng_for(NAME, seed)
    palette = draw_palette(rng, "floor", ["wall", "door", "spark", "player"])
    moves = draw_moves(rng)
    indicator = rng.choice(CORNERS)
    levels = tuple(generate_level(rng, i) for i in range(rng.choice((5, 6))))
    variant = {"palette": palette, "indicator": indicator, "moves": moves, "levels": levels}
    return _as_written(NAME, seed, variant)


def plan(data: VariantData) -> list[list[Action]]:
    """A solution with the fewest pushes per level."""
    solutions: list[list[Action]] = []
    for index, spec in enumerate(data.variant["levels"]):
        pushes = shortest_pushes(parse_level(spec))
        if pushes is None:
            raise VariantError(f"{data.game_id}: level {index} cannot be solved")
        solutions.append(keyboard_actions(data.variant["moves"], pushes))
    return solutions


def _as_written(family: str, seed: int, variant: dict[str, Any]) -> VariantData:
    """The variant with tuples turned into lists: the form its data block reads back as."""
    return VariantData(family, seed, json.loads(json.dumps(variant)))


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan)
