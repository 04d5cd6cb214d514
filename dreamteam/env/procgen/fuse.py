"""Procedural `fuse`: random ice rinks with a spark and a door, planned by BFS over (cell, carrying, fuse left).

The `large` profile draws bigger, denser rinks, moves the spark where a reachable slide picks it up
within a fuse's reach of the door, and the player where the shortest solution is about as long as the
level's target (found by one backward search over every state of the rink).
"""

from __future__ import annotations

import random
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping
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
Glides = dict[tuple[Cell, bool, Cell], tuple[State, bool]]  # (cell, carrying, step) -> slide outcome
STEPS: tuple[Cell, ...] = tuple(DIRECTIONS.values())
# Negative coordinates count from the right / bottom edge (the game indexes its pixels with them).
CORNERS: tuple[Cell, ...] = ((0, 0), (-1, 0), (0, -1), (-1, -1))
NO_FUSE = -1  # a fuse that never burns out (to measure how much the real one binds)
CANDIDATES = 12
LARGE_CANDIDATES = 8
LARGE_ATTEMPTS = 600
LARGE_SIDE = 32  # the biggest rink that still draws every cell as 2x2 pixels in the 64x64 frame


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


def _spec(grid: Mapping[Cell, str], plan: LevelPlan) -> dict[str, Any]:
    """The `VARIANT["levels"]` entry of a drawn map."""
    rows = tuple("".join(grid[(x, y)] for x in range(plan.width)) for y in range(plan.height))
    return {"fuse": plan.fuse, "map": rows}


def _candidate(rng: random.Random, plan: LevelPlan, index: int) -> tuple[dict[str, Any], float] | None:
    """One random level and its score (higher is better), or None when it is unusable."""
    grid = _draw_map(rng, plan)
    if grid is None:
        return None
    spec = _spec(grid, plan)
    level = parse_level(spec)
    pushes = shortest_pushes(level)
    unlimited = shortest_pushes(FuseLevel(level.walls, level.door, level.spark, level.player, NO_FUSE))
    if pushes is None or unlimited is None or not 2 + index // 2 <= len(pushes) <= 10 + 3 * index:
        return None
    binding = len(pushes) - len(unlimited)
    closeness = -abs(len(pushes) - (3 + 2.5 * index))
    return spec, closeness + 2 * binding + (6 if index >= 2 and binding > 0 else 0)


def generate_level(rng: random.Random, index: int, size: str = "standard") -> dict[str, Any]:
    """The best of a few random candidate levels for this position in the game and size profile."""
    if size == "large":
        plan = large_level_plan(rng, index)
        best = best_candidate(lambda: _large_candidate(rng, plan, index), LARGE_ATTEMPTS, LARGE_CANDIDATES)
    else:
        plan = level_plan(rng, index)
        best = best_candidate(lambda: _candidate(rng, plan, index), 600, CANDIDATES)
    if best is None:
        raise VariantError(f"fuse: no solvable level {index} found for {plan}")
    return best


def generate(seed: int, size: str = "standard") -> VariantData:
    """A fuse variant: palette, key directions, indicator corner and 5-6 levels, all from the seed and size."""
    rng = rng_for(NAME, seed, size)
    palette = draw_palette(rng, "floor", ["wall", "door", "spark", "player"])
    moves = draw_moves(rng)
    indicator = rng.choice(CORNERS)
    levels = tuple(generate_level(rng, i, size) for i in range(rng.choice((5, 6))))
    if size == "large":  # targets overlap a little: keep the levels in order of solution length
        levels = tuple(sorted(levels, key=lambda spec: len(shortest_pushes(parse_level(spec)) or ())))
    variant = {"palette": palette, "indicator": indicator, "moves": moves, "levels": levels}
    return as_written(NAME, seed, variant, size)


def large_level_plan(rng: random.Random, index: int) -> LevelPlan:
    """Large rinks: from the standard profile's last size (13-16 a side) up to 32, denser walls, fuse 3-5."""
    width = min(LARGE_SIDE, rng.randint(13, 16) + 3 * index)
    height = min(LARGE_SIDE, rng.randint(13, 16) + 3 * index)
    walls = round((width - 2) * (height - 2) * rng.uniform(0.17, 0.23))
    return LevelPlan(width=width, height=height, walls=walls, fuse=rng.randint(3, 5))


def _after(level: FuseLevel, glides: Glides, state: State, step: Cell) -> tuple[State, bool]:
    """`slide`, with the slide itself looked up by (cell, carrying, step) in `glides`; only the fuse differs."""
    cell, carrying, fuse_left = state
    key = (cell, carrying, step)
    if key not in glides:
        glides[key] = slide(level, (cell, carrying, 2), step)
    (end, still_carrying, _), exited = glides[key]
    if exited or not carrying:
        return (end, still_carrying, level.fuse if still_carrying else 0), exited
    if level.fuse == NO_FUSE:
        return (end, True, fuse_left), False
    return ((end, True, fuse_left - 1) if fuse_left > 1 else (end, False, 0)), False


