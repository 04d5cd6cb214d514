"""Lava: walk to the goal without touching lava or a patrolling sentry (an original DreamTeam game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from arcengine import ARCBaseGame, BlockingMode, Camera, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/lava.py writes this block).
# Map legend: '#' wall, '.' floor, 'L' lava, 'P' player start, 'G' goal.
# A sentry is (x, y, moves): it takes one move per action and repeats the moves forever.
# "moves" maps ACTION1-4 to their (dx, dy) step; ACTION5 always waits.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"floor": 5, "wall": 3, "lava": 8, "sentry": 12, "goal": 14, "player": 9},
    "moves": {"ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0]},
    "levels": [
        {
            "map": [
                "########",
                "#P.....#",
                "#.LL...#",
                "#.LL.L.#",
                "#....L.#",
                "#LLL.L.#",
                "#....LG#",
                "########",
            ],
            "sentries": [],
        },
        {
            "map": [
                "##########",
                "#P..L....#",
                "#LL.L.LL.#",
                "#...L..L.#",
                "#.LLLL.L.#",
                "#......L.#",
                "#LLLLL.L.#",
                "#G...L...#",
                "#LLL...L.#",
                "##########",
            ],
            "sentries": [],
        },
        {
            "map": [
                "##########",
                "#P...L...#",
                "#....L...#",
                "#....L...#",
                "#........#",
                "#....L...#",
                "#....L..G#",
                "#....L...#",
                "##########",
            ],
            "sentries": [[6, 1, "DDDDDDUUUUUU"]],
        },
        {
            "map": [
                "############",
                "#..L.......#",
                "#..L.LLLLL.#",
                "#..L.L...L.#",
                "#....L.G.L.#",
                "#..L.L...L.#",
                "#..L.LL.LL.#",
                "#..L.......#",
                "#LLLLLLLL.L#",
                "#..........#",
                "#PLLLLLLLLL#",
                "############",
            ],
            "sentries": [[4, 7, "RRRRRRLLLLLL"], [5, 9, "RRRRRLLLLLLLLLRRRR"]],
        },
        {
            "map": [
                "#############",
                "#P..L.......#",
                "#...L.LLLLL.#",
                "#...L.......#",
                "#.......L...#",
                "#LLLL.LLL.LL#",
                "#.....L.....#",
                "#.LLL.L.LLL.#",
                "#.L.......L.#",
                "#.L.LLLLL.L.#",
                "#.....G.....#",
                "#LLLL...LLLL#",
                "#############",
            ],
            "sentries": [[5, 1, "DDDDDDDUUUUUUU"], [7, 3, "RRRRLLLL"], [3, 8, "RRRRRRLLLLLL"]],
        },
    ],
}
# --- end of variant data ---

FLOOR: int = VARIANT["palette"]["floor"]
WALL: int = VARIANT["palette"]["wall"]
LAVA: int = VARIANT["palette"]["lava"]
SENTRY: int = VARIANT["palette"]["sentry"]
GOAL: int = VARIANT["palette"]["goal"]
PLAYER: int = VARIANT["palette"]["player"]
MOVES: dict[int, tuple[int, int]] = {
    int(name.removeprefix("ACTION")): (int(dx), int(dy)) for name, (dx, dy) in VARIANT["moves"].items()
}
MOVES[5] = (0, 0)  # ACTION5 waits one tick
LEVELS: tuple[dict[str, Any], ...] = tuple(VARIANT["levels"])
STEP_OF_LETTER: dict[str, tuple[int, int]] = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def route_cells(x: int, y: int, moves: str) -> list[tuple[int, int]]:
    """The cells a sentry occupies at ticks 0, 1, ... (one full cycle); its moves must end where they start."""
    cells = [(x, y)]
    for letter in moves:
        dx, dy = STEP_OF_LETTER[letter]
        x, y = x + dx, y + dy
        cells.append((x, y))
    if cells[-1] != cells[0]:
        raise ValueError(f"sentry route {moves!r} from {cells[0]} does not return to its start")
    return cells[:-1]


def _cells_of(rows: tuple[str, ...], letter: str) -> set[tuple[int, int]]:
    """All (x, y) cells of a map marked with `letter`."""
    return {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == letter}


def _build_level(index: int, spec: dict[str, Any]) -> Level:
    """One level: a single board sprite redrawn from the game's state after every action."""
    width, height = len(spec["map"][0]), len(spec["map"])
    board = Sprite(
        np.full((height, width), FLOOR, dtype=np.int8), name="board", blocking=BlockingMode.NOT_BLOCKED
    )
    return Level(sprites=[board], grid_size=(width, height), data={"spec": spec}, name=f"lava-{index + 1}")


