"""Push: shove every block onto a target square."""

from __future__ import annotations

import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, Level, Sprite

# Everything a procedural variant may change (dreamteam/env/procgen/push.py writes this block):
# palette: colour of each object kind; moves: the (dx, dy) step of each action; levels: the room of
# each level. Legend: "#" wall, "." floor, "P" player, "B" block, "T" target, "*" block on target,
# "+" player on target.
# --- variant data: generated, do not edit ---
VARIANT = {
    "palette": {"floor": 5, "wall": 3, "player": 9, "target": 6, "block": 12, "block_on_target": 14},
    "moves": {"ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0]},
    "levels": [
        {
            "rows": [
                "#######",
                "#.....#",
                "#.B.TP#",
                "#.....#",
                "#######",
            ],
        },
        {
            "rows": [
                "########",
                "#P.....#",
                "#.##T..#",
                "#.#..B.#",
                "#......#",
                "########",
            ],
        },
        {
            "rows": [
                "########",
                "#...#.P#",
                "#.T.B..#",
                "#..#BT.#",
                "#......#",
                "########",
            ],
        },
        {
            "rows": [
                "########",
                "###..P##",
                "#...#..#",
                "#.T..T.#",
                "#..#BB.#",
                "##...###",
                "########",
            ],
        },
        {
            "rows": [
                "#########",
                "##.....##",
                "#.B#.#BP#",
                "#.BTTT..#",
                "#..#.#..#",
                "##.....##",
                "#########",
            ],
        },
        {
            "rows": [
                "#########",
                "##P..####",
                "#..#.B.##",
                "#.TT.T..#",
                "#.BB#...#",
                "###...###",
                "#########",
            ],
        },
    ],
}
# --- end of variant data ---

PALETTE: dict[str, int] = VARIANT["palette"]
FLOOR = PALETTE["floor"]  # background
WALL = PALETTE["wall"]
PLAYER = PALETTE["player"]
TARGET = PALETTE["target"]  # floor mark
BLOCK = PALETTE["block"]
BLOCK_ON_TARGET = PALETTE["block_on_target"]

MOVES: dict[GameAction, tuple[int, int]] = {
    GameAction[name]: (dx, dy) for name, (dx, dy) in VARIANT["moves"].items()
}

LEVELS: list[list[str]] = [level["rows"] for level in VARIANT["levels"]]


def cells_of(rows: list[str], chars: str) -> set[tuple[int, int]]:
    """Every (x, y) whose character is one of `chars`."""
    return {(x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char in chars}


def block_colour(cell: tuple[int, int], targets: set[tuple[int, int]]) -> list[list[int]]:
    """Pixels of a block standing on `cell`: BLOCK_ON_TARGET on a target, BLOCK elsewhere."""
    return [[BLOCK_ON_TARGET if cell in targets else BLOCK]]


def build_level(index: int, rows: list[str]) -> Level:
    """Build the board (walls and targets), block and player sprites of one level."""
    look = {"#": WALL, "T": TARGET, "*": TARGET, "+": TARGET}
    board = np.array([[look.get(c, -1) for c in row] for row in rows], dtype=np.int8)
    targets = cells_of(rows, "T*+")
    ((px, py),) = cells_of(rows, "P+")
    sprites = [Sprite(board, name="board", x=0, y=0, layer=0, tags=["board"])]
    for x, y in sorted(cells_of(rows, "B*")):
        sprites.append(Sprite(block_colour((x, y), targets), name="block", x=x, y=y, layer=1, tags=["block"]))
    sprites.append(Sprite([[PLAYER]], name="player", x=px, y=py, layer=2, tags=["player"]))
    return Level(
        sprites=sprites, grid_size=(len(rows[0]), len(rows)), data={"rows": rows}, name=f"push-{index}"
    )


class Push(ARCBaseGame):
    """Push every block onto a target square.

    ACTION1-4 each move the player one cell (v1: up, down, left, right). Walking into a block pushes
    it one cell if the cell behind it is free floor or target; blocks never move into walls or other
    blocks, and they cannot be pulled. A block on a target changes colour. The level is complete when
    every target holds a block. A block stuck in a corner stays stuck: RESET restarts the level.
    v1 colours: blue player, grey walls, orange blocks, magenta targets, green block on a target;
    generated variants recolour every kind and permute the directions of ACTION1-4.
    """

    def __init__(self, seed: int = 0) -> None:
        self.walls: set[tuple[int, int]] = set()
        self.targets: set[tuple[int, int]] = set()
        levels = [build_level(i, rows) for i, rows in enumerate(LEVELS)]
        super().__init__(
            game_id="push",
            levels=levels,
            camera=Camera(background=FLOOR, letter_box=FLOOR),
            available_actions=[1, 2, 3, 4],
            seed=seed,
        )

    def on_set_level(self, level: Level) -> None:
        """Read walls and targets from the level's layout."""
        rows = level.get_data("rows")
        self.walls = cells_of(rows, "#")
        self.targets = cells_of(rows, "T*+")

    @property
    def player_cell(self) -> tuple[int, int]:
        """The player's (x, y) cell."""
        player = self.current_level.get_sprites_by_name("player")[0]
        return player.x, player.y

    @property
    def blocks(self) -> set[tuple[int, int]]:
        """The (x, y) cells holding a block."""
        return {(s.x, s.y) for s in self.current_level.get_sprites_by_name("block")}

    def step(self) -> None:
        """Resolve one action: walk, or push the block ahead when the cell behind it is free."""
        move = MOVES.get(self.action.id)
        if move is not None:
            self._move(*move)
        self.complete_action()

    def _block_at(self, cell: tuple[int, int]) -> Sprite | None:
        found = [s for s in self.current_level.get_sprites_by_name("block") if (s.x, s.y) == cell]
        return found[0] if found else None

    def _move(self, dx: int, dy: int) -> None:
        x, y = self.player_cell
        ahead = (x + dx, y + dy)
        if ahead in self.walls:
            return
        block = self._block_at(ahead)
        if block is not None:
            behind = (ahead[0] + dx, ahead[1] + dy)
            if behind in self.walls or self._block_at(behind) is not None:
                return
            block.set_position(*behind)
            block.pixels = np.array(block_colour(behind, self.targets), dtype=np.int8)
        self.current_level.get_sprites_by_name("player")[0].set_position(*ahead)
        if self.blocks == self.targets:
            self.next_level()
