"""A non-LLM graph-exploration baseline: test every action of every state, walk BFS paths to the frontier."""

from __future__ import annotations

from typing import Any

from dreamteam.agents.exploration_map import DEFAULT_HUD_CHECKS, ExplorationMap, ExplorerOptions
from dreamteam.agents.level_memory import LevelMemory
from dreamteam.perception import HudSettings
from dreamteam.types import RESET, Action, GameInfo, Observation

__all__ = ["ExplorerAgent", "ExplorerOptions"]


class ExplorerAgent:
    """Graph explorer: untested actions first, else BFS to the nearest state that still has some."""

    name = "explorer"

    def __init__(self, seed: int = 0, *, hud_checks: tuple[int, ...] = DEFAULT_HUD_CHECKS,
                 hud: HudSettings | None = None, **options: Any) -> None:
        """`options` are the fields of `ExplorerOptions` (an unknown one raises TypeError)."""
        self.seed = seed
        self.options = ExplorerOptions(hud_checks=tuple(hud_checks), hud=hud or HudSettings(), **options)
        self.map = ExplorationMap(self.options, seed)

    def begin(self, info: GameInfo, budget: int) -> None:
        """Start a session with an empty memory and a freshly seeded generator."""
        self.map = ExplorationMap(self.options, self.seed)

    @property
    def levels(self) -> dict[int, LevelMemory]:
        """Memory per level (levels_completed when it was entered)."""
        return self.map.levels

    @property
    def memory(self) -> LevelMemory:
        """The memory of the level being played."""
        return self.map.memory

    def act(self, obs: Observation) -> Action | None:
        """Record what the last action did, then pick the next one."""
        if self.map.observe(obs):
            return Action(RESET)
        action = self.map.choose()
        self.map.sent(obs.grid, action)
        return action
