"""Procedural `maze` variants: random mazes (with loops later on), budgets, colours and action directions.

Each level is a maze carved on a grid of cells (walls between them); later levels are larger, have
more loops (so several routes exist and only the shortest fits) and less slack between the move
budget and the shortest path. Start and exit are the two ends of a longest shortest path.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dreamteam.env.procgen import search
from dreamteam.env.procgen.common import (
    Direction,
    FamilySpec,
    VariantData,
    draw_moves,
    draw_palette,
    keyboard_actions,
    rng_for,
)
from dreamteam.types import Action

NAME = "maze"
Cell = tuple[int, int]
STEPS: tuple[Direction, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))


LARGE_HARDNESS = (1.5, 4.0)
"""Hardness range of the large profile's levels (standard levels span 0-1)."""
LARGE_LOOPINESS = 0.4
"""Extra openings per cell of maze side in a large level (a few loops; many would shorten every path)."""
LARGE_SIDES = (15, 14)
"""Most maze cells across and down in a large level: 31 x 29 characters plus the budget bar fit 64 pixels at scale 2."""


def generate(seed: int) -> VariantData:
    """A maze variant: 5-7 levels of growing mazes, a palette and a permutation of ACTION1-4."""
    rng = rng_for(NAME, seed)
    palette = draw_palette(rng, "floor", ["wall", "player", "exit", "bar"])
    moves = draw_moves(rng)
    count = rng.choice((5, 6, 7))
    layouts = [layout(rng, i / (count - 1)) for i in range(count)]
    return VariantData(NAME, seed, {"palette": palette, "moves": moves, "levels": budgeted(rng, layouts)})


def generate_large(seed: int) -> VariantData:
    """A large maze variant: 6 levels from about the standard profile's last maze up to 15 x 14 cells."""
    rng = rng_for(NAME, seed, "large")
    palette = draw_palette(rng, "floor", ["wall", "player", "exit", "bar"])
    moves = draw_moves(rng)
    low, high = LARGE_HARDNESS
    layouts = [layout(rng, low + (high - low) * i / 5, LARGE_SIDES, LARGE_LOOPINESS) for i in range(6)]
    variant = {"palette": palette, "moves": moves, "levels": budgeted(rng, layouts)}
    return VariantData(NAME, seed, variant, "large")


def budgeted(rng: random.Random, layouts: list[tuple[list[str], int]]) -> list[dict[str, object]]:
    """Levels ordered by shortest path, each with a budget whose slack shrinks from about 8 to 0-1."""
    levels = []
    count = len(layouts)
    for i, (rows, shortest) in enumerate(sorted(layouts, key=lambda pair: pair[1])):
        slack = max(0, round(8 * (1 - i / (count - 1)) + rng.uniform(-1, 1)))
        levels.append({"rows": rows, "budget": shortest + slack})
    return levels


def layout(
    rng: random.Random, hardness: float, sides: tuple[int, int] = (10, 10), loopiness: float | None = None
) -> tuple[list[str], int]:
    """Rows of one maze and its shortest path length; `hardness` (0-1 standard) sets size and loops.

    `sides` caps the number of cells across and down; `loopiness`, when given, sets the loops instead.
    """
    area = round(9 + hardness * 40 + rng.uniform(-2, 3))
    width = rng.randint(max(3, round(area**0.5 * 0.7)), min(sides[0], round(area**0.5 * 1.4)))
    height = max(3, min(sides[1], round(area / width)))
    loops = hardness if loopiness is None else loopiness
    rows = carve(rng, width, height, loops=round(loops * (width + height) / 2))
    start, goal = far_pair(rows, rng)
    rows = mark(mark(rows, start, "P"), goal, "E")
    return rows, len(shortest_steps(rows, start, goal))


def carve(rng: random.Random, width: int, height: int, loops: int) -> list[str]:
    """Rows of a `width` x `height`-cell maze (2w+1 x 2h+1 characters) with `loops` extra openings."""
    grid = [["#"] * (2 * width + 1) for _ in range(2 * height + 1)]
    start = (rng.randrange(width), rng.randrange(height))
    grid[2 * start[1] + 1][2 * start[0] + 1] = "."
    if rng.random() < 0.5:
        _backtracker(rng, grid, start, width, height)
    else:
        _prim(rng, grid, start, width, height)
    closed = [
        (x, y) for y in range(1, 2 * height) for x in range(1, 2 * width)
        if grid[y][x] == "#" and (x + y) % 2 == 1
    ]
    for x, y in rng.sample(closed, min(loops, len(closed))):
        grid[y][x] = "."
    return ["".join(row) for row in grid]


