"""Push: shove every block onto a target square."""

from __future__ import annotations

import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, Level, Sprite

FLOOR = 5  # black background
WALL = 3  # grey
PLAYER = 9  # blue
TARGET = 6  # magenta floor mark
BLOCK = 12  # orange
BLOCK_ON_TARGET = 14  # green

MOVES: dict[GameAction, tuple[int, int]] = {
    GameAction.ACTION1: (0, -1),
    GameAction.ACTION2: (0, 1),
    GameAction.ACTION3: (-1, 0),
    GameAction.ACTION4: (1, 0),
}

# Legend: "#" wall, "." floor, "P" player, "B" block, "T" target, "*" block on target, "+" player on target.
LEVELS: list[list[str]] = [
    [
        "#######",
        "#.....#",
        "#.B.TP#",
        "#.....#",
        "#######",
    ],
    [
        "########",
        "#P.....#",
        "#.##T..#",
        "#.#..B.#",
        "#......#",
        "########",
    ],
    [
        "########",
        "#...#.P#",
        "#.T.B..#",
        "#..#BT.#",
        "#......#",
        "########",
    ],
    [
        "########",
        "###..P##",
        "#...#..#",
        "#.T..T.#",
        "#..#BB.#",
        "##...###",
        "########",
    ],
    [
        "#########",
        "##.....##",
        "#.B#.#BP#",
        "#.BTTT..#",
        "#..#.#..#",
        "##.....##",
        "#########",
    ],
    [
        "#########",
        "##P..####",
        "#..#.B.##",
        "#.TT.T..#",
        "#.BB#...#",
        "###...###",
        "#########",
    ],
]


def cells_of(rows: list[str], chars: str) -> set[tuple[int, int]]:
    """Every (x, y) whose character is one of `chars`."""
    return {(x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char in chars}


def block_colour(cell: tuple[int, int], targets: set[tuple[int, int]]) -> list[list[int]]:
    """Pixels of a block standing on `cell`: green on a target, orange elsewhere."""
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
    """Push every orange block onto a magenta target square.

    ACTION1-4 move the blue player up, down, left, right by one cell. Walking into a block pushes
    it one cell if the cell behind it is free floor or target; blocks never move into walls or other
    blocks, and they cannot be pulled. A block on a target turns green. The level is complete when
    every target holds a block. A block stuck in a corner stays stuck: RESET restarts the level.
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
