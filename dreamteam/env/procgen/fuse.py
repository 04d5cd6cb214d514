"""Procedural `fuse`: random ice rinks with a spark and a door, planned by BFS over (cell, carrying, fuse left)."""

from __future__ import annotations

import random
from collections.abc import Mapping
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
from dreamteam.env.procgen.search import best_candidate, shortest_path
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
    start: State | None = (level.player, False, 0)

    def successors(state: State | None) -> list[tuple[Cell, State | None]]:
        # Leaving through the door ends the search in the stand-in state None.
        assert state is not None
        out: list[tuple[Cell, State | None]] = []
        for step in STEPS:
            nxt, exited = slide(level, state, step)
            out.append((step, None if exited else nxt))
        return out

    return shortest_path(start, successors, lambda state: state is None)


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
    best = best_candidate(lambda: _candidate(rng, plan, index), 600, CANDIDATES)
    if best is None:
        raise VariantError(f"fuse: no solvable level {index} found for {plan}")
    return best


def generate(seed: int) -> VariantData:
    """A fuse variant: palette, key directions, indicator corner and 5-6 levels, all from the seed."""
    rng = rng_for(NAME, seed)
    palette = draw_palette(rng, "floor", ["wall", "door", "spark", "player"])
    moves = draw_moves(rng)
    indicator = rng.choice(CORNERS)
    levels = tuple(generate_level(rng, i) for i in range(rng.choice((5, 6))))
    variant = {"palette": palette, "indicator": indicator, "moves": moves, "levels": levels}
    return as_written(NAME, seed, variant)


def plan(data: VariantData) -> list[list[Action]]:
    """A solution with the fewest pushes per level."""
    return solve_with_keys(data, lambda spec: shortest_pushes(parse_level(spec)), "cannot be solved")


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan)
