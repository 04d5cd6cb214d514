"""Procedural `keys` variants: rooms joined by coloured doors, with keys and switch plates placed at random.

A level is a lattice of rooms (more rooms and colour groups on later levels). Neighbouring rooms are
joined through a spanning tree of doorways, each a plain opening or a door of some colour group,
closed or open, plus a few extra doors that make loops. Every group in play gets keys or plates.
Candidates are kept only if the planner solves them, the exit cannot be reached without using a key
or plate, and the shortest solution uses enough keys and plates; the hardest of a few candidates wins.
The `large` profile uses the same builders on lattices of up to 6 x 5 rooms with more keys and plates.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from dreamteam.env.procgen.common import (
    Direction,
    FamilySpec,
    VariantData,
    draw_moves,
    draw_palette,
    keyboard_actions,
    rng_for,
)
from dreamteam.env.procgen.maze import mark
from dreamteam.env.procgen.search import unwind
from dreamteam.types import Action

NAME = "keys"
CLOSED_DOORS, OPEN_DOORS, KEYS, PLATES = "RYVO", "ryvo", "1234", "5678"
ITEMS = KEYS + PLATES
STEPS: tuple[Direction, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))
Board = tuple[str, ...]
State = tuple[int, int, Board]
Cell = tuple[int, int]


@dataclass(frozen=True)
class Profile:
    """How a size profile draws levels: hardness per level, room lattice, loops, items, search effort."""

    hardness: tuple[float, ...]
    lattice: Callable[[random.Random, float], tuple[list[int], list[int]]]
    """(room widths, room heights) of a candidate's lattice for a hardness."""
    loop_chance: float = 0.25
    items_per_group: tuple[int, ...] = (1, 1, 2)
    candidates: int = 4
    attempts: int = 150


def _standard_lattice(rng: random.Random, hardness: float) -> tuple[list[int], list[int]]:
    """2-4 x 1-2 rooms of 2-4 cells a side."""
    cols = rng.choice(((2, 3), (2, 3), (3, 4), (3, 4))[min(3, int(hardness * 4))])
    rows_n = 1 if hardness < 0.3 else rng.choice((1, 2, 2))
    widths = [rng.randint(2, 4) for _ in range(cols)]
    heights = [rng.randint(2, 3 if rows_n > 1 else 4) for _ in range(rows_n)]
    return widths, heights


def _large_lattice(rng: random.Random, hardness: float) -> tuple[list[int], list[int]]:
    """4-6 x 3-5 rooms (more on harder levels) of 2-4 cells a side: at most 31 x 26 cells."""
    grow = hardness - 1
    cols = min(6, 4 + round(2 * grow + rng.uniform(-0.4, 0.4)))
    rows_n = min(5, 3 + round(2 * grow + rng.uniform(-0.4, 0.4)))
    return [rng.randint(2, 4) for _ in range(cols)], [rng.randint(2, 4) for _ in range(rows_n)]


STANDARD = Profile(tuple(i / 5 for i in range(6)), _standard_lattice)
LARGE = Profile(tuple(1 + i / 5 for i in range(6)), _large_lattice, loop_chance=0.3, items_per_group=(1, 2, 2))


def generate(seed: int) -> VariantData:
    """A keys variant: 6 levels of growing room lattices, palette, piece shapes and ACTION1-4 directions."""
    return VariantData(NAME, seed, _variant(rng_for(NAME, seed), STANDARD))


def generate_large(seed: int) -> VariantData:
    """A large keys variant: 6 levels of 4-6 x 3-5 rooms, aiming at 4-7 key or plate visits each."""
    return VariantData(NAME, seed, _variant(rng_for(NAME, seed, "large"), LARGE), "large")


def _variant(rng: random.Random, profile: Profile) -> dict[str, Any]:
    """The variant literal: palette, group colours, shapes, moves and the profile's levels by difficulty."""
    palette = draw_palette(rng, "floor", ["wall", "player", "exit", "g1", "g2", "g3", "g4"])
    groups = [palette.pop(f"g{i}") for i in range(1, 5)]
    key, plate, open_door = rng.sample(_partial_masks(), 3)
    moves = draw_moves(rng)
    maps = sorted((level_rows(rng, h, profile) for h in profile.hardness), key=lambda pair: pair[0])
    return {
        "palette": palette,
        "group_colours": groups,
        "shapes": {"key": key, "plate": plate, "open": open_door},
        "moves": moves,
        "levels": [{"rows": rows} for _, rows in maps],
    }


