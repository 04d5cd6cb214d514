"""Procedural `lava`: random lava fields with patrolling sentries, planned by BFS over (cell, sentry phase)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamteam.env.procgen.common import (
    FamilySpec,
    VariantData,
    VariantError,
    as_written,
    draw_moves,
    draw_palette,
    keyboard_actions,
    rng_for,
    solve_levels,
)
from dreamteam.env.procgen.search import best_candidate, distances
from dreamteam.types import Action

NAME = "lava"
Cell = tuple[int, int]
Deadly = tuple[frozenset[Cell], frozenset[tuple[Cell, Cell]]]
"""At one sentry phase: the cells sentries move onto, and their (from, to) moves."""
Parents = dict[Cell, tuple[Cell, Cell] | None]
WAIT: Cell = (0, 0)
STEPS: tuple[Cell, ...] = (WAIT, (0, -1), (0, 1), (-1, 0), (1, 0))
LETTER_OF_STEP: dict[Cell, str] = {(0, -1): "U", (0, 1): "D", (-1, 0): "L", (1, 0): "R"}
STEP_OF_LETTER: dict[str, Cell] = {letter: step for step, letter in LETTER_OF_STEP.items()}
MAX_PERIOD = 24
CANDIDATES = 10
MAX_RUN = 6
"""Most cells a back-and-forth patrol covers on a standard level."""
LARGE_SIDES = (14, 30)
"""Board side (walls included) of a large variant's first and last level: 2-pixel cells at most 32 wide."""
LARGE_SENTRIES = (3, 9)
"""Sentries on a large variant's first and last level."""
LARGE_CANDIDATES = 5
LARGE_RUN = 7
"""Most cells a back-and-forth patrol covers on a large level (a 12-tick cycle; 8 would take 14)."""


@dataclass(frozen=True)
class LevelPlan:
    """Knobs of one generated level: size, how much lava and wall, how many sentries, how long a solution."""

    width: int
    height: int
    lava_segments: int
    wall_segments: int
    sentries: int
    max_run: int = MAX_RUN
    candidates: int = CANDIDATES
    min_steps: int = 0
    max_steps: int | None = None
    """Bounds on the safe solution's length (None: three steps per cell of width plus height)."""
    far_start: bool = False
    """Start near one end of the floor's longest walk instead of anywhere."""


@dataclass(frozen=True)
class LavaLevel:
    """A parsed level: walls, lava, start, goal and each sentry's cells at ticks 0, 1, ..."""

    walls: frozenset[Cell]
    lava: frozenset[Cell]
    player: Cell
    goal: Cell
    routes: tuple[tuple[Cell, ...], ...]

    @property
    def period(self) -> int:
        """Ticks after which every sentry is back where it started."""
        return math.lcm(*(len(r) for r in self.routes)) if self.routes else 1


def route_cells(x: int, y: int, moves: str) -> tuple[Cell, ...]:
    """The cells a sentry occupies at ticks 0, 1, ... (one cycle), as the game module computes them."""
    cells = [(x, y)]
    for letter in moves:
        dx, dy = STEP_OF_LETTER[letter]
        x, y = x + dx, y + dy
        cells.append((x, y))
    if cells[-1] != cells[0]:
        raise VariantError(f"sentry route {moves!r} from {cells[0]} does not return to its start")
    return tuple(cells[:-1])


def parse_level(spec: Mapping[str, Any]) -> LavaLevel:
    """The level a `VARIANT["levels"]` entry describes."""
    rows: Sequence[str] = spec["map"]
    cells = {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row)}
    return LavaLevel(
        walls=frozenset(c for c, ch in cells.items() if ch == "#"),
        lava=frozenset(c for c, ch in cells.items() if ch == "L"),
        player=next(c for c, ch in cells.items() if ch == "P"),
        goal=next(c for c, ch in cells.items() if ch == "G"),
        routes=tuple(route_cells(int(x), int(y), str(m)) for x, y, m in spec["sentries"]),
    )


def _deadly_by_phase(level: LavaLevel) -> list[Deadly]:
    """Per phase: the cells sentries stand on after the tick, and the (before, after) moves they make."""
    out = []
    for tick in range(level.period):
        moves = [(route[tick % len(route)], route[(tick + 1) % len(route)]) for route in level.routes]
        out.append((frozenset(after for _, after in moves), frozenset(moves)))
    return out


