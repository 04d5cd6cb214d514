"""Small pure-Python grid worlds that produce transitions in the shared format, for the symbolic roles' tests.

Every world draws a logical grid scaled up into a 64x64 display with a letterbox, and takes actions as
dicts ({"action": "ACTION3"} / {"action": "ACTION6", "x": .., "y": ..}). Action meanings are shuffled by
a seed so a learner cannot rely on ACTION1 meaning "up".
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dreamteam.codec import encode_grid

DIRECTIONS = ((0, -1), (0, 1), (-1, 0), (1, 0))


def display(logical: np.ndarray, scale: int, letterbox: int) -> np.ndarray:
    """Centre the upscaled logical grid in a 64x64 frame filled with the letterbox colour."""
    out = np.full((64, 64), letterbox, dtype=np.int8)
    block = np.repeat(np.repeat(logical, scale, axis=0), scale, axis=1)
    h, w = block.shape
    oy, ox = (64 - h) // 2, (64 - w) // 2
    out[oy : oy + h, ox : ox + w] = block
    return out


class World(ABC):
    """Base: a logical grid rendered at a scale; subclasses implement `apply(action) -> level_up`."""

    scale = 4
    letterbox = 0

    def __init__(self) -> None:
        self.grid = np.zeros((8, 8), dtype=np.int8)

    def frame(self) -> np.ndarray:
        """The current 64x64 display frame."""
        return display(self.grid, self.scale, self.letterbox)

    def offset(self) -> tuple[int, int]:
        """Display (x, y) of logical cell (0, 0)."""
        h, w = self.grid.shape
        return (64 - w * self.scale) // 2, (64 - h * self.scale) // 2

    def click_at(self, cx: int, cy: int) -> dict[str, Any]:
        """A click action on the centre of logical cell (cx, cy)."""
        ox, oy = self.offset()
        return {"action": "ACTION6", "x": ox + cx * self.scale + self.scale // 2,
                "y": oy + cy * self.scale + self.scale // 2}

    @abstractmethod
    def apply(self, action: dict[str, Any]) -> bool:
        """Change the world; return True when the level is completed."""

    def step(self, action: dict[str, Any], index: int) -> dict[str, Any]:
        """Apply an action and return the transition record."""
        before = self.frame()
        level_up = self.apply(action)
        return {"step": index, "level": 0, "action": dict(action), "before": encode_grid(before),
                "after": encode_grid(self.frame()), "frames": 1, "history": {}, "level_up": level_up,
                "game_over": False, "pinned": False, "pin_reason": ""}


class MazeWorld(World):
    """A player moved by four shuffled actions, walls that block, a goal, and a bar that shrinks per move."""

    def __init__(self, seed: int = 0, size: int = 10, colours: Sequence[int] = (3, 9, 14, 11, 5),
                 bar: bool = True, scale: int = 4) -> None:
        rng = random.Random(seed)
        self.wall, self.player, self.goal, self.bar_colour, self.floor = colours
        self.scale, self.letterbox = scale, self.floor
        self.meanings = dict(zip(("ACTION1", "ACTION2", "ACTION3", "ACTION4"),
                                 rng.sample(DIRECTIONS, 4), strict=True))
        self.bar = bar
        grid = np.full((size + (2 if bar else 0), size), self.floor, dtype=np.int8)
        grid[0, :], grid[size - 1, :], grid[:size, 0], grid[:size, size - 1] = self.wall, self.wall, self.wall, self.wall
        for _ in range(size):
            grid[rng.randrange(2, size - 2), rng.randrange(2, size - 2)] = self.wall
        grid[1, 1], grid[size - 2, size - 2] = self.player, self.goal
        if bar:
            grid[size + 1, :] = self.bar_colour
        self.grid = grid
        self.pos = (1, 1)

    def apply(self, action: dict[str, Any]) -> bool:
        """Move the player unless a wall is in the way; each move shrinks the bar from its right end."""
        move = self.meanings.get(action["action"])
        if move is None:
            return False
        x, y = self.pos[0] + move[0], self.pos[1] + move[1]
        if self.grid[y, x] == self.wall:
            return False
        reached = self.grid[y, x] == self.goal
        self.grid[self.pos[1], self.pos[0]] = self.floor
        self.grid[y, x] = self.player
        self.pos = (x, y)
        if self.bar:
            row = self.grid[-1]
            left = np.flatnonzero(row == self.bar_colour)
            if len(left):
                row[left[-1]] = self.floor
        return bool(reached)


class PushWorld(MazeWorld):
    """A maze without a bar whose player pushes boxes one step (a box against a wall or box stays put)."""

    def __init__(self, seed: int = 0, box: int = 12, slide: bool = False) -> None:
        super().__init__(seed=seed, bar=False)
        self.box, self.slide = box, slide
        rng = random.Random(seed + 100)
        free = [(x, y) for y in range(2, 8) for x in range(2, 8) if self.grid[y, x] == self.floor]
        for x, y in rng.sample(free, 2):
            self.grid[y, x] = box

    def apply(self, action: dict[str, Any]) -> bool:
        """Move (or slide) the player, pushing a box ahead of it when the box can move."""
        move = self.meanings.get(action["action"])
        moved = False
        while move is not None and self._step(*move):
            moved = True
            if not self.slide:
                break
        return moved and False

    def _step(self, dx: int, dy: int) -> bool:
        x, y = self.pos[0] + dx, self.pos[1] + dy
        if self.grid[y, x] == self.box:
            if self.grid[y + dy, x + dx] != self.floor:
                return False
            self.grid[y + dy, x + dx] = self.box
        elif self.grid[y, x] != self.floor:
            return False
        self.grid[self.pos[1], self.pos[0]] = self.floor
        self.grid[y, x] = self.player
        self.pos = (x, y)
        return True


class CoverWorld(PushWorld):
    """A push world whose target squares show again when the player or a box leaves them; coins vanish."""

    def __init__(self, seed: int = 0, target: int = 6, coin: int = 8, count: int = 4) -> None:
        super().__init__(seed=seed)
        self.target, self.coin = target, coin
        rng = random.Random(seed + 200)
        free = [(x, y) for y in range(1, 9) for x in range(1, 9) if self.grid[y, x] == self.floor]
        cells = rng.sample(free, 2 * count)
        self.targets = set(cells[:count])
        for x, y in cells[:count]:
            self.grid[y, x] = target
        for x, y in cells[count:]:
            self.grid[y, x] = coin

    def under(self, x: int, y: int) -> int:
        """What a cell shows once nothing covers it."""
        return self.target if (x, y) in self.targets else self.floor

    def _step(self, dx: int, dy: int) -> bool:
        x, y = self.pos[0] + dx, self.pos[1] + dy
        walkable = (self.floor, self.target, self.coin)
        if self.grid[y, x] == self.box:
            if self.grid[y + dy, x + dx] not in (self.floor, self.target):
                return False
            self.grid[y + dy, x + dx] = self.box
        elif self.grid[y, x] not in walkable:
            return False
        self.grid[self.pos[1], self.pos[0]] = self.under(*self.pos)
        self.grid[y, x] = self.player
        self.pos = (x, y)
        return True


class TintWorld(CoverWorld):
    """A cover world whose boxes show another colour while they stand on a target square."""

    def __init__(self, seed: int = 0, tinted: int = 7, count: int = 6) -> None:
        super().__init__(seed=seed, count=count)
        self.tinted = tinted
        for x, y in self.targets:
            if self.grid[y, x] == self.box:
                self.grid[y, x] = tinted

    def _step(self, dx: int, dy: int) -> bool:
        x, y = self.pos[0] + dx, self.pos[1] + dy
        if self.grid[y, x] in (self.box, self.tinted):
            if self.grid[y + dy, x + dx] not in (self.floor, self.target):
                return False
            self.grid[y + dy, x + dx] = self.tinted if (x + dx, y + dy) in self.targets else self.box
        elif self.grid[y, x] not in (self.floor, self.target, self.coin):
            return False
        self.grid[self.pos[1], self.pos[0]] = self.under(*self.pos)
        self.grid[y, x] = self.player
        self.pos = (x, y)
        return True


class RowWorld(PushWorld):
    """A push world with two boxes side by side: they are separate objects, and one stops the other."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed=seed)
        self.grid[self.grid == self.box] = self.floor
        inner = self.grid[2:8, 2:8]
        inner[inner != self.player] = self.floor
        self.grid[4, 4], self.grid[4, 5] = self.box, self.box