def exit_distances(level: FuseLevel, starts: Iterable[State]) -> dict[State, int]:
    """Fewest pushes to leave by the door from every state reachable from `starts` that can leave."""
    queue = deque(starts)
    seen: set[State] = set(queue)
    before: defaultdict[State, list[State]] = defaultdict(list)
    distance: dict[State, int] = {}
    glides: Glides = {}
    while queue:
        state = queue.popleft()
        for step in STEPS:
            nxt, exited = _after(level, glides, state, step)
            if exited:
                distance[state] = 1
                continue
            before[nxt].append(state)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    queue = deque(distance)
    while queue:
        state = queue.popleft()
        for earlier in before[state]:
            if earlier not in distance:
                distance[earlier] = distance[state] + 1
                queue.append(earlier)
    return distance


def _crossings(level: FuseLevel) -> dict[Cell, set[Cell]]:
    """Ice cells that slides from rests the player can reach (without the spark) pass over, and their steps."""
    rests = {level.player}
    queue = deque(rests)
    crossings: defaultdict[Cell, set[Cell]] = defaultdict(set)
    while queue:
        x, y = queue.popleft()
        for dx, dy in STEPS:
            cell = (x + dx, y + dy)
            while cell not in level.walls and cell != level.door:
                crossings[cell].add((dx, dy))
                cell = (cell[0] + dx, cell[1] + dy)
            rest = (cell[0] - dx, cell[1] - dy)
            if rest not in rests:
                rests.add(rest)
                queue.append(rest)
    return crossings


def _carry_needs(level: FuseLevel, crossings: Mapping[Cell, set[Cell]]) -> dict[Cell, int]:
    """For each crossed cell, the fewest carried pushes that reach the door after sliding over it with the spark."""
    endless = FuseLevel(level.walls, level.door, level.spark, level.player, NO_FUSE)
    carry = exit_distances(endless, [(cell, True, NO_FUSE) for cell in crossings])
    needs: dict[Cell, int] = {}
    for cell, steps in crossings.items():
        for step in steps:
            (end, _, _), exited = slide(endless, (cell, True, NO_FUSE), step)
            need = 0 if exited else carry.get((end, True, NO_FUSE))
            if need is not None:
                needs[cell] = min(need, needs.get(cell, need))
    return needs


def _place_spark(rng: random.Random, grid: dict[Cell, str], level: FuseLevel) -> bool:
    """Move the spark to a cell the player can slide over that leaves 1 to `fuse` carried pushes; False if none."""
    crossings = {c: steps for c, steps in _crossings(level).items() if grid[c] == "."}
    fits = sorted(c for c, need in _carry_needs(level, crossings).items() if 1 <= need <= level.fuse)
    if not fits:
        return False
    cell = rng.choice(fits)
    grid[level.spark], grid[cell] = ".", "S"
    return True


def _place_player(rng: random.Random, grid: dict[Cell, str], level: FuseLevel, aim: float) -> int | None:
    """Move the player to a cell whose shortest solution is nearest `aim` pushes; that length, or None."""
    starts = [c for c, ch in grid.items() if ch in ".P"]
    distance = exit_distances(level, [(c, False, 0) for c in starts])
    lengths = {c: distance[(c, False, 0)] for c in starts if (c, False, 0) in distance}
    if not lengths:
        return None
    nearest = min(abs(n - aim) for n in lengths.values())
    cell = rng.choice(sorted(c for c, n in lengths.items() if abs(n - aim) == nearest))
    grid[level.player], grid[cell] = ".", "P"
    return lengths[cell]


def resting_cells(level: FuseLevel) -> set[Cell]:
    """Cells the player can come to rest on from its start (spark carried or not) without leaving."""
    start: State = (level.player, False, 0)
    seen = {start}
    queue = deque(seen)
    while queue:
        state = queue.popleft()
        for step in STEPS:
            nxt, exited = slide(level, state, step)
            if not exited and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return {cell for cell, _, _ in seen}


def _large_candidate(rng: random.Random, plan: LevelPlan, index: int) -> tuple[dict[str, Any], float] | None:
    """One random large level, spark and player placed for a solution near the target length, and its score."""
    grid = _draw_map(rng, plan)
    if grid is None or not _place_spark(rng, grid, parse_level(_spec(grid, plan))):
        return None
    aim = 15 + 3 * index
    pushes = _place_player(rng, grid, parse_level(_spec(grid, plan)), aim)
    if pushes is None or pushes < aim - 4:
        return None
    spec = _spec(grid, plan)
    level = parse_level(spec)
    unlimited = shortest_pushes(FuseLevel(level.walls, level.door, level.spark, level.player, NO_FUSE))
    binding = pushes - len(unlimited or ())
    roomy = len(resting_cells(level)) / sum(ch != "#" for ch in grid.values())
    return spec, -abs(pushes - aim) + 2 * min(binding, 4) + (6 if binding > 0 else 0) + 20 * roomy


def generate_large(seed: int) -> VariantData:
    """A large fuse variant: 5-6 levels of 13-32-cell rinks whose solutions take 15-30 pushes."""
    return generate(seed, "large")


def plan(data: VariantData) -> list[list[Action]]:
    """A solution with the fewest pushes per level."""
    return solve_with_keys(data, lambda spec: shortest_pushes(parse_level(spec)), "cannot be solved")


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
