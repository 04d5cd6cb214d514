"""Plain value types shared by every layer. Imports nothing of the project."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

Grid = npt.NDArray[np.int8]
"""A 64x64 frame of colour indices 0-15 (row-major: grid[y, x])."""

ACTION_NAMES = ("RESET", "ACTION1", "ACTION2", "ACTION3", "ACTION4", "ACTION5", "ACTION6", "ACTION7")
CLICK = 6
RESET = 0


@dataclass(frozen=True, slots=True)
class Action:
    """One action: RESET (0), ACTION1..ACTION7 (1-7); ACTION6 carries x, y in 0..63."""

    id: int
    x: int | None = None
    y: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.id <= 7:
            raise ValueError(f"action id must be 0..7, got {self.id}")
        if self.id == CLICK:
            if self.x is None or self.y is None or not (0 <= self.x <= 63 and 0 <= self.y <= 63):
                raise ValueError(f"ACTION6 needs x, y in 0..63, got ({self.x}, {self.y})")
        elif self.x is not None or self.y is not None:
            raise ValueError(f"{ACTION_NAMES[self.id]} takes no coordinates")

    @property
    def name(self) -> str:
        """The toolkit's name of the action (RESET, ACTION1, ...)."""
        return ACTION_NAMES[self.id]

    @property
    def is_click(self) -> bool:
        """Whether this is a click (ACTION6)."""
        return self.id == CLICK

    def label(self) -> str:
        """Short human label, e.g. ACTION3 or ACTION6@(12,40)."""
        return f"{self.name}@({self.x},{self.y})" if self.is_click else self.name

    def data(self) -> dict[str, int]:
        """The toolkit's action data dict ({} or {"x":..,"y":..})."""
        return {"x": int(self.x), "y": int(self.y)} if self.is_click and self.x is not None and self.y is not None else {}

    def to_json(self) -> dict[str, Any]:
        """JSON form: {"action": NAME} plus x, y for clicks."""
        out: dict[str, Any] = {"action": self.name}
        out.update(self.data())
        return out

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Action:
        """Parse the JSON form produced by `to_json` (also accepts "id" as an int)."""
        raw = obj.get("action", obj.get("id"))
        if isinstance(raw, str):
            name = raw.strip().upper()
            if name not in ACTION_NAMES:
                raise ValueError(f"unknown action {raw!r}; expected one of {', '.join(ACTION_NAMES)}")
            aid = ACTION_NAMES.index(name)
        elif isinstance(raw, int):
            aid = raw
        else:
            raise ValueError(f"action must be a name or an id, got {raw!r}")
        if aid == CLICK:
            return Action(aid, int(obj["x"]), int(obj["y"]))
        return Action(aid)

    @staticmethod
    def parse(text: str) -> Action:
        """Parse a label such as ACTION1, 3, or ACTION6@12,40 / ACTION6@(12,40)."""
        t = text.strip().upper().replace(" ", "")
        if "@" in t:
            head, coords = t.split("@", 1)
            xs, ys = coords.strip("()").split(",")
            return Action.from_json({"action": head, "x": int(xs), "y": int(ys)})
        if t.isdigit():
            return Action(int(t))
        return Action.from_json({"action": t})


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the toolkit's metadata says about a game version."""

    game_id: str
    title: str
    baseline_actions: tuple[int, ...]
    tags: tuple[str, ...] = ()
    local_dir: str | None = None

    @property
    def base_id(self) -> str:
        """The game id without its version suffix."""
        return self.game_id.split("-", 1)[0]

    @property
    def version(self) -> str:
        """The version suffix ('' when the id has none)."""
        return self.game_id.split("-", 1)[1] if "-" in self.game_id else ""

    @property
    def levels(self) -> int:
        """Number of levels (from the baseline list)."""
        return len(self.baseline_actions)


@dataclass(frozen=True, slots=True)
class Observation:
    """What an agent sees after a step: the last frame plus the toolkit's status fields."""

    grid: Grid
    frames: tuple[Grid, ...]
    state: str
    levels_completed: int
    win_levels: int
    available_actions: tuple[int, ...]
    step: int
    last_action: Action | None = None
    full_reset: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def done(self) -> bool:
        """True once the game is won."""
        return self.state == "WIN"

    @property
    def game_over(self) -> bool:
        """True when the current level was lost and needs a RESET."""
        return self.state == "GAME_OVER"


@dataclass(frozen=True, slots=True)
class Tactic:
    """A candidate action sequence toward a sub-goal, as the Inductive Explorer proposes it."""

    name: str
    sub_goal: str
    actions: tuple[Action, ...]
    expected: str
