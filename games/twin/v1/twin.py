"""Twin: one key moves every avatar at once, some of them mirrored (an original DreamTeam game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from arcengine import ARCBaseGame, BlockingMode, Camera, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/twin.py writes this block).
# "moves" maps ACTION1-4 to their (dx, dy) step.
# Each level is a row of rooms drawn side by side; legend: '#' wall, '.' floor, 'A' avatar, 'G' its goal.
# A level's optional "stack": "column" draws its rooms top to bottom instead (they then share a width).
# A room's mode says how it maps the keys (see room_move); "avatar" gives each mode's avatar colour.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"floor": 5, "wall": 3, "goal": 14, "avatar": {"plain": 9, "mirror": 12, "flip": 15}},
    "moves": {"ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0]},
    "levels": [
        {
            "rooms": [
                [
                    "plain",
                    [
                        "#######",
                        "#.....#",
                        "#A...G#",
                        "#.....#",
                        "#######",
                    ],
                ],
                [
                    "mirror",
                    [
                        "#######",
                        "#.....#",
                        "#G..A.#",
                        "#.....#",
                        "#######",
                    ],
                ],
            ],
        },
        {
            "rooms": [
                [
                    "plain",
                    [
                        "#######",
                        "#A....#",
                        "#.....#",
                        "#.....#",
                        "#....G#",
                        "#######",
                    ],
                ],
                [
                    "mirror",
                    [
                        "#######",
                        "#....A#",
                        "#..G..#",
                        "#..#..#",
                        "#.....#",
                        "#######",
                    ],
                ],
            ],
        },
        {
            "rooms": [
                [
                    "plain",
                    [
                        "#######",
                        "#...#.#",
                        "###.G.#",
                        "#.....#",
                        "#...A.#",
                        "#######",
                    ],
                ],
                [
                    "mirror",
                    [
                        "#######",
                        "#.#..##",
                        "#.....#",
                        "#...A.#",
                        "#..G#.#",
                        "#######",
                    ],
                ],
            ],
        },
        {
            "rooms": [
                [
                    "plain",
                    [
                        "#####",
                        "#...#",
                        "#...#",
                        "#.A.#",
                        "#G.##",
                        "#####",
                    ],
                ],
                [
                    "mirror",
                    [
                        "#####",
                        "#...#",
                        "#...#",
                        "##AG#",
                        "#...#",
                        "#####",
                    ],
                ],
                [
                    "flip",
                    [
                        "#####",
                        "#...#",
                        "#.A.#",
                        "#.G##",
                        "#...#",
                        "#####",
                    ],
                ],
            ],
        },
        {
            "rooms": [
                [
                    "plain",
                    [
                        "#####",
                        "#...#",
                        "#..G#",
                        "##..#",
                        "##..#",
                        "#.A.#",
                        "#####",
                    ],
                ],
                [
                    "mirror",
                    [
                        "#####",
                        "##..#",
                        "#.G.#",
                        "##..#",
                        "#...#",
                        "#..A#",
                        "#####",
                    ],
                ],
                [
                    "flip",
                    [
                        "#####",
                        "#.G##",
                        "#...#",
                        "#...#",
                        "#.#.#",
                        "#..A#",
                        "#####",
                    ],
                ],
            ],
        },
    ],
}
# --- end of variant data ---

FLOOR: int = VARIANT["palette"]["floor"]
WALL: int = VARIANT["palette"]["wall"]
GOAL: int = VARIANT["palette"]["goal"]
AVATAR: dict[str, int] = dict(VARIANT["palette"]["avatar"])
MOVES: dict[int, tuple[int, int]] = {
    int(name.removeprefix("ACTION")): (int(dx), int(dy)) for name, (dx, dy) in VARIANT["moves"].items()
}
LEVELS: tuple[dict[str, Any], ...] = tuple(VARIANT["levels"])


def _parse_rooms(rooms: tuple[tuple[str, tuple[str, ...]], ...], stack: str = "row") -> dict[str, Any]:
    """Lay the rooms out left to right (or top to bottom) and collect walls, avatars, goals and modes."""
    walls: set[tuple[int, int]] = set()
    avatars, goals, modes = [], [], []
    offset = 0
    for mode, rows in rooms:
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                cell = (offset + x, y) if stack == "row" else (x, offset + y)
                if ch == "#":
                    walls.add(cell)
                elif ch == "A":
                    avatars.append(cell)
                elif ch == "G":
                    goals.append(cell)
        modes.append(mode)
        offset += len(rows[0]) if stack == "row" else len(rows)
    first = rooms[0][1]
    return {
        "walls": walls,
        "avatars": avatars,
        "goals": goals,
        "modes": modes,
        "size": (offset, len(first)) if stack == "row" else (len(first[0]), offset),
    }


def room_move(mode: str, action: int) -> tuple[int, int]:
    """The step an avatar in a room of this mode takes for a key.

    plain: as the key says; mirror: left/right swapped; flip: up/down swapped; reverse: both swapped;
    turn: the key's direction turned a quarter clockwise (up -> right -> down -> left).
    """
    dx, dy = MOVES[action]
    if mode == "mirror":
        return -dx, dy
    if mode == "flip":
        return dx, -dy
    if mode == "reverse":
        return -dx, -dy
    if mode == "turn":
        return -dy, dx
    return dx, dy


def _build_level(index: int, spec: dict[str, Any]) -> Level:
    """One level: a single board sprite redrawn from the game's state after every action."""
    width, height = _parse_rooms(spec["rooms"], spec.get("stack", "row"))["size"]
    board = Sprite(
        np.full((height, width), FLOOR, dtype=np.int8), name="board", blocking=BlockingMode.NOT_BLOCKED
    )
    return Level(sprites=[board], grid_size=(width, height), data={"spec": spec}, name=f"twin-{index + 1}")


