"""Play one game version through the official toolkit (`arc_agi.Arcade`), offline by default."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from arc_agi import Arcade, OperationMode
from arc_agi.wrapper import EnvironmentWrapper
from arcengine import FrameDataRaw, GameAction

from dreamteam.env.catalog import Catalog, to_game_info
from dreamteam.env.recording import RecordingWriter
from dreamteam.errors import UserError
from dreamteam.types import RESET, Action, GameInfo, Grid, Observation

_LOG = logging.getLogger("dreamteam.toolkit")


class GameCrashed(UserError):
    """The game module raised or returned nothing for an action."""

    exit_code = 4


class Arena:
    """One `arc_agi.Arcade` over a catalog of games, with scorecards kept by the toolkit."""

    def __init__(self, catalog: Catalog, *, online: bool = False) -> None:
        self.catalog = catalog
        self.online = online
        # The toolkit's scorecard logger prints INFO lines to stdout by itself; keep it quiet unless asked.
        quiet = not _LOG.isEnabledFor(logging.INFO)
        logging.getLogger("arc_agi.scorecard").setLevel(logging.WARNING if quiet else logging.INFO)
        if online:
            key = os.environ.get("ARC_API_KEY", "")
            if not key:
                raise UserError("--online needs the ARC_API_KEY environment variable (an ARC-AGI-3 API key)")
            self.arcade = Arcade(arc_api_key=key, operation_mode=OperationMode.ONLINE, logger=_LOG)
        else:
            # Point the toolkit at no directory and hand it our catalog: it scans only one directory itself.
            self.arcade = Arcade(
                operation_mode=OperationMode.OFFLINE,
                environments_dir=os.devnull,
                recordings_dir=os.devnull,
                logger=_LOG,
            )
            self.arcade.available_environments = list(catalog.infos)

    def new_scorecard(self, tags: list[str] | None = None) -> str:
        """Open a scorecard and return its id."""
        return str(self.arcade.create_scorecard(tags=tags or ["dreamteam"]))

    def scorecard(self, card_id: str) -> dict[str, Any]:
        """The toolkit's scorecard as JSON-able data."""
        card = self.arcade.get_scorecard(card_id)
        if card is None:
            raise UserError(f"scorecard {card_id} not found")
        data: dict[str, Any] = card.model_dump(mode="json")
        return data

    def open(self, game_id: str, card_id: str, recording: RecordingWriter | None = None) -> GameSession:
        """Start a session of one game (the toolkit sends the initial RESET)."""
        info = self.catalog.resolve(game_id) if not self.online else None
        full_id = info.game_id if info else game_id
        env = self.arcade.make(full_id, scorecard_id=card_id)
        if env is None:
            raise GameCrashed(f"the toolkit could not start game {full_id!r} (see the log above)")
        game_info = to_game_info(info) if info else GameInfo(full_id, full_id, ())
        return GameSession(env, game_info, recording)


@dataclass
class StepTiming:
    """Wall time spent inside the toolkit and game code."""

    env_s: float = 0.0
    steps: int = 0
    per_step_ms: list[float] = field(default_factory=list)


class GameSession:
    """A live game: turns toolkit responses into Observations and guards the engine's RESET semantics.

    The engine restarts the whole game on a RESET sent when no action was taken since the level began
    (right after a level-up or another RESET). The harness refuses such a RESET instead of letting it
    wipe the levels already completed; `reset_would_restart_game` tells an agent beforehand.
    """

    def __init__(self, env: EnvironmentWrapper, info: GameInfo, recording: RecordingWriter | None) -> None:
        self.env = env
        self.info = info
        self.recording = recording
        self.timing = StepTiming()
        self.actions_taken = 0
        self.actions_since_level_start = 0
        first = env.observation_space
        if first is None:
            raise GameCrashed(f"game {info.game_id} produced no initial frame")
        self._last_grid: Grid = np.zeros((64, 64), dtype=np.int8)
        self.observation = self._observe(first, None)
        if recording:
            recording.write(first)

    @property
    def reset_would_restart_game(self) -> bool:
        """True when a RESET now would restart the whole game rather than the level."""
        return self.actions_since_level_start == 0

    def step(self, action: Action, reasoning: dict[str, Any] | None = None) -> Observation:
        """Send one action and return the new observation."""
        if action.id == RESET and self.reset_would_restart_game and self.observation.state != "GAME_OVER":
            raise UserError("refused RESET: no action since the level began, so it would restart the game")
        start = time.perf_counter()
        resp = self.env.step(GameAction.from_id(action.id), data=action.data(), reasoning=reasoning)
        elapsed = time.perf_counter() - start
        if resp is None:
            raise GameCrashed(f"game {self.info.game_id} failed on {action.label()} (see the log above)")
        self.timing.env_s += elapsed
        self.timing.steps += 1
        self.timing.per_step_ms.append(elapsed * 1000)
        if self.recording:
            self.recording.write(resp, reasoning)
        previous_levels = self.observation.levels_completed
        self.actions_taken += 1
        self.observation = self._observe(resp, action)
        if action.id == RESET or self.observation.levels_completed != previous_levels:
            self.actions_since_level_start = 0
        else:
            self.actions_since_level_start += 1
        return self.observation

    def _observe(self, resp: FrameDataRaw, action: Action | None) -> Observation:
        frames = tuple(np.asarray(f, dtype=np.int8) for f in resp.frame)
        if frames:
            self._last_grid = frames[-1]
        state = resp.state.name if hasattr(resp.state, "name") else str(resp.state)
        return Observation(
            grid=self._last_grid,
            frames=frames or (self._last_grid,),
            state=state,
            levels_completed=int(resp.levels_completed),
            win_levels=int(resp.win_levels),
            available_actions=tuple(int(a) for a in resp.available_actions),
            step=self.actions_taken,
            last_action=action,
            full_reset=bool(getattr(resp, "full_reset", False)),
        )
