"""Procedural `push` variants: random rooms whose start is the position farthest from solved.

Each level is a small walled room with a few inner wall cells and as many targets as blocks (one to
three, more on later levels). A breadth-first search backwards from every solved position (pulling
blocks instead of pushing them) finds the positions the player can solve and their exact distance;
the start is the one farthest from solved, so the shortest solution is known to be that long.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
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
State = tuple[int, int]  # (player cell index, bitmask of block cell indices)


@dataclass(frozen=True)
class Room:
    """The floor cells of a room, indexed, with each cell's neighbour index per step (-1 for a wall)."""

    cells: tuple[tuple[int, int], ...]
    near: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, rows: Sequence[str]) -> Room:
        """Index every non-wall cell of `rows` in reading order."""
        cells = tuple((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c != "#")
        index = {cell: i for i, cell in enumerate(cells)}
        near = tuple(tuple(index.get((x + dx, y + dy), -1) for dx, dy in STEPS) for x, y in cells)
        return cls(cells, near)

    def mask(self, rows: Sequence[str], chars: str) -> int:
        """Bitmask of the cells holding one of `chars`."""
        return sum(1 << i for i, (x, y) in enumerate(self.cells) if rows[y][x] in chars)


def generate(seed: int) -> VariantData:
    """A push variant: 6 rooms with 1-3 blocks, palette and a permutation of ACTION1-4."""
    rng = rng_for(NAME, seed)
    palette = draw_palette(rng, "floor", ["wall", "player", "target", "block", "block_on_target"])
    moves = draw_moves(rng)
    made = [level_rows(rng, blocks) for blocks in BLOCKS_PER_LEVEL]
    levels = [{"rows": rows} for _, rows in sorted(made, key=lambda pair: pair[0])]
    return VariantData(NAME, seed, {"palette": palette, "moves": moves, "levels": levels})


def level_rows(rng: random.Random, blocks: int) -> tuple[tuple[int, int], list[str]]:
    """((blocks, shortest solution length), rows): the hardest of a few random rooms and target sets."""
    found: list[tuple[tuple[int, int], list[str]]] = []
    for _ in range(200):
        rows = room(rng, blocks)
        room_ = Room.of(rows)
        if len(room_.cells) > MAX_FLOOR:
            continue
        targets = sum(1 << i for i in rng.sample(range(len(room_.cells)), blocks))
        start, distance = farthest_from_solved(room_, targets)
        if distance >= 4 + 4 * blocks:
            found.append(((blocks, distance), draw(rows, room_, start, targets)))
        if len(found) == CANDIDATES:
            break
    if not found:
        raise ValueError(f"no {blocks}-block room with a long enough solution found")
    return max(found, key=lambda pair: pair[0])


def room(rng: random.Random, blocks: int) -> list[str]:
    """A walled room, 6-9 x 5-7, with a few inner wall cells; every floor cell connected."""
    width, height = rng.randint(6, 9), rng.randint(5, 7)
    grid = [["#" if x in (0, width - 1) or y in (0, height - 1) else "." for x in range(width)]
            for y in range(height)]
    inner = [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]
    for x, y in rng.sample(inner, rng.randint(1, max(2, len(inner) // 5))):
        grid[y][x] = "#"
    rows = ["".join(r) for r in grid]
    return rows if _connected(rows) and len(Room.of(rows).cells) >= blocks + 6 else room(rng, blocks)


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


def plan(data: VariantData) -> list[list[Action]]:
    """A move-optimal solution per level (forward breadth-first search), as the variant's actions."""
    moves = data.variant["moves"]
    return [keyboard_actions(moves, solve(level["rows"])) for level in data.variant["levels"]]


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan)
