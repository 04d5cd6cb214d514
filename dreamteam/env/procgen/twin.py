"""Procedural `twin`: random rooms whose avatars share the keys, planned by A* over the joint positions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import prod
from typing import Any

import numpy as np

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
from dreamteam.env.procgen.search import best_candidate, distances
from dreamteam.types import Action

NAME = "twin"
Cell = tuple[int, int]
Joint = tuple[Cell, ...]
STEPS: tuple[Cell, ...] = tuple(DIRECTIONS.values())
MODES = ("plain", "mirror", "flip", "reverse", "turn")
CANDIDATES = 10
LARGE_MODES = 4
LARGE_CANDIDATES = 5
LARGE_OVERSHOOT = 10
"""Large candidates needing more keys than their target plus this are dropped unsolved."""
LARGE_MAX_STATES = 300_000
"""Large candidates whose search expands more joint positions than this are dropped (unsolvable or very long)."""
MAX_BOARD = 32
"""Largest board side of a large level, so every cell is drawn at least 2x2 pixels in the 64x64 frame."""
MAX_JOINT_STATES = 1 << 26
"""Largest product of the avatars' reachable cell counts the planner's closed-set array may span."""
UNSOLVABLE = 1 << 30


@dataclass(frozen=True)
class LevelPlan:
    """Knobs of one generated level: room count and sizes, inner-wall share, stacking direction."""

    rooms: int
    across: int  # most inner cells along the stacking direction (each room draws its own)
    shared: int  # inner cells across it, the same for every room
    wall_share: float
    stack: str
    least_across: int = 3  # fewest inner cells a room may draw along the stacking direction
    spread: int = 1  # avatar/goal pairs drawn per room; the pair farthest apart is kept


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


@dataclass(frozen=True)
class RoomMoves:
    """One avatar's reachable cells by index: the cell each key leads to from each, its start and goal."""

    moves: np.ndarray  # shape (4, cells), keys in the order of STEPS
    start: int
    goal: int

    @property
    def size(self) -> int:
        """Number of cells the avatar can reach."""
        return int(self.moves.shape[1])


def room_moves(level: TwinLevel) -> list[RoomMoves] | None:
    """Every avatar's key table over the cells it can reach, or None when some goal is out of its reach."""
    rooms = []
    for avatar, goal, mode in zip(level.avatars, level.goals, level.modes, strict=True):
        cells = sorted(distances(avatar, lambda cell: cell not in level.walls, STEPS))
        index = {cell: i for i, cell in enumerate(cells)}
        if goal not in index:
            return None
        table = [
            [index.get((x + dx, y + dy), i) for i, (x, y) in enumerate(cells)]
            for dx, dy in (mode_step(mode, step) for step in STEPS)
        ]
        rooms.append(RoomMoves(np.array(table, dtype=np.int32), index[avatar], index[goal]))
    return rooms


def pair_distances(a: RoomMoves, b: RoomMoves) -> np.ndarray:
    """Fewest keys that put two avatars on their goals, from every pair of their cells (flat, a's cell major).

    UNSOLVABLE where they cannot both arrive at once.
    """
    after = [(a.moves[k][:, None] * b.size + b.moves[k][None, :]).ravel() for k in range(len(STEPS))]
    dist = np.full(a.size * b.size, UNSOLVABLE, dtype=np.int32)
    dist[a.goal * b.size + b.goal] = 0
    while True:
        relaxed = np.minimum(dist, np.minimum.reduce([dist[cells] for cells in after]) + 1)
        if np.array_equal(relaxed, dist):
            return dist
        dist = relaxed


