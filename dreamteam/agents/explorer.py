"""A non-LLM graph-exploration baseline: test every action of every state, walk BFS paths to the frontier."""

from __future__ import annotations

from dreamteam.agents.exploration_map import DEFAULT_HUD_CHECKS, ExplorationMap, ExplorerOptions
from dreamteam.agents.level_memory import LevelMemory
from dreamteam.perception import HudSettings
from dreamteam.types import RESET, Action, GameInfo, Observation

__all__ = ["ExplorerAgent", "ExplorerOptions"]


class ExplorerAgent:
    """Graph explorer: untested actions first, else BFS to the nearest state that still has some."""

    name = "explorer"

    def __init__(
        self,
        seed: int = 0,
        *,
        max_click_targets: int = 16,
        useless_after: int = 24,
        death_retries: int = 2,
        reset_when_stuck: bool = True,
        hud_checks: tuple[int, ...] = DEFAULT_HUD_CHECKS,
        hud: HudSettings | None = None,
        shuffle: bool = False,
        click_enclosed: bool = False,
        idle_colour_after: int = 0,
        balance_kinds: bool = False,
        sample_cells: bool = False,
        momentum: float = 0.0,
    ) -> None:
        self.seed = seed
        self.options = ExplorerOptions(
            max_click_targets,
            useless_after,
            death_retries,
            reset_when_stuck,
            tuple(hud_checks),
            hud or HudSettings(),
            shuffle=shuffle,
            click_enclosed=click_enclosed,
            idle_colour_after=idle_colour_after,
            balance_kinds=balance_kinds,
            sample_cells=sample_cells,
            momentum=momentum,
        )
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