class ToggleWorld(World):
    """Lights out: a click toggles the clicked cell and its four neighbours between two colours."""

    def __init__(self, seed: int = 0, size: int = 5, colours: tuple[int, int] = (8, 12), gap: int = 2,
                 scale: int = 3, pattern: Sequence[tuple[int, int]] | None = None) -> None:
        rng = random.Random(seed)
        self.pattern = tuple(pattern) if pattern is not None else ((0, 0), *DIRECTIONS)
        self.off, self.on = colours
        self.gap, self.scale, self.letterbox = gap, scale, gap
        board = np.array([[rng.choice(colours) for _ in range(size)] for _ in range(size)], dtype=np.int8)
        self.grid = np.full((size + 2, size + 2), gap, dtype=np.int8)
        self.grid[1:-1, 1:-1] = board

    def apply(self, action: dict[str, Any]) -> bool:
        """Toggle the clicked board cell and its neighbours; clicks elsewhere do nothing."""
        if action["action"] != "ACTION6":
            return False
        ox, oy = self.offset()
        cx, cy = (action["x"] - ox) // self.scale, (action["y"] - oy) // self.scale
        if not (1 <= cx < self.grid.shape[1] - 1 and 1 <= cy < self.grid.shape[0] - 1):
            return False
        for dx, dy in self.pattern:
            x, y = cx + dx, cy + dy
            if self.grid[y, x] in (self.off, self.on):
                self.grid[y, x] = self.on if self.grid[y, x] == self.off else self.off
        return False