def _open_neighbours(grid: list[list[str]], cell: Cell, width: int, height: int) -> list[Cell]:
    x, y = cell
    near = [(x + dx, y + dy) for dx, dy in STEPS]
    return [(a, b) for a, b in near if 0 <= a < width and 0 <= b < height and grid[2 * b + 1][2 * a + 1] == "#"]


def _join(grid: list[list[str]], a: Cell, b: Cell) -> None:
    grid[2 * b[1] + 1][2 * b[0] + 1] = "."
    grid[a[1] + b[1] + 1][a[0] + b[0] + 1] = "."


def _backtracker(rng: random.Random, grid: list[list[str]], start: Cell, width: int, height: int) -> None:
    """Depth-first carving: long winding corridors."""
    stack = [start]
    while stack:
        options = _open_neighbours(grid, stack[-1], width, height)
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        _join(grid, stack[-1], nxt)
        stack.append(nxt)


def _prim(rng: random.Random, grid: list[list[str]], start: Cell, width: int, height: int) -> None:
    """Randomised Prim carving: many short dead ends."""
    frontier = [(start, n) for n in _open_neighbours(grid, start, width, height)]
    while frontier:
        source, cell = frontier.pop(rng.randrange(len(frontier)))
        if grid[2 * cell[1] + 1][2 * cell[0] + 1] != "#":
            continue
        _join(grid, source, cell)
        frontier += [(cell, n) for n in _open_neighbours(grid, cell, width, height)]


def distances(rows: Sequence[str], start: Cell) -> dict[Cell, int]:
    """Walking distance from `start` to every reachable non-wall cell."""
    return search.distances(start, lambda cell: rows[cell[1]][cell[0]] != "#", STEPS)


def far_pair(rows: Sequence[str], rng: random.Random) -> tuple[Cell, Cell]:
    """Two maze cells (odd coordinates) far apart: a double sweep for a longest shortest path."""
    cells = [(x, y) for y in range(1, len(rows), 2) for x in range(1, len(rows[0]), 2)]
    first = rng.choice(cells)
    for _ in range(2):
        dist = distances(rows, first)
        second = max(cells, key=lambda c: (dist[c], c))
        first, second = second, first
    return (first, second) if rng.random() < 0.5 else (second, first)


def mark(rows: Sequence[str], cell: Cell, char: str) -> list[str]:
    """Rows with `char` written at `cell`."""
    x, y = cell
    return [row if i != y else row[:x] + char + row[x + 1 :] for i, row in enumerate(rows)]


def find(rows: Sequence[str], char: str) -> Cell:
    """The (x, y) of the first `char`."""
    return next((row.index(char), y) for y, row in enumerate(rows) if char in row)


def shortest_steps(rows: Sequence[str], start: Cell, goal: Cell) -> list[Direction]:
    """Unit steps of a shortest walk from `start` to `goal` (backtracked from the goal's distances)."""
    dist = distances(rows, goal)
    if start not in dist:
        raise ValueError("exit unreachable")
    steps: list[Direction] = []
    cell = start
    while cell != goal:
        step = next(s for s in STEPS if dist.get((cell[0] + s[0], cell[1] + s[1]), -1) == dist[cell] - 1)
        steps.append(step)
        cell = (cell[0] + step[0], cell[1] + step[1])
    return steps


def plan(data: VariantData) -> list[list[Action]]:
    """A shortest walk per level, as the variant's actions; fails if one exceeds its budget."""
    solutions = []
    for index, level in enumerate(data.variant["levels"]):
        rows = level["rows"]
        steps = shortest_steps(rows, find(rows, "P"), find(rows, "E"))
        if len(steps) > level["budget"]:
            raise ValueError(f"level {index}: shortest path {len(steps)} exceeds budget {level['budget']}")
        solutions.append(keyboard_actions(data.variant["moves"], steps))
    return solutions


FAMILY = FamilySpec(name=NAME, generate=generate, plan=plan, generate_large=generate_large)
