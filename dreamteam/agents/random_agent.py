"""The uniform random baseline: any available action, clicks on a random object cell."""

from __future__ import annotations

import random

from dreamteam.perception import segment
from dreamteam.types import CLICK, RESET, Action, GameInfo, Observation


def random_click(obs: Observation, rng: random.Random) -> Action:
    """A click on a random cell of a random non-background object (any cell when there is none)."""
    objects = segment(obs.grid).objects
    if not objects:
        rows, cols = obs.grid.shape
        return Action(CLICK, x=rng.randrange(cols), y=rng.randrange(rows))
    target = objects[rng.randrange(len(objects))]
    cells = target.cells()
    y, x = cells[rng.randrange(len(cells))]
    return Action(CLICK, x=int(x), y=int(y))


class RandomAgent:
    """Picks uniformly among the available actions (never RESET); deterministic for a given seed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def begin(self, info: GameInfo, budget: int) -> None:
        """Reseed, so every session with the same seed plays the same actions for the same frames."""
        self._rng = random.Random(self.seed)

    def act(self, obs: Observation) -> Action | None:
        """A uniformly random available action; RESET only to leave a GAME_OVER frame; None if nothing is allowed."""
        if obs.game_over:
            return Action(RESET)
        choices = sorted({a for a in obs.available_actions if a != RESET})
        if not choices:
            return None
        action_id = choices[self._rng.randrange(len(choices))]
        if action_id == CLICK:
            return random_click(obs, self._rng)
        return Action(action_id)