def shortest_steps(level: LavaLevel, *, sentries: bool = True) -> list[Cell] | None:
    """Fewest safe steps (WAIT included) from the start to the goal, or None if there is no way.

    A breadth-first search over (cell, sentry phase), one layer of cells per tick.
    """
    period = level.period if sentries else 1
    deadly = _deadly_by_phase(level) if sentries else [(frozenset(), frozenset())]
    steps = STEPS if sentries else STEPS[1:]
    parents: list[Parents] = [{} for _ in range(period)]
    parents[0][level.player] = None
    layer, tick = [level.player], 0
    while layer and level.goal not in parents[tick % period]:
        layer = _next_layer(level, layer, steps, deadly[tick % period], parents[(tick + 1) % period])
        tick += 1
    return _unwind_steps(parents, level.goal, tick) if layer else None


def _next_layer(
    level: LavaLevel, layer: list[Cell], steps: Sequence[Cell], deadly: Deadly, seen: Parents
) -> list[Cell]:
    """The cells first reached one tick after `layer`, recorded in `seen` with their parent and step.

    The game's rules: a step into a wall stays put; lava kills, and so does ending on a sentry's next
    cell or swapping cells with a sentry.
    """
    occupied, moves = deadly
    reached = []
    for cell in layer:
        for step in steps:
            target = (cell[0] + step[0], cell[1] + step[1])
            new = cell if target in level.walls else target
            if new in seen or new in level.lava or new in occupied or (new, cell) in moves:
                continue
            seen[new] = (cell, step)
            reached.append(new)
    return reached


def _unwind_steps(parents: Sequence[Parents], cell: Cell, tick: int) -> list[Cell]:
    """The steps that led a layered search from its start to `cell` at `tick`."""
    steps: list[Cell] = []
    link = parents[tick % len(parents)][cell]
    while link is not None:
        cell, step = link
        steps.append(step)
        tick -= 1
        link = parents[tick % len(parents)][cell]
    return steps[::-1]


def level_plan(rng: random.Random, index: int) -> LevelPlan:
    """Rising difficulty: bigger boards, more lava, then one to three sentries."""
    width, height = min(15, rng.randint(8, 9) + index), min(15, rng.randint(7, 9) + index)
    area = (width - 2) * (height - 2)
    sentries = min(3, [0, 0, 1, 2, 2, 3][min(index, 5)] + (rng.random() < 0.3 and 0 < index < 5))
    return LevelPlan(
        width=width,
        height=height,
        lava_segments=round(area * (0.09 + 0.025 * index) / 3),
        wall_segments=round(area * 0.03 / 3),
        sentries=int(sentries),
    )


def _segment(rng: random.Random, plan: LevelPlan, length: int) -> list[Cell]:
    """A random horizontal or vertical run of interior cells."""
    if rng.random() < 0.5:
        x, y = rng.randint(1, max(1, plan.width - 1 - length)), rng.randint(1, plan.height - 2)
        return [(x + i, y) for i in range(length) if x + i < plan.width - 1]
    x, y = rng.randint(1, plan.width - 2), rng.randint(1, max(1, plan.height - 1 - length))
    return [(x, y + i) for i in range(length) if y + i < plan.height - 1]


def _draw_terrain(rng: random.Random, plan: LevelPlan) -> dict[Cell, str]:
    """Border walls, then runs of lava and a few runs of inner wall on a floor."""
    grid = {(x, y): "." for x in range(plan.width) for y in range(plan.height)}
    for x, y in grid:
        if x in (0, plan.width - 1) or y in (0, plan.height - 1):
            grid[(x, y)] = "#"
    for count, kind in ((plan.lava_segments, "L"), (plan.wall_segments, "#")):
        for _ in range(count):
            for cell in _segment(rng, plan, rng.randint(2, 5)):
                grid[cell] = kind
    return grid


def _distances(grid: Mapping[Cell, str], start: Cell) -> dict[Cell, int]:
    """Floor distances from `start` avoiding walls and lava."""
    return distances(start, lambda cell: grid.get(cell) == ".", STEPS[1:])


def _ring(corner: Cell, width: int, height: int) -> list[Cell]:
    """The cells around a width x height rectangle, clockwise from its top-left corner."""
    x, y = corner
    top = [(x + i, y) for i in range(width - 1)]
    right = [(x + width - 1, y + i) for i in range(height - 1)]
    bottom = [(x + width - 1 - i, y + height - 1) for i in range(width - 1)]
    left = [(x, y + height - 1 - i) for i in range(height - 1)]
    return top + right + bottom + left