def _partial_masks() -> list[list[list[int]]]:
    """Every 2x2 mask with one or two cells drawn: sparse glyphs that never look like a solid block."""
    masks = [[[a, b], [c, d]] for a, b, c, d in product((0, 1), repeat=4)]
    return [m for m in masks if 1 <= sum(map(sum, m)) <= 2]


def level_rows(
    rng: random.Random, hardness: float, profile: Profile = STANDARD
) -> tuple[tuple[int, int], list[str]]:
    """The hardest of a few valid candidate maps at `hardness` (0-1 standard, 1-2 large), and its difficulty.

    A candidate qualifies when its shortest solution uses at least 1 + 3 * hardness keys or plates;
    if none qualifies within the profile's attempts, the hardest valid candidate is taken.
    """
    min_events = 1 + round(hardness * 3)
    best: tuple[tuple[int, int], list[str]] | None = None
    qualified = 0
    for _ in range(profile.attempts):
        rows = candidate(rng, hardness, profile)
        score = difficulty(rows)
        if score is not None and (best is None or score > best[0]):
            best = (score, rows)
        qualified += score is not None and score[0] >= min_events
        if qualified >= profile.candidates:
            break
    if best is None:
        raise ValueError(f"no solvable keys level found in {profile.attempts} attempts")
    return best


def candidate(rng: random.Random, hardness: float, profile: Profile = STANDARD) -> list[str]:
    """A random lattice of rooms with doors, keys, plates, start and exit."""
    widths, heights = profile.lattice(rng, hardness)
    cols, rows_n = len(widths), len(heights)
    xs = [1 + sum(w + 1 for w in widths[:i]) for i in range(cols)]
    ys = [1 + sum(h + 1 for h in heights[:j]) for j in range(rows_n)]
    grid = [["#"] * (xs[-1] + widths[-1] + 1) for _ in range(ys[-1] + heights[-1] + 1)]
    rooms = {(i, j): [(x, y) for x in range(xs[i], xs[i] + widths[i]) for y in range(ys[j], ys[j] + heights[j])]
             for i in range(cols) for j in range(rows_n)}
    for cells in rooms.values():
        for x, y in cells:
            grid[y][x] = "."
    groups = min(4, 1 + int(hardness * 3.2))
    _place_doors(rng, grid, rooms, groups, profile.loop_chance)
    return _place_items(rng, ["".join(r) for r in grid], rooms, groups, profile.items_per_group)


def _place_doors(
    rng: random.Random, grid: list[list[str]], rooms: dict[Cell, list[Cell]], groups: int, loop_chance: float
) -> None:
    """Doorways along a random spanning tree of the room lattice, plus a few loop doors."""
    edges = [(a, b) for a in rooms for b in rooms if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1]
    rng.shuffle(edges)
    joined: dict[Cell, Cell] = {room: room for room in rooms}

    def root(room: Cell) -> Cell:
        while joined[room] != room:
            room = joined[room]
        return room

    for a, b in edges:
        tree_edge = root(a) != root(b)
        if tree_edge or rng.random() < loop_chance:
            joined[root(a)] = root(b)
            x, y = _doorway(rng, rooms[a], rooms[b])
            kind = rng.random()
            if tree_edge and kind < 0.2:
                grid[y][x] = "."
            else:
                group = rng.randrange(groups)
                grid[y][x] = (CLOSED_DOORS if kind < 0.75 else OPEN_DOORS)[group]