class TileWorld(World):
    """Lights out on a spaced board: tiles on odd cells with background gaps, some tiles joined across a gap
    into one longer tile; a click flips the tiles at `pattern` (tile units) from any cell of the clicked tile."""

    def __init__(self, seed: int = 0, size: int = 4, colours: tuple[int, int] = (7, 11), gap: int = 1,
                 pattern: Sequence[tuple[int, int]] = DIRECTIONS, joins: Sequence[tuple[int, int, int, int]] = (
                     (0, 0, 1, 0), (2, 1, 2, 2))) -> None:
        rng = random.Random(seed)
        self.off, self.on = colours
        self.gap, self.scale, self.letterbox = gap, 5, gap
        self.pattern = tuple(pattern)
        self.tile = {(x, y): (x, y) for y in range(size) for x in range(size)}
        for ax, ay, bx, by in joins:
            self.tile[(bx, by)] = self.tile[(ax, ay)]
        self.lit = {t: rng.random() < 0.5 for t in set(self.tile.values())}
        self.grid = np.full((2 * size + 1, 2 * size + 1), gap, dtype=np.int8)
        self._draw(joins)

    def _draw(self, joins: Sequence[tuple[int, int, int, int]] = ()) -> None:
        for (x, y), t in self.tile.items():
            self.grid[2 * y + 1, 2 * x + 1] = self.on if self.lit[t] else self.off
        for ax, ay, bx, by in joins or getattr(self, "joins", ()):
            self.grid[ay + by + 1, ax + bx + 1] = self.on if self.lit[self.tile[(ax, ay)]] else self.off
        self.joins = tuple(joins) or getattr(self, "joins", ())

    def apply(self, action: dict[str, Any]) -> bool:
        """Flip the tiles the clicked tile reaches; clicks on gaps do nothing."""
        if action["action"] != "ACTION6":
            return False
        ox, oy = self.offset()
        cx, cy = (action["x"] - ox) // self.scale, (action["y"] - oy) // self.scale
        home = next((t for (x, y), t in self.tile.items() if (2 * x + 1, 2 * y + 1) == (cx, cy)), None)
        for ax, ay, bx, by in self.joins:
            if (ax + bx + 1, ay + by + 1) == (cx, cy):  # the joining cell belongs to the joined tile
                home = self.tile[(ax, ay)]
        if home is None:
            return False
        cells = [c for c, t in self.tile.items() if t == home]
        reached = {self.tile[(x + dx, y + dy)] for x, y in cells for dx, dy in self.pattern
                   if (x + dx, y + dy) in self.tile} - {home}
        for t in reached:
            self.lit[t] = not self.lit[t]
        self._draw()
        return False