class Lava(ARCBaseGame):
    """Reach the green goal with the blue player. ACTION1-4 step up/down/left/right, ACTION5 waits.

    Grey walls block. Stepping onto red lava ends the level (GAME_OVER). Orange sentries walk a
    fixed patrol, one cell per action (waiting and bumping into walls also pass time); sharing a
    cell with a sentry, or swapping cells with one, ends the level too. Early levels have lava only;
    later levels add sentries, so you must time your crossing. (Colours and key directions are v1's;
    procedural variants change them, see VARIANT.)
    """

    walls: set[tuple[int, int]]
    lava: set[tuple[int, int]]
    goal: tuple[int, int]
    player: tuple[int, int]
    routes: list[list[tuple[int, int]]]
    tick: int

    def __init__(self, seed: int = 0) -> None:
        levels = [_build_level(i, spec) for i, spec in enumerate(LEVELS)]
        camera = Camera(background=FLOOR, letter_box=FLOOR)
        super().__init__(
            game_id="lava", levels=levels, camera=camera, available_actions=[1, 2, 3, 4, 5], seed=seed
        )

    def on_set_level(self, level: Level) -> None:
        """Parse the level map and sentry routes into the game's state, then draw."""
        spec = level.get_data("spec")
        rows = spec["map"]
        self.walls = _cells_of(rows, "#")
        self.lava = _cells_of(rows, "L")
        self.goal = next(iter(_cells_of(rows, "G")))
        self.player = next(iter(_cells_of(rows, "P")))
        self.routes = [route_cells(x, y, moves) for x, y, moves in spec["sentries"]]
        self.tick = 0
        self._draw()

    def sentries_at(self, tick: int) -> list[tuple[int, int]]:
        """Where every sentry stands at a given tick."""
        return [route[tick % len(route)] for route in self.routes]

    def step(self) -> None:
        """Resolve one action: move (or wait), advance the sentries, then check death and the goal."""
        move = MOVES.get(self.action.id.value)
        if move is not None:
            self._advance(move)
        self._draw()
        self.complete_action()

    def _advance(self, move: tuple[int, int]) -> None:
        """Player moves first, then every sentry takes its next step."""
        old = self.player
        target = (old[0] + move[0], old[1] + move[1])
        if target not in self.walls:
            self.player = target
        before, after = self.sentries_at(self.tick), self.sentries_at(self.tick + 1)
        self.tick += 1
        crossed = any(b == self.player and a == old for b, a in zip(before, after, strict=True))
        if self.player in self.lava or self.player in after or crossed:
            self.lose()
        elif self.player == self.goal:
            self.next_level()

    def _draw(self) -> None:
        """Paint walls, lava, goal, player and (on top) sentries onto the board sprite."""
        board = self.current_level.get_sprites_by_name("board")[0]
        pixels = np.full(board.pixels.shape, FLOOR, dtype=np.int8)
        for cells, colour in (
            (self.walls, WALL),
            (self.lava, LAVA),
            ({self.goal}, GOAL),
            ({self.player}, PLAYER),
        ):
            for x, y in cells:
                pixels[y, x] = colour
        for x, y in self.sentries_at(self.tick):
            pixels[y, x] = SENTRY
        board.pixels = pixels