def _doorway(rng: random.Random, first: list[Cell], second: list[Cell]) -> Cell:
    """A wall cell lying between a cell of each of two neighbouring rooms."""
    options = []
    for near, far in ((first, set(second)), (second, set(first))):
        options += [(x + dx // 2, y + dy // 2) for x, y in near for dx, dy in ((2, 0), (0, 2)) if (x + dx, y + dy) in far]
    return rng.choice(options)


def _place_items(
    rng: random.Random, rows: list[str], rooms: dict[Cell, list[Cell]], groups: int, counts: Sequence[int]
) -> list[str]:
    """Start and exit in two opposite corner rooms; a few keys/plates per colour group anywhere else."""
    order = sorted(rooms)
    start_room, exit_room = (order[0], order[-1]) if rng.random() < 0.5 else (order[-1], order[0])
    free = [c for cells in rooms.values() for c in cells]
    start = rng.choice(rooms[start_room])
    goal = rng.choice(rooms[exit_room])
    rows = mark(mark(rows, start, "P"), goal, "E")
    free = [c for c in free if c not in (start, goal)]
    rng.shuffle(free)
    for group in range(groups):
        for _ in range(rng.choice(counts)):
            rows = mark(rows, free.pop(), rng.choice((KEYS, PLATES, PLATES))[group])
    return rows


def difficulty(rows: Sequence[str]) -> tuple[int, int] | None:
    """(key/plate uses, length) of the shortest solution, or None if unsolvable or solvable without them."""
    start = start_state(rows)
    try:
        bfs(start, items_block=True)
        return None
    except ValueError:
        pass
    try:
        path = bfs(start)
    except ValueError:
        return None
    boards = _walk(start, path)
    events = sum(a[2] != b[2] for a, b in zip(boards, boards[1:], strict=False))
    return events, len(path)


def start_state(rows: Sequence[str]) -> State:
    """The player's start cell and the board without its `P` marker."""
    x, y = next((row.index("P"), y) for y, row in enumerate(rows) if "P" in row)
    return x, y, tuple(row.replace("P", ".") for row in rows)


def after_entering(board: Board, x: int, y: int) -> Board:
    """The board after the player steps onto (x, y): keys remove their doors, plates toggle theirs."""
    char = board[y][x]
    if char in KEYS:
        group = KEYS.index(char)
        rows = [row if i != y else row[:x] + "." + row[x + 1 :] for i, row in enumerate(board)]
        gone = str.maketrans({CLOSED_DOORS[group]: ".", OPEN_DOORS[group]: "."})
        return tuple(row.translate(gone) for row in rows)
    if char in PLATES:
        group = PLATES.index(char)
        pair = CLOSED_DOORS[group] + OPEN_DOORS[group]
        return tuple(row.translate(str.maketrans(pair, pair[::-1])) for row in board)
    return board


def bfs(start: State, items_block: bool = False) -> list[Direction]:
    """Unit steps of a shortest walk from `start` onto the exit (items block if asked); ValueError if none.

    Breadth-first over (player cell, state of each colour group): once a group's doors are gone its
    other keys and plates change nothing, so a board reduces to which groups are gone and which are
    toggled. Searched in the order of STEPS, this finds the same walk as a search over whole boards.
    """
    x, y, board = start
    width = len(board[0])
    cells = "".join(board)
    moves = [((dx, dy), dx + dy * width) for dx, dy in STEPS]
    first = (y * width + x) << 8
    parents: dict[int, tuple[int, Direction] | None] = {first: None}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        cell, groups = state >> 8, state & 0xFF
        if cells[cell] == "E":
            steps: list[Direction] = unwind(parents, state)
            return steps
        for step, offset in moves:
            after = _entered(cells[cell + offset], groups, items_block)
            if after < 0:
                continue
            nxt = (cell + offset) << 8 | after
            if nxt not in parents:
                parents[nxt] = (state, step)
                queue.append(nxt)
    raise ValueError("exit unreachable")


def _entered(char: str, groups: int, items_block: bool) -> int:
    """Group state after stepping onto `char` (bits 4-7: doors gone, bits 0-3: toggled), or -1 if blocked."""
    gone, toggled = groups >> 4, groups & 0xF
    if char == "#" or (items_block and char in ITEMS):
        return -1
    if char in CLOSED_DOORS:
        return groups if (gone | toggled) >> CLOSED_DOORS.index(char) & 1 else -1
    if char in OPEN_DOORS:
        return -1 if toggled >> OPEN_DOORS.index(char) & 1 else groups
    if char in KEYS:
        bit = 1 << KEYS.index(char)
        return (gone | bit) << 4 | (toggled & ~bit)
    if char in PLATES and not gone >> PLATES.index(char) & 1:
        return groups ^ 1 << PLATES.index(char)
    return groups


def _walk(start: State, steps: Sequence[Direction]) -> list[State]:
    states = [start]
    for step in steps:
        x, y, board = states[-1]
        nx, ny = x + step[0], y + step[1]
        states.append((nx, ny, after_entering(board, nx, ny)))
    return states


def plan(data: VariantData) -> list[list[Action]]:
    """A shortest solution per level (breadth-first over player cell and door states), as actions."""
    moves = data.variant["moves"]
    return [keyboard_actions(moves, bfs(start_state(level["rows"]))) for level in data.variant["levels"]]


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
