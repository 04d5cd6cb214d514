"""Procedural `push` variants: random rooms whose start is the position farthest from solved.

Each level is a small walled room with a few inner wall cells and as many targets as blocks (one to
three, more on later levels). A breadth-first search backwards from every solved position (pulling
blocks instead of pushing them) finds the positions the player can solve and their exact distance;
the start is the one farthest from solved, so the shortest solution is known to be that long.

Large variants use bigger rooms with more walls and three to six blocks. Their state spaces are too
big to search one state at a time, so there the backward search keeps, per block configuration, the
player cells at one distance as a bitmask over the room's grid, and gives up on a room after a fixed
amount of work: the start is then the deepest position reached, still at an exact distance. Their
planner runs the same search until it meets the start and walks back down it, one layer per move.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dreamteam.env.procgen.common import (
    Direction,
    FamilySpec,
    VariantData,
    draw_moves,
    draw_palette,
    keyboard_actions,
    rng_for,
)
from dreamteam.env.procgen.search import shortest_path
from dreamteam.types import Action

NAME = "push"
STEPS: tuple[Direction, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))
BLOCKS_PER_LEVEL = (1, 1, 2, 2, 3, 3)
MAX_FLOOR = 26
"""Floor cells per room at most: keeps the three-block searches to a fraction of a second."""
CANDIDATES = 6
LARGE_BLOCKS_PER_LEVEL = (3, 4, 4, 5, 5, 6)
LARGE_CANDIDATES = 4
LARGE_WORK = 16_000
"""Layer entries (a block configuration at one distance) one large room's search visits: about 0.1-0.2 s."""
LARGE_BUDGET = 100_000
"""Layer entries spent on one large level's rooms before the best candidate so far is taken."""
State = tuple[int, int]  # (player cell index, bitmask of block cell indices)
Layer = dict[int, int]
"""Block configuration (grid bitmask) -> bitmask of the grid cells whose player is first reached at one distance."""


