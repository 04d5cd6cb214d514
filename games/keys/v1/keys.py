"""Keys: collect keys and step on switch plates to open coloured doors on the way to the exit."""

from __future__ import annotations

import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, Level, Sprite

CELL = 2  # each map cell is drawn as a 2x2 block so keys, plates and doors have distinct shapes

# Everything a procedural variant may change (dreamteam/env/procgen/keys.py writes this block):
# palette and group_colours (one colour per door group), the 2x2 shapes (1 = drawn) of keys, plates
# and open doors, the (dx, dy) step of each action, and the map of each level. Map legend: "#" wall,
# "." floor, "P" start, "E" exit; per colour group: "RYVO" closed door, "ryvo" open door, "1234" key,
# "5678" switch plate.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"floor": 5, "wall": 3, "player": 9, "exit": 14},
    "group_colours": [8, 11, 15, 12],
    "shapes": {"key": [[1, 0], [0, 1]], "plate": [[0, 0], [1, 1]], "open": [[1, 0], [0, 0]]},
    "moves": {"ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0]},
    "levels": [
        {
            "rows": [
                "#########",
                "#P..#...#",
                "#...R.E.#",
                "#.1.#...#",
                "#########",
            ],
        },
        {
            "rows": [
                "###########",
                "#P..#.....#",
                "#...R..2..#",
                "#.1.#######",
                "#...Y.....#",
                "#...#...E.#",
                "###########",
            ],
        },
        {
            "rows": [
                "###########",
                "#P....#...#",
                "#.....V.E.#",
                "#..7..#...#",
                "###########",
            ],
        },
        {
            "rows": [
                "#############",
                "#P....v.....#",
                "#.....#..7..#",
                "#######V#####",
                "#.....#.....#",
                "#..E..R..1..#",
                "#############",
            ],
        },
        {
            "rows": [
                "#############",
                "#P..#.1.#...#",
                "#.7.o...O.E.#",
                "#.8.#...#...#",
                "#V####R######",
                "#...........#",
                "#############",
            ],
        },
        {
            "rows": [
                "###############",
                "#P..#.....#...#",
                "#...V..2..#.E.#",
                "#.7.#..8..#...#",
                "##v########Y###",
                "#.....O.......#",
                "###############",
            ],
        },
    ],
}
# --- end of variant data ---

PALETTE: dict[str, int] = VARIANT["palette"]
FLOOR = PALETTE["floor"]  # background
WALL = PALETTE["wall"]
PLAYER = PALETTE["player"]
EXIT = PALETTE["exit"]
GROUP_COLOURS: tuple[int, ...] = tuple(VARIANT["group_colours"])

CLOSED_DOORS = "RYVO"
OPEN_DOORS = "ryvo"
KEYS = "1234"
PLATES = "5678"

SHAPES: dict[str, list[list[int]]] = {"solid": [[1, 1], [1, 1]], **VARIANT["shapes"]}

MOVES: dict[GameAction, tuple[int, int]] = {
    GameAction[name]: (dx, dy) for name, (dx, dy) in VARIANT["moves"].items()
}

LEVELS: list[list[str]] = [level["rows"] for level in VARIANT["levels"]]


GROUP_KINDS = ((CLOSED_DOORS, "solid"), (OPEN_DOORS, "open"), (KEYS, "key"), (PLATES, "plate"))


def cell_look(char: str) -> tuple[str, int] | None:
    """Shape name and colour a map character is drawn with (None for floor and the player)."""
    if char == "#":
        return "solid", WALL
    if char == "E":
        return "solid", EXIT
    for chars, shape in GROUP_KINDS:
        if char in chars:
            return shape, GROUP_COLOURS[chars.index(char)]
    return None


def board_pixels(cells: list[list[str]]) -> np.ndarray:
    """Pixels of every wall, door, key, plate and the exit (transparent floor)."""
    out = np.full((len(cells) * CELL, len(cells[0]) * CELL), -1, dtype=np.int8)
    for y, row in enumerate(cells):
        for x, char in enumerate(row):
            look = cell_look(char)
            if look is not None:
                mask = np.array(SHAPES[look[0]]) > 0
                block = out[y * CELL : (y + 1) * CELL, x * CELL : (x + 1) * CELL]
                block[mask] = look[1]
    return out


