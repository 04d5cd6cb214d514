"""Tiny pure-Python games that produce real Observations, for agent tests and the perception benchmark."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dreamteam.types import CLICK, RESET, Action, GameInfo, Grid, Observation

FLOOR, WALL, PLAYER, GOAL, LAVA, BAR = 0, 3, 9, 11, 8, 12
MOVES = {1: (-1, 0), 2: (1, 0), 3: (0, -1), 4: (0, 1)}

OPEN_ROOM = [
    "################",
    "#P.............#",
    "#..............#",
    "#..............#",
    "#.............G#",
    "################",
]

CORRIDOR_MAZE = [
    "################",
    "#P.#...........#",
    "#..#.#######.#.#",
    "#..#.#.....#.#.#",
    "#....#.###.#.#.#",
    "######.#G#.#.#.#",
    "#......#.#...#.#",
    "#.######.#####.#",
    "#..............#",
    "################",
]

LAVA_ROOM = [
    "##########",
    "#P.L.....#",
    "#..L.###.#",
    "#..L...#G#",
    "#......###",
    "##########",
]


def one_level(grid: Grid, state: str, available: tuple[int, ...], actions: int, action: Action | None) -> Observation:
    """The observation of a one-level game: `grid` as its only frame, the level completed once it is won."""
    return Observation(grid, (grid,), state, int(state == "WIN"), 1, available, actions, action)


class MazeWorld:
    """A player (9) walks a walled maze (3) to the goal (11); lava (8) kills; an optional move budget bar.

    Layout rows use '#' wall, '.' floor, 'P' player, 'G' goal, 'L' lava; each cell is drawn 4x4 below a
    2-pixel HUD strip whose bar (12) shrinks by one pixel per action when `budget` is set.
    ACTION1-4 move up/down/left/right, ACTION5 does nothing; reaching the goal completes the level.
    """

    SCALE = 4
    TOP = 4

    def __init__(self, levels: list[list[str]], budget: int | None = None) -> None:
        if budget is not None and not 0 < budget <= 64:
            raise ValueError("budget must be 1..64 (one bar pixel per action)")
        self.levels = levels
        self.budget = budget
        self.info = GameInfo("maze-test", "maze", tuple(0 for _ in levels))
        self.actions = 0
        self.level = 0
        self.state = "NOT_FINISHED"
        self._load_level()

    def _load_level(self) -> None:
        rows = self.levels[min(self.level, len(self.levels) - 1)]
        self.layout = [list(r) for r in rows]
        self.player = next((y, x) for y, r in enumerate(rows) for x, c in enumerate(r) if c == "P")
        self.layout[self.player[0]][self.player[1]] = "."
        self.remaining = self.budget

    def render(self) -> Grid:
        """The current 64x64 frame."""
        grid = np.full((64, 64), FLOOR, dtype=np.int8)
        colours = {"#": WALL, ".": FLOOR, "G": GOAL, "L": LAVA}
        cells = np.array([[colours[c] for c in row] for row in self.layout], dtype=np.int8)
        cells[self.player] = PLAYER
        block = np.repeat(np.repeat(cells, self.SCALE, axis=0), self.SCALE, axis=1)
        grid[self.TOP : self.TOP + block.shape[0], : block.shape[1]] = block
        if self.remaining is not None:
            grid[0:2, : self.remaining] = BAR
        return grid

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        return Observation(
            grid=grid,
            frames=(grid,),
            state=self.state,
            levels_completed=self.level,
            win_levels=len(self.levels),
            available_actions=(1, 2, 3, 4, 5),
            step=self.actions,
            last_action=action,
        )

    def reset(self) -> Observation:
        """Restart the current level (the whole game after a win)."""
        if self.state == "WIN":
            self.level = 0
        self.state = "NOT_FINISHED"
        self._load_level()
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Apply one action."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if self.state != "NOT_FINISHED":
            raise RuntimeError(f"step {action.label()} in state {self.state}")
        if action.id in MOVES:
            dy, dx = MOVES[action.id]
            y, x = self.player[0] + dy, self.player[1] + dx
            if self.layout[y][x] != "#":
                self.player = (y, x)
        cell = self.layout[self.player[0]][self.player[1]]
        if self.remaining is not None:
            self.remaining -= 1
        if cell == "G":
            self.level += 1
            if self.level == len(self.levels):
                self.state = "WIN"
            else:
                self._load_level()
        elif cell == "L" or self.remaining == 0:
            self.state = "GAME_OVER"
        return self.observe(action)


@dataclass
class LampPuzzle:
    """Click-only puzzle: button i toggles lamps i and i+1; light every lamp to win. Decoys do nothing.

    Drawn on a 16x16 logical grid at 4 pixels per cell: lamps (2 off, 14 on) on row 2, buttons (12) on
    row 8, decoy blocks (7) on row 12, all in every other column so that no two touch.
    """

    lamps: int = 5
    lamp_on: list[bool] = field(default_factory=list)
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("lamps-test", "lamps", (0,)))
    arrows: bool = False
    """Also offer ACTION1-4, which do nothing."""

    def __post_init__(self) -> None:
        self.lamp_on = [False] * self.lamps

    def render(self) -> Grid:
        """The current 64x64 frame."""
        cells = np.zeros((16, 16), dtype=np.int8)
        for i, on in enumerate(self.lamp_on):
            cells[2, 1 + 2 * i] = 14 if on else 2
            cells[8, 1 + 2 * i] = 12
        cells[12, 2] = cells[12, 10] = 7
        return np.repeat(np.repeat(cells, 4, axis=0), 4, axis=1)

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        available = (1, 2, 3, 4, CLICK) if self.arrows else (CLICK,)
        return one_level(grid, self.state, available, self.actions, action)

    def reset(self) -> Observation:
        """Switch every lamp off."""
        self.__post_init__()
        self.state = "NOT_FINISHED"
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Apply one click."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if action.is_click and action.x is not None and action.y is not None:
            cx, cy = action.x // 4, action.y // 4
            button = (cx - 1) // 2
            if cy == 8 and cx % 2 == 1 and 0 <= button < self.lamps:
                for i in (button, button + 1):
                    if i < self.lamps:
                        self.lamp_on[i] = not self.lamp_on[i]
        if all(self.lamp_on):
            self.state = "WIN"
        return self.observe(action)


@dataclass
class Comet:
    """Every action moves a comet (colour 9) one cell along a long loop, so no frame repeats for 160 steps;
    ACTION1-4 do nothing else, clicking the button (colour 12, top left) wins, other clicks do nothing.

    An explorer that tries a new state's simple actions before its clicks never clicks here.
    """

    tick: int = 0
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("comet-test", "comet", (1, 2, 3, 4, CLICK)))

    def render(self) -> Grid:
        """The current 64x64 frame."""
        cells = np.zeros((16, 16), dtype=np.int8)
        cells[1, 1] = 12
        row, col = divmod(self.tick % 160, 16)
        cells[4 + row, col] = 9
        return np.repeat(np.repeat(cells, 4, axis=0), 4, axis=1)

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        return one_level(grid, self.state, (1, 2, 3, 4, CLICK), self.actions, action)

    def reset(self) -> Observation:
        """Back to the first frame."""
        self.tick, self.state = 0, "NOT_FINISHED"
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Advance the comet; a click on the button wins."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        self.tick += 1
        if action.is_click and action.x is not None and action.y is not None and (action.x // 4, action.y // 4) == (1, 1):
            self.state = "WIN"
        return self.observe(action)


@dataclass
class TrapLine:
    """A one-way corridor: ACTION1 steps right and can never be undone; ACTION2 wins, but only at the start.

    An explorer that tries ACTION1 first walks into the dead end and must RESET to try ACTION2 at the start.
    """

    length: int = 6
    position: int = 0
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("trap-test", "trap", (0,)))

    def render(self) -> Grid:
        """The current 64x64 frame: the corridor in grey, the player in blue."""
        grid = np.zeros((64, 64), dtype=np.int8)
        grid[28:36, 4 : 4 + 8 * (self.length + 1)] = WALL
        grid[28:36, 4 + 8 * self.position : 12 + 8 * self.position] = PLAYER
        return grid

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        return one_level(grid, self.state, (1, 2), self.actions, action)

    def reset(self) -> Observation:
        """Back to the start of the corridor."""
        self.position = 0
        self.state = "NOT_FINISHED"
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Apply one action."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if action.id == 1:
            self.position = min(self.position + 1, self.length)
        elif action.id == 2 and self.position == 0:
            self.state = "WIN"
        return self.observe(action)


@dataclass
class Pause:
    """ACTION1 at the start solves the level, but the game then holds its frame still for `hold` actions
    before it reports the win (as games do to show a cleared level). ACTION2 at the start leads to a side
    room whose ACTION1 returns. The hold restarts on each entry.

    An explorer that leaves or resets a state once each of its actions has changed nothing throws the
    solved level away.
    """

    hold: int = 6
    place: str = "start"
    left: int = 0
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("pause-test", "pause", (1, 2)))

    def render(self) -> Grid:
        """The current 64x64 frame: a block at the left (start), middle (side room) or right (held)."""
        grid = np.zeros((64, 64), dtype=np.int8)
        column = {"start": 4, "side": 28, "held": 52}[self.place]
        grid[28:36, column : column + 8] = PLAYER
        return grid

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        return one_level(grid, self.state, (1, 2), self.actions, action)

    def reset(self) -> Observation:
        """Back to the start."""
        self.place, self.state = "start", "NOT_FINISHED"
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Apply one action."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if self.place == "held":
            self.left -= 1
            if self.left <= 0:
                self.state = "WIN"
        elif self.place == "start":
            self.place, self.left = ("held", self.hold) if action.id == 1 else ("side", 0)
        elif action.id == 1:
            self.place = "start"
        return self.observe(action)


@dataclass
class PairClick:
    """Click one cell of a 2x2 block of marks, then a cell next to it: that pair wins. A lamp in the corner
    shows that a cell is selected (not which one); any other second click clears the selection.

    The block is one segment, so an explorer that clicks each object at one cell never clicks a pair.
    """

    selected: tuple[int, int] | None = None
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("pair-test", "pair", (CLICK,)))

    def render(self) -> Grid:
        """The current 64x64 frame: 16x16 cells of 4 pixels, the block at cells (6..7, 6..7)."""
        cells = np.zeros((16, 16), dtype=np.int8)
        cells[6:8, 6:8] = 2
        grid = np.repeat(np.repeat(cells, 4, axis=0), 4, axis=1)
        if self.selected is not None:
            grid[62, 1] = 11
        return grid

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        return one_level(grid, self.state, (CLICK,), self.actions, action)

    def reset(self) -> Observation:
        """Nothing selected."""
        self.selected, self.state = None, "NOT_FINISHED"
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Apply one click."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if action.x is None or action.y is None:
            return self.observe(action)
        cell = (action.x // 4, action.y // 4)
        mark = 6 <= cell[0] <= 7 and 6 <= cell[1] <= 7
        if self.selected is None:
            self.selected = cell if mark else None
        else:
            if mark and abs(cell[0] - self.selected[0]) + abs(cell[1] - self.selected[1]) == 1:
                self.state = "WIN"
            self.selected = None
        return self.observe(action)


@dataclass
class MarkedRoom:
    """A player moved by ACTION1-4 in a room of 8x8 cells (8 pixels each) towards a goal cell; a click does
    nothing in the game but draws a cross at the clicked pixel that shows for `duration` frames (a new
    click moves it), as many games show where the player clicked.

    With the cross in the frame, every click looks like a move to a new state.
    """

    duration: int = 8
    player: tuple[int, int] = (0, 0)
    goal: tuple[int, int] = (7, 7)
    mark: tuple[int, int] | None = None
    mark_left: int = 0
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("marked-test", "marked", (1, 2, 3, 4, CLICK)))

    def render(self) -> Grid:
        """The current 64x64 frame, the cross drawn last."""
        grid = np.zeros((64, 64), dtype=np.int8)
        gx, gy = self.goal
        grid[gy * 8 : gy * 8 + 8, gx * 8 : gx * 8 + 8] = GOAL
        px, py = self.player
        grid[py * 8 : py * 8 + 8, px * 8 : px * 8 + 8] = PLAYER
        if self.mark is not None and self.mark_left > 0:
            x, y = self.mark
            for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= x + dx < 64 and 0 <= y + dy < 64:
                    grid[y + dy, x + dx] = 10
        return grid

    def frame(self, action: Action | None) -> Observation:
        """Render the frame after `action` (one frame of the cross's life)."""
        grid = self.render()
        if self.mark_left > 0:
            self.mark_left -= 1
        return one_level(grid, self.state, (1, 2, 3, 4, CLICK), self.actions, action)

    def reset(self) -> Observation:
        """Back to the corner, no cross."""
        self.player, self.mark, self.mark_left, self.state = (0, 0), None, 0, "NOT_FINISHED"
        return self.frame(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Apply one action."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if action.id == CLICK and action.x is not None and action.y is not None:
            self.mark, self.mark_left = (action.x, action.y), self.duration
        elif action.id in MOVES:
            dy, dx = MOVES[action.id]
            x, y = self.player[0] + dx, self.player[1] + dy
            if 0 <= x < 8 and 0 <= y < 8:
                self.player = (x, y)
            if self.player == self.goal:
                self.state = "WIN"
        return self.frame(action)


@dataclass
class RowFlip:
    """ACTION1-4 pick one of four rows of lamps; a click anywhere flips every lamp of the picked row (where it
    lands does not matter). The rows of `goal` lit wins. Twelve decoy blocks give a click many objects to land on, and
    a one-pixel bar under the lamps loses a pixel with every flip (a budget only flips use up).
    """

    goal: tuple[bool, ...] = (True, False, True, False)
    row: int = 0
    lit: list[bool] = field(default_factory=lambda: [False] * 4)
    flips: int = 0
    actions: int = 0
    state: str = "NOT_FINISHED"
    info: GameInfo = field(default_factory=lambda: GameInfo("rowflip-test", "rowflip", (1, 2, 3, 4, CLICK)))

    def render(self) -> Grid:
        """The current 64x64 frame: 16x16 cells of 4 pixels, the bar in pixel row 62."""
        cells = np.zeros((16, 16), dtype=np.int8)
        for r, on in enumerate(self.lit):
            cells[1 + r, 2:10] = 14 if on else 2
        cells[1 + self.row, 0] = 10
        for i in range(12):
            cells[8 + 2 * (i // 4), 2 + 3 * (i % 4)] = 7
        grid = np.repeat(np.repeat(cells, 4, axis=0), 4, axis=1)
        grid[62, 8 : 8 + max(0, 40 - self.flips)] = 12
        return grid

    def observe(self, action: Action | None) -> Observation:
        """Observation of the current state."""
        grid = self.render()
        return one_level(grid, self.state, (1, 2, 3, 4, CLICK), self.actions, action)

    def reset(self) -> Observation:
        """All lamps off, row 0 picked."""
        self.row, self.lit, self.flips, self.state = 0, [False] * 4, 0, "NOT_FINISHED"
        return self.observe(Action(RESET))

    def step(self, action: Action) -> Observation:
        """Pick a row or flip the picked one."""
        self.actions += 1
        if action.id == RESET:
            return self.reset()
        if action.id in MOVES:
            self.row = action.id - 1
        elif action.is_click:
            self.lit[self.row] = not self.lit[self.row]
            self.flips += 1
        if tuple(self.lit) == self.goal:
            self.state = "WIN"
        return self.observe(action)


@dataclass(frozen=True, slots=True)
class Played:
    """One agent decision: the observation it saw and the action it chose."""

    obs: Observation
    action: Action


def play(
    env: MazeWorld | LampPuzzle | TrapLine | Comet | Pause | PairClick | MarkedRoom | RowFlip, agent: object,
    budget: int,
) -> tuple[list[Played], Observation]:
    """Drive `agent` like the real runner: RESET after GAME_OVER without asking the agent; stop at WIN."""
    agent.begin(env.info, budget)  # type: ignore[attr-defined]
    obs = env.reset()
    history: list[Played] = []
    while env.actions < budget and obs.state != "WIN":
        if obs.game_over:
            obs = env.step(Action(RESET))
            continue
        action = agent.act(obs)  # type: ignore[attr-defined]
        if action is None:
            break
        history.append(Played(obs, action))
        obs = env.step(action)
    return history, obs
