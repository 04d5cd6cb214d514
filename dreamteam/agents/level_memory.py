"""What the explorer remembers about one level: its steps, HUD mask, state graph and solving edge."""

from __future__ import annotations

from dataclasses import dataclass

from dreamteam.agents.exploration_graph import ExplorationGraph, StateKey
from dreamteam.perception import BoolMask, PixelScale, background_of, masked_hash
from dreamteam.types import Action, Grid

BAR_EMPTY_FRACTION = 0.15
"""A death counts as the move budget running out when at most this share of the HUD bar is left."""


@dataclass(frozen=True, slots=True)
class Step:
    """One observed step of a level: frame before, action, frame after (None when it ended the game)."""

    before: Grid
    action: Action
    after: Grid | None


class LevelMemory:
    """Everything the explorer knows about one level: its steps, HUD mask, graph and solving edge."""

    def __init__(self, mask: BoolMask, scale: PixelScale) -> None:
        self.mask = mask
        self.scale = scale
        self.steps: list[Step] = []
        self.graph = ExplorationGraph()
        self.state_grids: dict[StateKey, Grid] = {}
        self.exit: tuple[Grid, Action] | None = None
        self.start_grid: Grid | None = None
        self.hud_checks_done = 0

    def bar_used_up(self, grid: Grid) -> bool:
        """Whether the masked HUD has (almost) nothing left of what it showed at the level start."""
        if self.start_grid is None or not self.mask.any():
            return False
        bar = self.mask & (self.start_grid != background_of(self.start_grid, self.mask))
        total = int(bar.sum())
        left = int((bar & (grid == self.start_grid)).sum())
        return total > 0 and left <= BAR_EMPTY_FRACTION * total

    def key(self, grid: Grid) -> StateKey:
        """The state key of a frame under the current HUD mask."""
        return masked_hash(grid, self.mask)