def start_cell(rows: list[str]) -> tuple[int, int]:
    """The (x, y) of the player's start cell."""
    return next((row.index("P"), y) for y, row in enumerate(rows) if "P" in row)


def build_level(index: int, rows: list[str]) -> Level:
    """Build the board and player sprites of one level."""
    cells = [list(row.replace("P", ".")) for row in rows]
    px, py = start_cell(rows)
    sprites = [
        Sprite(board_pixels(cells), name="board", x=0, y=0, layer=0, tags=["board"]),
        Sprite(
            np.full((CELL, CELL), PLAYER), name="player", x=px * CELL, y=py * CELL, layer=1, tags=["player"]
        ),
    ]
    size = (len(rows[0]) * CELL, len(rows) * CELL)
    return Level(sprites=sprites, grid_size=size, data={"rows": rows}, name=f"keys-{index}")


class Keys(ARCBaseGame):
    """Lead the player through walls to the exit; coloured doors block the way.

    ACTION1-4 each move the player one cell (v1: up, down, left, right). Solid coloured blocks are
    closed doors; a door drawn with its open shape (v1: a single corner dot) can be walked through.
    Stepping on a key (v1: diagonal pair of dots) removes it and every door of its colour for good.
    Stepping on a switch plate (v1: a low bar) toggles every door of its colour: closed ones open,
    open ones close. The plate stays and works again. Later levels mix several colours, so the
    order of visits matters. v1 colours: blue player, grey walls, green exit, red/yellow/violet/
    orange groups; generated variants recolour every kind, reshape keys, plates and open doors and
    permute the directions of ACTION1-4.
    """

    def __init__(self, seed: int = 0) -> None:
        self.cells: list[list[str]] = []
        levels = [build_level(i, rows) for i, rows in enumerate(LEVELS)]
        super().__init__(
            game_id="keys",
            levels=levels,
            camera=Camera(background=FLOOR, letter_box=FLOOR),
            available_actions=[1, 2, 3, 4],
            seed=seed,
        )

    def on_set_level(self, level: Level) -> None:
        """Rebuild the map state from the level's layout when it starts or restarts."""
        self.cells = [list(row.replace("P", ".")) for row in level.get_data("rows")]

    @property
    def player_cell(self) -> tuple[int, int]:
        """The player's (x, y) map cell."""
        player = self.current_level.get_sprites_by_name("player")[0]
        return player.x // CELL, player.y // CELL

    def step(self) -> None:
        """Resolve one action: move unless a wall or closed door is in the way."""
        move = MOVES.get(self.action.id)
        if move is not None:
            self._move(*move)
        self.complete_action()

    def _move(self, dx: int, dy: int) -> None:
        x, y = self.player_cell
        x, y = x + dx, y + dy
        char = self.cells[y][x]
        if char == "#" or char in CLOSED_DOORS:
            return
        self.current_level.get_sprites_by_name("player")[0].set_position(x * CELL, y * CELL)
        if char == "E":
            self.next_level()
        elif char in KEYS:
            self.cells[y][x] = "."
            self._remove_doors(KEYS.index(char))
        elif char in PLATES:
            self._toggle_doors(PLATES.index(char))

    def _remove_doors(self, group: int) -> None:
        doors = (CLOSED_DOORS[group], OPEN_DOORS[group])
        self.cells = [["." if c in doors else c for c in row] for row in self.cells]
        self._redraw()

    def _toggle_doors(self, group: int) -> None:
        swap = {CLOSED_DOORS[group]: OPEN_DOORS[group], OPEN_DOORS[group]: CLOSED_DOORS[group]}
        self.cells = [[swap.get(c, c) for c in row] for row in self.cells]
        self._redraw()

    def _redraw(self) -> None:
        self.current_level.get_sprites_by_name("board")[0].pixels = board_pixels(self.cells)