def _patrol_cycle(
    rng: random.Random, anchor: Cell, free: set[Cell], max_run: int = MAX_RUN
) -> list[Cell] | None:
    """A closed patrol through `anchor` over free cells: back and forth along a line, or round a ring."""
    if rng.random() < 0.3:
        w, h = rng.randint(2, 3), rng.randint(2, 3)
        dx, dy = rng.randrange(w), rng.randrange(h)
        ring = _ring((anchor[0] - dx, anchor[1] - dy), w, h)
        return ring if anchor in ring and all(c in free for c in ring) else None
    step = rng.choice(STEPS[1:])
    run = [anchor]
    for sign in (1, -1):
        cell = (anchor[0] + sign * step[0], anchor[1] + sign * step[1])
        while cell in free and len(run) < max_run:
            run = run + [cell] if sign == 1 else [cell, *run]
            cell = (cell[0] + sign * step[0], cell[1] + sign * step[1])
    if len(run) < 3:
        return None
    start = rng.randint(0, len(run) - 3)
    run = run[start : start + rng.randint(3, len(run) - start)]
    return run + run[-2:0:-1]


def _route_of(rng: random.Random, cycle: list[Cell]) -> tuple[int, int, str]:
    """The game's (x, y, moves) form of a patrol cycle, from a random point and in a random direction."""
    if rng.random() < 0.5:
        cycle = cycle[::-1]
    shift = rng.randrange(len(cycle))
    cycle = cycle[shift:] + cycle[:shift]
    moves = "".join(
        LETTER_OF_STEP[(b[0] - a[0], b[1] - a[1])] for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True)
    )
    return cycle[0][0], cycle[0][1], moves


def _place_sentries(
    rng: random.Random, grid: Mapping[Cell, str], path: Sequence[Cell], count: int, max_run: int = MAX_RUN
) -> list[tuple[int, int, str]]:
    """Sentries whose patrols cross the lava-only shortest path, on disjoint floor cells."""
    free = {c for c, ch in grid.items() if ch == "."}
    anchors = [c for c in path[2:-1] if c in free]
    routes: list[tuple[int, int, str]] = []
    period = 1
    for _ in range(12 * count):
        if len(routes) == count or not anchors:
            break
        cycle = _patrol_cycle(rng, rng.choice(anchors), free, max_run)
        if cycle is None or math.lcm(period, len(cycle)) > MAX_PERIOD:
            continue
        period = math.lcm(period, len(cycle))
        free -= set(cycle)
        anchors = [c for c in anchors if c in free]
        routes.append(_route_of(rng, cycle))
    return routes


def _cells_along(start: Cell, steps: Sequence[Cell]) -> list[Cell]:
    """The cells visited when taking `steps` from `start` (walls ignored: steps come from a search)."""
    cells = [start]
    for dx, dy in steps:
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    return cells


def _candidate(rng: random.Random, plan: LevelPlan) -> tuple[dict[str, Any], float] | None:
    """One random level and its score (higher is better), or None when it is unusable."""
    grid = _draw_terrain(rng, plan)
    floor = [c for c, ch in grid.items() if ch == "."]
    player = rng.choice(floor)
    dist = _distances(grid, player)
    if plan.far_start:
        # Start near one end of the floor's longest walk, so the goal is near the other.
        player = rng.choice([c for c, d in dist.items() if d >= 0.9 * max(dist.values())])
        dist = _distances(grid, player)
    far = max(dist.values())
    if len(dist) < len(floor) // 2 or far < (plan.width + plan.height) // 2:
        return None
    goal = rng.choice([c for c, d in dist.items() if d >= 0.75 * far])
    grid[player], grid[goal] = "P", "G"
    lava_only = parse_level({"map": _rows_of(grid, plan), "sentries": []})
    path = _cells_along(player, shortest_steps(lava_only, sentries=False) or [])
    sentries = _place_sentries(rng, grid, path, plan.sentries, plan.max_run)
    if len(sentries) < plan.sentries:
        return None
    spec = {"map": _rows_of(grid, plan), "sentries": tuple(sentries)}
    return spec, _score(parse_level(spec), len(path) - 1, plan)