class TimerWorld(World):
    """Nothing moves; a bar in the top row loses one cell from its left end after every action."""

    def __init__(self, width: int = 12, colours: tuple[int, int, int] = (6, 1, 10), scale: int = 5) -> None:
        self.floor, self.bar_colour, self.block = colours
        self.scale, self.letterbox = scale, self.floor
        self.grid = np.full((6, width), self.floor, dtype=np.int8)
        self.grid[0, :] = self.bar_colour
        self.grid[3, 2:5] = self.block

    def apply(self, action: dict[str, Any]) -> bool:
        """Shrink the bar by one cell."""
        left = np.flatnonzero(self.grid[0] == self.bar_colour)
        if len(left):
            self.grid[0, left[0]] = self.floor
        return False


class CopyWorld(World):
    """A target panel and a canvas side by side; a click on a canvas cell advances its colour along a cycle."""

    def __init__(self, seed: int = 0, size: int = 3, cycle: Sequence[int] = (0, 9, 8), background: int = 5,
                 scale: int = 6) -> None:
        rng = random.Random(seed)
        self.cycle, self.size, self.scale, self.letterbox = list(cycle), size, scale, background
        self.grid = np.full((size + 2, 2 * size + 3), background, dtype=np.int8)
        self.grid[1 : size + 1, 1 : size + 1] = [[rng.choice(cycle) for _ in range(size)] for _ in range(size)]
        self.grid[1 : size + 1, size + 2 : 2 * size + 2] = cycle[0]

    def target(self) -> np.ndarray:
        """The pattern to copy."""
        return self.grid[1 : self.size + 1, 1 : self.size + 1]

    def canvas(self) -> np.ndarray:
        """The clickable panel."""
        return self.grid[1 : self.size + 1, self.size + 2 : 2 * self.size + 2]

    def apply(self, action: dict[str, Any]) -> bool:
        """Cycle the clicked canvas cell; True once the canvas equals the target."""
        if action["action"] != "ACTION6":
            return False
        ox, oy = self.offset()
        cx, cy = (action["x"] - ox) // self.scale, (action["y"] - oy) // self.scale
        col, row = cx - (self.size + 2), cy - 1
        if 0 <= col < self.size and 0 <= row < self.size:
            value = int(self.canvas()[row, col])
            self.canvas()[row, col] = self.cycle[(self.cycle.index(value) + 1) % len(self.cycle)]
        return bool(np.array_equal(self.canvas(), self.target()))


def record(world: World, policy: Callable[[World, int], dict[str, Any]], steps: int) -> list[dict[str, Any]]:
    """Run `policy` for `steps` steps and return the transitions."""
    return [world.step(policy(world, i), i) for i in range(steps)]


def random_moves(seed: int, actions: Sequence[str] = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")
                 ) -> Callable[[World, int], dict[str, Any]]:
    """A policy picking uniformly among simple actions."""
    rng = random.Random(seed)
    return lambda world, i: {"action": rng.choice(list(actions))}


def random_clicks(seed: int) -> Callable[[World, int], dict[str, Any]]:
    """A policy clicking uniformly random logical cells."""
    rng = random.Random(seed)

    def pick(world: World, i: int) -> dict[str, Any]:
        h, w = world.grid.shape
        return world.click_at(rng.randrange(w), rng.randrange(h))

    return pick


