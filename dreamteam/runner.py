"""The play loop: one agent, one game session, an action budget."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from dreamteam.env.session import GameSession
from dreamteam.protocols import Agent
from dreamteam.types import RESET, Action, Observation

MAX_RESET_REFUSALS = 3
TIMED_OUT = "timed_out"
"""The stop reason of a session that ran past its deadline."""


@dataclass(frozen=True, slots=True)
class PlayResult:
    """How a session ended and what it cost."""

    game_id: str
    levels_completed: int
    levels_total: int
    actions: int
    state: str
    stop_reason: str
    wall_s: float
    env_s: float
    agent_s: float

    @property
    def loop_overhead_s(self) -> float:
        """Time spent outside the game and the agent: the harness itself."""
        return max(0.0, self.wall_s - self.env_s - self.agent_s)


StepCallback = Callable[[Observation], None]


def play(session: GameSession, agent: Agent, budget: int, on_step: StepCallback | None = None,
         *, resumed: bool = False, deadline: float | None = None) -> PlayResult:
    """Run `agent` on `session` until WIN, the budget, or the agent ends it; RESET after GAME_OVER.

    With `resumed` the agent was already prepared for a session restored mid-game (no `begin` call). With
    `deadline` (a `time.monotonic()` value) the session also stops, as `timed_out`, at the first step boundary
    past it.
    """
    start = time.perf_counter()
    agent_s = 0.0
    refusals = 0
    if not resumed:
        agent.begin(session.info, budget)
    obs = session.observation
    stop = "budget"
    while True:
        if obs.state == "WIN":
            stop = "win"
            break
        if session.actions_taken >= budget:
            stop = "budget"
            break
        if deadline is not None and time.monotonic() >= deadline:
            stop = TIMED_OUT
            break
        if obs.game_over and not getattr(agent, "handles_game_over", False):
            action: Action | None = Action(RESET)
        else:
            t0 = time.perf_counter()
            action = agent.act(obs)
            agent_s += time.perf_counter() - t0
            if action is None:
                stop = "agent ended the session"
                break
            if obs.game_over and action.id != RESET:
                action = Action(RESET)  # after GAME_OVER the engine ignores everything but RESET
            if action.id == RESET and session.reset_would_restart_game:
                refusals += 1
                if refusals > MAX_RESET_REFUSALS:
                    stop = "agent kept asking for a RESET that would restart the whole game"
                    break
                obs = replace(obs, notes=("reset-refused: no action since the level began",))
                continue
        refusals = 0
        assert action is not None
        obs = session.step(action)
        if on_step:
            on_step(obs)
    end = getattr(agent, "end", None)
    if callable(end):
        t0 = time.perf_counter()
        end(obs)
        agent_s += time.perf_counter() - t0
    return PlayResult(
        game_id=session.info.game_id,
        levels_completed=obs.levels_completed,
        levels_total=max(obs.win_levels, session.info.levels),
        actions=session.actions_taken,
        state=obs.state,
        stop_reason=stop,
        wall_s=time.perf_counter() - start,
        env_s=session.timing.env_s,
        agent_s=agent_s,
    )