def _score(level: LavaLevel, free_length: int, plan: LevelPlan) -> float:
    """Prefer long plans in which the sentries force a detour or a wait; -inf when unsolvable."""
    steps = shortest_steps(level)
    longest = 3 * (plan.width + plan.height) if plan.max_steps is None else plan.max_steps
    if steps is None or not plan.min_steps <= len(steps) <= longest:
        return -math.inf
    forced = len(steps) - free_length
    return len(steps) + 3 * forced + (10 if plan.sentries and forced > 0 else 0)


def _rows_of(grid: Mapping[Cell, str], plan: LevelPlan) -> tuple[str, ...]:
    """The map rows of a grid."""
    return tuple("".join(grid[(x, y)] for x in range(plan.width)) for y in range(plan.height))


def generate_level(rng: random.Random, index: int, plan: LevelPlan | None = None) -> dict[str, Any]:
    """The best of a few random candidate levels for this position in the game (or for `plan`)."""
    plan = plan or level_plan(rng, index)

    def draw() -> tuple[dict[str, Any], float] | None:
        found = _candidate(rng, plan)
        return None if found is None or found[1] == -math.inf else found

    best = best_candidate(draw, 400, plan.candidates)
    if best is None:
        raise VariantError(f"lava: no solvable level {index} found for {plan}")
    return best


def generate(seed: int) -> VariantData:
    """A lava variant: palette, key directions and 5-6 levels of rising difficulty, all from the seed."""
    rng = rng_for(NAME, seed)
    palette = draw_palette(rng, "floor", ["wall", "lava", "sentry", "goal", "player"])
    moves = draw_moves(rng)
    levels = tuple(generate_level(rng, i) for i in range(rng.choice((5, 6))))
    return as_written(NAME, seed, {"palette": palette, "moves": moves, "levels": levels})


def large_level_plan(rng: random.Random, index: int, count: int, longer_than: int = 0) -> LevelPlan:
    """Level `index` of `count` large ones, from about the standard profile's last board up to 30 x 30.

    Its safe solution takes 0.8-1.4 steps per cell of width plus height and, unless that would ask for
    more than 1.25, is longer than `longer_than` (the previous level's), so baselines keep rising.
    """
    rise = index / (count - 1)
    side = LARGE_SIDES[0] + rise * (LARGE_SIDES[1] - LARGE_SIDES[0])
    width, height = (min(LARGE_SIDES[1], round(side + rng.uniform(-1.5, 1.5))) for _ in range(2))
    area = (width - 2) * (height - 2)
    sentries = LARGE_SENTRIES[0] + round(rise * (LARGE_SENTRIES[1] - LARGE_SENTRIES[0]))
    return LevelPlan(
        width=width,
        height=height,
        lava_segments=round(area * (0.24 + 0.1 * rise) / 3),
        wall_segments=round(area * 0.05 / 3),
        sentries=sentries,
        max_run=LARGE_RUN,
        candidates=LARGE_CANDIDATES,
        min_steps=max(round(0.8 * (width + height)), min(longer_than + 1, round(1.25 * (width + height)))),
        max_steps=round(1.4 * (width + height)),
        far_start=True,
    )


def generate_large(seed: int) -> VariantData:
    """A large lava variant: 5-6 levels from about the standard profile's last level up to 30 x 30 cells."""
    rng = rng_for(NAME, seed, "large")
    palette = draw_palette(rng, "floor", ["wall", "lava", "sentry", "goal", "player"])
    moves = draw_moves(rng)
    count = rng.choice((5, 6))
    levels: list[dict[str, Any]] = []
    length = 0
    for index in range(count):
        levels.append(generate_level(rng, index, large_level_plan(rng, index, count, length)))
        length = len(shortest_steps(parse_level(levels[-1])) or [])
    return as_written(NAME, seed, {"palette": palette, "moves": moves, "levels": levels}, "large")


def plan(data: VariantData) -> list[list[Action]]:
    """A shortest safe solution per level (ACTION5 for a wait)."""
    moves = data.variant["moves"]

    def solve(spec: Mapping[str, Any]) -> list[Action] | None:
        steps = shortest_steps(parse_level(spec))
        if steps is None:
            return None
        return [Action(5) if s == WAIT else keyboard_actions(moves, [s])[0] for s in steps]

    return solve_levels(data, solve, "has no safe path to the goal")


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