class JointSpace:
    """Joint avatar positions packed into integers, with the heuristic "the slowest pair of avatars alone"."""

    def __init__(self, rooms: Sequence[RoomMoves]) -> None:
        self.rooms = list(rooms)
        self.sizes = [room.size for room in self.rooms]
        self.weights = [prod(self.sizes[i + 1 :]) for i in range(len(self.sizes))]
        self.total = prod(self.sizes)
        self.pairs = [
            (i, j, pair_distances(self.rooms[i], self.rooms[j]))
            for i, j in combinations(range(len(self.rooms)), 2)
        ]

    def cells(self, states: np.ndarray) -> list[np.ndarray]:
        """Each avatar's cell index in every one of `states`."""
        return [(states // w) % n for w, n in zip(self.weights, self.sizes, strict=True)]

    def pack(self, cells: Sequence[np.ndarray]) -> np.ndarray:
        """The packed states of one cell-index array per avatar."""
        return np.asarray(sum(c * w for c, w in zip(cells, self.weights, strict=True)), dtype=np.int32)

    def bound(self, cells: Sequence[np.ndarray]) -> np.ndarray:
        """A lower bound on the keys left from each state: the most any pair of its avatars needs alone."""
        bounds: np.ndarray = np.maximum.reduce(
            [table[cells[i] * self.sizes[j] + cells[j]] for i, j, table in self.pairs]
        )
        return bounds

    def moved(self, cells: Sequence[np.ndarray], key: int) -> list[np.ndarray]:
        """Each avatar's cell after one key."""
        return [room.moves[key][c] for room, c in zip(self.rooms, cells, strict=True)]

    def ends(self) -> tuple[int, int]:
        """The packed start and goal states."""
        start = self.pack([np.array([room.start], dtype=np.int32) for room in self.rooms])
        goal = self.pack([np.array([room.goal], dtype=np.int32) for room in self.rooms])
        return int(start[0]), int(goal[0])


def shortest_keys(
    level: TwinLevel, limit: int | None = None, max_states: int | None = None
) -> list[Cell] | None:
    """Fewest keys (as directions) that put every avatar on its goal at once.

    None if the level cannot be solved, needs more than `limit` keys, or the search expands more than
    `max_states` joint positions first.
    """
    rooms = room_moves(level)
    if rooms is None:
        return None
    if (total := prod(room.size for room in rooms)) > MAX_JOINT_STATES:
        raise VariantError(f"twin: {total} joint positions are too many to plan over")
    space = JointSpace(rooms)
    found = _a_star(space, limit, max_states)
    return None if found is None else _unwind(space, *found)


def _a_star(
    space: JointSpace, limit: int | None, max_states: int | None
) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Expand states by rising f = depth + heuristic (a consistent one): (states, their depths, goal depth)."""
    start, goal = space.ends()
    h = int(space.bound(space.cells(np.array([start], dtype=np.int32)))[0])
    buckets: dict[int, list[np.ndarray]] = {h: [np.array([start], dtype=np.int32)]}
    closed = np.zeros(space.total, dtype=bool)
    expanded: list[np.ndarray] = []
    depths: list[np.ndarray] = []
    count = 0
    while buckets and (limit is None or min(buckets) <= limit) and h < UNSOLVABLE:
        frontier = buckets.pop(f := min(buckets))
        while frontier:
            states = _distinct(np.concatenate(frontier))
            states = states[~closed[states]]
            closed[states] = True
            frontier = []
            expanded.append(states)
            depths.append(_expand(space, states, f, closed, buckets, frontier))
            if closed[goal]:
                return np.concatenate(expanded), np.concatenate(depths), f
            count += states.size
            if max_states is not None and count > max_states:
                return None
    return None


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (np.unique hashes, which is far slower on these arrays)."""
    ordered = np.sort(values)
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if ordered.size else ordered


def _expand(
    space: JointSpace,
    states: np.ndarray,
    f: int,
    closed: np.ndarray,
    buckets: dict[int, list[np.ndarray]],
    frontier: list[np.ndarray],
) -> np.ndarray:
    """File the successors of `states` (all of bound f) under their own bounds; return the states' depths."""
    cells = space.cells(states)
    depth = f - space.bound(cells)
    for key in range(len(STEPS)):
        moved = space.moved(cells, key)
        after = space.pack(moved)
        fresh = ~closed[after]
        h = space.bound([c[fresh] for c in moved])
        solvable = h < UNSOLVABLE
        after, bound = after[fresh][solvable], depth[fresh][solvable] + 1 + h[solvable]
        for value in _distinct(bound).tolist():
            (frontier if value == f else buckets.setdefault(value, [])).append(after[bound == value])
    return depth


def _unwind(space: JointSpace, states: np.ndarray, depths: np.ndarray, length: int) -> list[Cell]:
    """The keys of a shortest path to the goal, walked back through the expanded states one depth at a time."""
    current = space.ends()[1]
    keys: list[Cell] = []
    for depth in range(length - 1, -1, -1):
        before = states[depths == depth]
        cells = space.cells(before)
        for key in range(len(STEPS)):
            hits = before[space.pack(space.moved(cells, key)) == current]
            if hits.size:
                current = int(hits[0])
                keys.append(STEPS[key])
                break
    return keys[::-1]


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


def large_level_plan(rng: random.Random, index: int) -> LevelPlan:
    """Large levels: three rooms, then four; rooms as wide as the board allows, taller and wallier each level."""
    rooms = 3 if index < 2 else 4
    across = MAX_BOARD // rooms - 2
    return LevelPlan(
        rooms=rooms,
        across=across,
        shared=rng.randint(6 + 2 * index, 8 + 2 * index),
        wall_share=min(0.3, rng.uniform(0.14, 0.2) + 0.02 * index),
        stack=rng.choice(("row", "column")),
        least_across=across - 2,
        spread=4,
    )


def _room_rows(rng: random.Random, plan: LevelPlan) -> tuple[str, ...]:
    """One room: a wall frame, some inner walls, an avatar 'A' and its goal 'G' on floor cells."""
    across = rng.randint(plan.least_across, plan.across)
    width, height = (across, plan.shared) if plan.stack == "row" else (plan.shared, across)
    inner = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    walls = set(rng.sample(inner, round(len(inner) * plan.wall_share)))
    free = [c for c in inner if c not in walls]
    avatar, goal = max((rng.sample(free, 2) for _ in range(plan.spread)), key=_apart)
    marks = {avatar: "A", goal: "G"}
    return tuple(
        "".join(
            "#" if x in (0, width + 1) or y in (0, height + 1) or (x, y) in walls else marks.get((x, y), ".")
            for x in range(width + 2)
        )
        for y in range(height + 2)
    )


def _apart(pair: Sequence[Cell]) -> int:
    (ax, ay), (bx, by) = pair
    return abs(ax - bx) + abs(ay - by)


def _solved(
    rng: random.Random, plan: LevelPlan, modes: Sequence[str], limit: int | None, max_states: int | None
) -> tuple[dict[str, Any], int, int] | None:
    """One random level, its fewest keys and how many more that is than the slowest lone avatar needs."""
    rooms = tuple((mode, _room_rows(rng, plan)) for mode in rng.sample(list(modes), plan.rooms))
    spec: dict[str, Any] = {"rooms": rooms, "stack": plan.stack}
    level = parse_level(spec)
    alone = [_distance(level.walls, a, g) for a, g in zip(level.avatars, level.goals, strict=True)]
    if None in alone or 0 in alone:
        return None
    keys = shortest_keys(level, limit, max_states)
    if keys is None:
        return None
    gap = len(keys) - max(d for d in alone if d is not None)
    return None if gap < 1 else (spec, len(keys), gap)


def _candidate(
    rng: random.Random, plan: LevelPlan, modes: Sequence[str], index: int
) -> tuple[dict[str, Any], float] | None:
    """One random level and its score (higher is better), or None when it is unusable."""
    found = _solved(rng, plan, modes, None, None)
    if found is None:
        return None
    spec, keys, gap = found
    return spec, gap - 2 * abs(keys - (4 + 3 * index))


def _large_candidate(
    rng: random.Random, plan: LevelPlan, modes: Sequence[str], target: int
) -> tuple[dict[str, Any], float] | None:
    """One random large level with its key count, scored like `_candidate` against `target` keys."""
    found = _solved(rng, plan, modes, target + LARGE_OVERSHOOT, LARGE_MAX_STATES)
    if found is None:
        return None
    spec, keys, gap = found
    return {"level": spec, "keys": keys}, gap - 2 * abs(keys - target)


def generate_level(rng: random.Random, index: int, modes: Sequence[str]) -> dict[str, Any]:
    """The best of a few random candidate levels for this position in the game."""
    plan = level_plan(rng, index)
    best = best_candidate(lambda: _candidate(rng, plan, modes, index), 400, CANDIDATES)
    if best is None:
        raise VariantError(f"twin: no solvable level {index} found for {plan}")
    return best


def generate_large_level(rng: random.Random, index: int, modes: Sequence[str]) -> dict[str, Any]:
    """The best of a few large candidates aiming at 18 keys and 8 more per level: {"level": spec, "keys": n}."""
    plan = large_level_plan(rng, index)
    target = 18 + 8 * index
    best = best_candidate(lambda: _large_candidate(rng, plan, modes, target), 400, LARGE_CANDIDATES)
    if best is None:
        raise VariantError(f"twin: no solvable large level {index} found for {plan}")
    return best


def _palette(rng: random.Random, modes: Sequence[str]) -> dict[str, Any]:
    colours = draw_palette(rng, "floor", ["wall", "goal", *modes])
    return {
        "floor": colours["floor"],
        "wall": colours["wall"],
        "goal": colours["goal"],
        "avatar": {mode: colours[mode] for mode in modes},
    }


def generate(seed: int) -> VariantData:
    """A twin variant: three room modes, palette, key directions and 5-6 levels, all from the seed."""
    rng = rng_for(NAME, seed)
    modes = rng.sample(MODES, 3)
    palette = _palette(rng, modes)
    moves = draw_moves(rng)
    levels = tuple(generate_level(rng, i, modes) for i in range(rng.choice((5, 6))))
    return as_written(NAME, seed, {"palette": palette, "moves": moves, "levels": levels})


def generate_large(seed: int) -> VariantData:
    """A large twin variant: four room modes and 5-6 levels of three, then four big walled rooms."""
    rng = rng_for(NAME, seed, "large")
    modes = rng.sample(MODES, LARGE_MODES)
    palette = _palette(rng, modes)
    moves = draw_moves(rng)
    chosen = [generate_large_level(rng, i, modes) for i in range(rng.choice((5, 6)))]
    ordered = sorted(chosen, key=lambda c: (len(c["level"]["rooms"]), c["keys"]))
    levels = [c["level"] for c in ordered]
    return as_written(NAME, seed, {"palette": palette, "moves": moves, "levels": levels}, "large")


def plan(data: VariantData) -> list[list[Action]]:
    """A solution with the fewest keys per level."""
    return solve_with_keys(data, lambda spec: shortest_keys(parse_level(spec)), "cannot be solved")


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