@dataclass(frozen=True)
class Room:
    """The floor cells of a room, indexed, with each cell's neighbour index per step (-1 for a wall)."""

    cells: tuple[tuple[int, int], ...]
    near: tuple[tuple[int, ...], ...]
    width: int

    @classmethod
    def of(cls, rows: Sequence[str]) -> Room:
        """Index every non-wall cell of `rows` in reading order."""
        cells = tuple((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c != "#")
        index = {cell: i for i, cell in enumerate(cells)}
        near = tuple(tuple(index.get((x + dx, y + dy), -1) for dx, dy in STEPS) for x, y in cells)
        return cls(cells, near, len(rows[0]))

    def mask(self, rows: Sequence[str], chars: str) -> int:
        """Bitmask of the cells holding one of `chars`."""
        return sum(1 << i for i, (x, y) in enumerate(self.cells) if rows[y][x] in chars)

    def to_grid(self, mask: int) -> int:
        """A bitmask over cell indices as one over the grid (bit y * width + x)."""
        return sum(1 << (y * self.width + x) for i, (x, y) in enumerate(self.cells) if mask >> i & 1)

    def from_grid(self, grid: int) -> int:
        """A bitmask over the grid as one over cell indices."""
        return sum(1 << i for i, (x, y) in enumerate(self.cells) if grid >> (y * self.width + x) & 1)

    @property
    def shifts(self) -> tuple[int, ...]:
        """The grid bit offset of each step of STEPS."""
        return tuple(dy * self.width + dx for dx, dy in STEPS)


@dataclass(frozen=True)
class Profile:
    """How the levels of one size profile are drawn: rooms, acceptance, and the search for the start."""

    width: tuple[int, int] = (6, 9)
    height: tuple[int, int] = (5, 7)
    walls: tuple[int, int] = (0, 20)
    """Percent of the inner cells made walls: at least (and one or more), at most (and two or more)."""
    fill: bool = False
    """Wall in every floor pocket cut off from the biggest one (else such rooms are drawn again)."""
    spare: int = 6
    """Floor cells a room needs beyond one per block."""
    max_floor: int = MAX_FLOOR
    least: tuple[int, int] = (4, 4)
    """A candidate needs a shortest solution of at least least[0] + least[1] * blocks moves."""
    candidates: int = CANDIDATES
    work: int | None = None
    """None: the exact search over single states; else the layered search, stopped after this many entries."""
    budget: int | None = None
    """Layered search entries per level: once spent, the best candidate found so far is taken."""

    def farthest(self, room_: Room, targets: int) -> tuple[State, int, int]:
        """The start, its distance from solved and the search work it took, by this profile's search."""
        if self.work is None:
            return (*farthest_from_solved(room_, targets), 0)
        return deepest_from_solved(room_, targets, self.work)


STANDARD = Profile()


def large_profile(level: int) -> Profile:
    """Level `level` (0-5) of a large variant: rooms from 8-10 x 7-8 up to 13-15 x 10-11 cells, 20-40% walls."""
    return Profile(width=(8 + level, 10 + level), height=(7 + level // 2, 8 + (level + 1) // 2),
                   walls=(20, 35) if level == 0 else (30, 40), fill=True, spare=24 + 4 * level,
                   max_floor=50 + 8 * level, least=(40 + 4 * level, 0), candidates=LARGE_CANDIDATES,
                   work=LARGE_WORK, budget=LARGE_BUDGET)


def generate(seed: int) -> VariantData:
    """A push variant: 6 rooms with 1-3 blocks, palette and a permutation of ACTION1-4."""
    rng = rng_for(NAME, seed)
    return VariantData(NAME, seed, _variant(rng, [(blocks, STANDARD) for blocks in BLOCKS_PER_LEVEL]))


def generate_large(seed: int) -> VariantData:
    """A large push variant: 6 bigger rooms with more walls and 3-6 blocks, shortest solutions of about 45-150 moves."""
    rng = rng_for(NAME, seed, "large")
    shapes = [(blocks, large_profile(i)) for i, blocks in enumerate(LARGE_BLOCKS_PER_LEVEL)]
    return VariantData(NAME, seed, _variant(rng, shapes), "large")


def _variant(rng: random.Random, shapes: Sequence[tuple[int, Profile]]) -> dict[str, object]:
    palette = draw_palette(rng, "floor", ["wall", "player", "target", "block", "block_on_target"])
    moves = draw_moves(rng)
    made = [level_rows(rng, blocks, profile) for blocks, profile in shapes]
    levels = [{"rows": rows} for _, rows in sorted(made, key=lambda pair: pair[0])]
    return {"palette": palette, "moves": moves, "levels": levels}


def level_rows(
    rng: random.Random, blocks: int, profile: Profile = STANDARD
) -> tuple[tuple[int, int], list[str]]:
    """((blocks, shortest solution length), rows): the hardest of a few random rooms and target sets."""
    found: list[tuple[tuple[int, int], list[str]]] = []
    spent = 0
    for _ in range(200):
        rows = room(rng, blocks, profile)
        room_ = Room.of(rows)
        if len(room_.cells) > profile.max_floor:
            continue
        targets = sum(1 << i for i in rng.sample(range(len(room_.cells)), blocks))
        start, distance, work = profile.farthest(room_, targets)
        spent += work
        if distance >= profile.least[0] + profile.least[1] * blocks:
            found.append(((blocks, distance), draw(rows, room_, start, targets)))
        if len(found) == profile.candidates or found and profile.budget is not None and spent >= profile.budget:
            break
    if not found:
        raise ValueError(f"no {blocks}-block room with a long enough solution found")
    return max(found, key=lambda pair: pair[0])


def room(rng: random.Random, blocks: int, profile: Profile = STANDARD) -> list[str]:
    """A walled room of the profile's size with some inner wall cells; every floor cell connected."""
    while True:
        width, height = rng.randint(*profile.width), rng.randint(*profile.height)
        grid = [["#" if x in (0, width - 1) or y in (0, height - 1) else "." for x in range(width)]
                for y in range(height)]
        inner = [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]
        least = max(1, len(inner) * profile.walls[0] // 100)
        most = max(2, len(inner) * profile.walls[1] // 100)
        for x, y in rng.sample(inner, rng.randint(least, most)):
            grid[y][x] = "#"
        rows = _biggest_part(["".join(r) for r in grid]) if profile.fill else ["".join(r) for r in grid]
        if _connected(rows) and len(Room.of(rows).cells) >= blocks + profile.spare:
            return rows


def _biggest_part(rows: Sequence[str]) -> list[str]:
    """Rows with every floor cell outside the biggest connected part of the floor made a wall."""
    room_ = Room.of(rows)
    floor = room_.to_grid((1 << len(room_.cells)) - 1)
    parts, rest = [], floor
    while rest:
        part = _flood(rest & -rest, floor, room_.width)
        parts.append(part)
        rest &= ~part
    keep = max(parts, key=int.bit_count)
    width = room_.width
    return ["".join("#" if (floor & ~keep) >> (y * width + x) & 1 else c for x, c in enumerate(row))
            for y, row in enumerate(rows)]


def _flood(start: int, free: int, width: int) -> int:
    """The cells of `free` connected to `start` (grid bitmasks)."""
    reached = start
    while (grown := reached | _spread(reached, width) & free) != reached:
        reached = grown
    return reached


def _connected(rows: Sequence[str]) -> bool:
    found = Room.of(rows)
    seen, queue = {0}, deque([0])
    while queue:
        for n in found.near[queue.popleft()]:
            if n >= 0 and n not in seen:
                seen.add(n)
                queue.append(n)
    return len(seen) == len(found.cells)


def farthest_from_solved(room_: Room, targets: int) -> tuple[State, int]:
    """The solvable state farthest (in moves) from any solved one, by a backward search over pulls."""
    free = [p for p in range(len(room_.cells)) if not targets >> p & 1]
    dist = {(p, targets): 0 for p in free}
    queue = deque(dist)
    last = queue[0]
    while queue:
        last = queue.popleft()
        for prev in _predecessors(room_, last):
            if prev not in dist:
                dist[prev] = dist[last] + 1
                queue.append(prev)
    return last, dist[last]


def _predecessors(room_: Room, state: State) -> list[State]:
    """States one move before `state`: the player walked in, or walked in pushing the block now ahead."""
    player, blocks = state
    out = []
    for d, back in ((0, 1), (1, 0), (2, 3), (3, 2)):
        came_from = room_.near[player][back]
        if came_from < 0 or blocks >> came_from & 1:
            continue
        out.append((came_from, blocks))
        ahead = room_.near[player][d]
        if ahead >= 0 and blocks >> ahead & 1:
            out.append((came_from, blocks ^ (1 << ahead) ^ (1 << player)))
    return out


def deepest_from_solved(room_: Room, targets: int, work: int) -> tuple[State, int, int]:
    """(start, distance, entries searched): a state as far from solved as the layered search reaches in `work` entries."""
    grid_targets = room_.to_grid(targets)
    last: Layer = {}
    depth, spent = -1, 0
    for layer in pull_layers(room_, grid_targets):
        last, depth, spent = layer, depth + 1, spent + len(layer)
        if spent >= work:
            break
    blocks = min(last, key=lambda config: (config & grid_targets).bit_count())
    player = last[blocks] & -last[blocks]
    return (room_.from_grid(player).bit_length() - 1, room_.from_grid(blocks)), depth, spent


def pull_layers(room_: Room, targets: int) -> Iterator[Layer]:
    """Backward breadth-first search over pulls from every solved position (grid bitmasks), one layer per distance."""
    floor, width = room_.to_grid((1 << len(room_.cells)) - 1), room_.width
    frontier: Layer = {targets: floor & ~targets}
    seen = dict(frontier)
    pulls: dict[int, tuple[int, list[tuple[int, int]]]] = {}
    while frontier:
        yield frontier
        new: Layer = {}
        for blocks, players in frontier.items():
            known = pulls.get(blocks)
            if known is None:
                known = pulls[blocks] = _pull_masks(floor, blocks, room_.shifts)
            free, masks = known
            walked = ((players << 1) | (players >> 1) | (players << width) | (players >> width)) & free
            walked &= ~seen[blocks]
            if walked:
                new[blocks] = new.get(blocks, 0) | walked
            for shift, mask in masks:
                hits = players & mask
                while hits:  # the player steps back from each hit cell, pulling the block ahead onto it
                    player = hits & -hits
                    hits ^= player
                    if shift > 0:
                        pulled, back = blocks ^ (player << shift) ^ player, player >> shift
                    else:
                        pulled, back = blocks ^ (player >> -shift) ^ player, player << -shift
                    if not seen.get(pulled, 0) & back:
                        new[pulled] = new.get(pulled, 0) | back
        for blocks, players in new.items():
            seen[blocks] = seen.get(blocks, 0) | players
        frontier = new


def _spread(cells: int, width: int) -> int:
    return (cells << 1) | (cells >> 1) | (cells << width) | (cells >> width)


def _shift(mask: int, by: int) -> int:
    return mask << by if by >= 0 else mask >> -by


def _pull_masks(floor: int, blocks: int, shifts: Sequence[int]) -> tuple[int, list[tuple[int, int]]]:
    """Free cells of a configuration, and per step (shift) the player cells with a block ahead and a free cell behind."""
    free = floor & ~blocks
    masks = [(shift, _shift(blocks, -shift) & _shift(free, shift)) for shift in shifts]
    return free, [(shift, mask) for shift, mask in masks if mask]


def draw(rows: Sequence[str], room_: Room, start: State, targets: int) -> list[str]:
    """Rows with the player, blocks and targets of `start` written in."""
    player, blocks = start
    grid = [list(row) for row in rows]
    for i, (x, y) in enumerate(room_.cells):
        on_target = bool(targets >> i & 1)
        if i == player:
            grid[y][x] = "+" if on_target else "P"
        elif blocks >> i & 1:
            grid[y][x] = "*" if on_target else "B"
        elif on_target:
            grid[y][x] = "T"
    return ["".join(r) for r in grid]


def solve(rows: Sequence[str]) -> list[Direction]:
    """Unit steps of a shortest solution: breadth-first search forwards over (player, blocks)."""
    room_ = Room.of(rows)
    targets = room_.mask(rows, "T*+")
    start = (room_.mask(rows, "P+").bit_length() - 1, room_.mask(rows, "B*"))
    moves = shortest_path(start, lambda state: _successors(room_, state), lambda state: state[1] == targets)
    if moves is None:
        raise ValueError("no solution")
    return [STEPS[d] for d in moves]


def _successors(room_: Room, state: State) -> list[tuple[int, State]]:
    player, blocks = state
    out = []
    for d in range(4):
        ahead = room_.near[player][d]
        if ahead < 0:
            continue
        if blocks >> ahead & 1:
            behind = room_.near[ahead][d]
            if behind < 0 or blocks >> behind & 1:
                continue
            out.append((d, (ahead, blocks ^ (1 << ahead) ^ (1 << behind))))
        else:
            out.append((d, (ahead, blocks)))
    return out


def solve_layered(rows: Sequence[str]) -> list[Direction]:
    """Unit steps of a shortest solution: the layered backward search until it reaches the start, then down."""
    room_ = Room.of(rows)
    targets = room_.to_grid(room_.mask(rows, "T*+"))
    blocks, player = room_.to_grid(room_.mask(rows, "B*")), room_.to_grid(room_.mask(rows, "P+"))
    layers: list[Layer] = []
    for layer in pull_layers(room_, targets):
        layers.append(layer)
        if layer.get(blocks, 0) & player:
            return _descend(room_, layers, blocks, player)
    raise ValueError("no solution")


def _descend(room_: Room, layers: Sequence[Layer], blocks: int, player: int) -> list[Direction]:
    """Steps from (blocks, player) at distance len(layers) - 1 down to solved, one layer nearer per step."""
    floor = room_.to_grid((1 << len(room_.cells)) - 1)
    steps: list[Direction] = []
    for layer in reversed(layers[:-1]):
        for step, shift in zip(STEPS, room_.shifts, strict=True):
            moved = _forward(floor, blocks, player, shift)
            if moved is not None and layer.get(moved[0], 0) & moved[1]:
                blocks, player = moved
                steps.append(step)
                break
        else:
            raise ValueError("the layered search lost its way down")
    return steps


def _forward(floor: int, blocks: int, player: int, shift: int) -> tuple[int, int] | None:
    """(blocks, player) after one step by `shift`, pushing the block ahead if it can move; None if blocked."""
    ahead = _shift(player, shift)
    if not ahead & floor:
        return None
    if not ahead & blocks:
        return blocks, ahead
    behind = _shift(ahead, shift)
    if not behind & floor & ~blocks:
        return None
    return blocks ^ ahead ^ behind, ahead


def plan(data: VariantData) -> list[list[Action]]:
    """A move-optimal solution per level (forward search; layered backward search for large), as actions."""
    moves = data.variant["moves"]
    solver = solve if data.size == "standard" else solve_layered
    return [keyboard_actions(moves, solver(level["rows"])) for level in data.variant["levels"]]


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