class Twin(ARCBaseGame):
    """Bring every avatar onto the green goal in its own room, all at the same time.

    ACTION1-4 (up/down/left/right) move all avatars at once, one cell each. The blue avatar follows
    the key, the orange one has left and right swapped, the purple one has up and down swapped.
    Grey walls block each avatar separately (a blocked avatar stays while the others move), which is
    the only way to change how the avatars sit relative to each other. Later levels add a third
    avatar and inner walls. (Colours, key directions and room modes are v1's; procedural variants
    change them, see VARIANT and room_move.)
    """

    walls: set[tuple[int, int]]
    avatars: list[tuple[int, int]]
    goals: list[tuple[int, int]]
    modes: list[str]

    def __init__(self, seed: int = 0) -> None:
        levels = [_build_level(i, spec) for i, spec in enumerate(LEVELS)]
        camera = Camera(background=FLOOR, letter_box=FLOOR)
        super().__init__(
            game_id="twin", levels=levels, camera=camera, available_actions=[1, 2, 3, 4], seed=seed
        )

    def on_set_level(self, level: Level) -> None:
        """Parse the level's rooms into the game's state, then draw."""
        spec = level.get_data("spec")
        parsed = _parse_rooms(spec["rooms"], spec.get("stack", "row"))
        self.walls = parsed["walls"]
        self.avatars = parsed["avatars"]
        self.goals = parsed["goals"]
        self.modes = parsed["modes"]
        self._draw()

    def step(self) -> None:
        """Resolve one key: move every avatar its own way, then check whether all stand on their goals."""
        if self.action.id.value in MOVES:
            self.avatars = [
                self._moved(cell, mode) for cell, mode in zip(self.avatars, self.modes, strict=True)
            ]
            if self.avatars == self.goals:
                self.next_level()
        self._draw()
        self.complete_action()

    def _moved(self, cell: tuple[int, int], mode: str) -> tuple[int, int]:
        dx, dy = room_move(mode, self.action.id.value)
        target = (cell[0] + dx, cell[1] + dy)
        return cell if target in self.walls else target

    def _draw(self) -> None:
        """Paint walls, goals and avatars onto the board sprite."""
        board = self.current_level.get_sprites_by_name("board")[0]
        pixels = np.full(board.pixels.shape, FLOOR, dtype=np.int8)
        for x, y in self.walls:
            pixels[y, x] = WALL
        for x, y in self.goals:
            pixels[y, x] = GOAL
        for (x, y), mode in zip(self.avatars, self.modes, strict=True):
            pixels[y, x] = AVATAR[mode]
        board.pixels = pixels