class PatrolWorld(World):
    """A player moved by four shuffled actions in a walled room, and a sentry walking back and forth along a
    corridor below it, one cell per action whatever the action (also when the player bumps a wall).

    The 16x16 grid fills the 64x64 display (scale 4), so the logical grid the dynamics see is `grid`; each
    transition's history holds the logical grid before the previous action, as the generated history keeps it.
    """

    def __init__(self, seed: int = 0, colours: tuple[int, int, int, int] = (3, 9, 12, 5)) -> None:
        rng = random.Random(seed)
        self.wall, self.player, self.sentry, self.floor = colours
        self.meanings = dict(zip(("ACTION1", "ACTION2", "ACTION3", "ACTION4"),
                                 rng.sample(DIRECTIONS, 4), strict=True))
        grid = np.full((16, 16), self.wall, dtype=np.int8)
        grid[1:9, 1:15] = self.floor
        grid[11, 2:14] = self.floor
        self.route = [(x, 11) for x in range(3, 10)] + [(x, 11) for x in range(8, 3, -1)]
        self.tick = rng.randrange(len(self.route))
        self.pos = (2, 2)
        grid[2, 2] = self.player
        self.grid = grid
        self._place()
        self.last: np.ndarray | None = None

    def _place(self) -> None:
        self.grid[11, 2:14] = self.floor
        x, y = self.route[self.tick % len(self.route)]
        self.grid[y, x] = self.sentry

    def apply(self, action: dict[str, Any]) -> bool:
        """Move the player unless a wall is in the way; the sentry takes its next step in any case."""
        move = self.meanings.get(action["action"])
        if move is not None:
            x, y = self.pos[0] + move[0], self.pos[1] + move[1]
            if self.grid[y, x] == self.floor:
                self.grid[self.pos[1], self.pos[0]] = self.floor
                self.grid[y, x] = self.player
                self.pos = (x, y)
        self.tick += 1
        self._place()
        return False

    def step(self, action: dict[str, Any], index: int) -> dict[str, Any]:
        """The transition, with the history the generated dynamics would have recorded."""
        before = self.grid.copy()
        record = super().step(action, index)
        record["history"] = {"last": encode_grid(self.last)} if self.last is not None else {}
        self.last = before
        return record


class DoorWorld(World):
    """A 2x2 player stepping two cells at a time through rooms of 2x2 map cells, where doors of one colour
    are drawn solid when closed (they stop the player) and as a single dot when open (walked over, and
    drawn again once the player leaves): the door colour is both entered and in the way of a stop."""

    def __init__(self, seed: int = 0, colours: Sequence[int] = (3, 9, 6, 5)) -> None:
        super().__init__()
        rng = random.Random(seed)
        self.wall, self.player, self.door, self.floor = colours
        self.scale, self.letterbox = 2, self.floor
        self.meanings = dict(zip(("ACTION1", "ACTION2", "ACTION3", "ACTION4"),
                                 rng.sample(DIRECTIONS, 4), strict=True))
        size = 12
        self.cells = {(x, y): "wall" if x in (0, size - 1) or y in (0, size - 1) else "floor"
                      for y in range(size) for x in range(size)}
        inner = [(x, y) for (x, y), kind in self.cells.items() if kind == "floor" and (x, y) != (1, 1)]
        for cell in rng.sample(inner, 24):
            self.cells[cell] = rng.choice(("open", "closed", "closed"))
        self.size = size
        self.pos = (1, 1)
        self._draw()

    def _draw(self) -> None:
        grid = np.full((self.size * 2, self.size * 2), self.floor, dtype=np.int8)
        for (x, y), kind in self.cells.items():
            if kind in ("wall", "closed"):
                grid[2 * y : 2 * y + 2, 2 * x : 2 * x + 2] = self.wall if kind == "wall" else self.door
            elif kind == "open":
                grid[2 * y, 2 * x] = self.door
        px, py = self.pos
        grid[2 * py : 2 * py + 2, 2 * px : 2 * px + 2] = self.player
        self.grid = grid

    def apply(self, action: dict[str, Any]) -> bool:
        """Step one map cell unless a wall or a closed door is there."""
        move = self.meanings.get(action["action"])
        if move is not None:
            x, y = self.pos[0] + move[0], self.pos[1] + move[1]
            if self.cells[(x, y)] in ("floor", "open"):
                self.pos = (x, y)
        self._draw()
        return False
