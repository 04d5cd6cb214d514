"""Helpers for the replay / runs / viewer tests: run the CLI, make runs and recordings in three formats."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from arc_agi import Arcade, OperationMode
from arcengine import FrameData, GameAction

import dreamteam.cli as cli

OWN_COMMANDS = ("dreamteam.cli.replay_cmd", "dreamteam.cli.runs_cmd", "dreamteam.cli.view_cmd")
GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


def run_cli(argv: list[str]) -> int:
    """`dreamteam ARGV` through the real entry point, with this issue's commands registered."""
    modules = tuple(dict.fromkeys((*cli.COMMAND_MODULES, *OWN_COMMANDS)))
    with mock.patch.object(cli, "COMMAND_MODULES", modules):
        return cli.main(argv)


def make_run(out: Path, game: str, *, agent: str = "explorer", budget: int = 40, env_dir: Path | None = None,
             seed: int = 0) -> Path:
    """Play a game with `dreamteam play` into `out` and return the run directory."""
    argv = ["play", game, "--agent", agent, "--budget", str(budget), "--seed", str(seed), "--out", str(out), "--quiet"]
    if env_dir is not None:
        argv += ["--env-dir", str(env_dir)]
    assert run_cli(argv) == 0
    return out


def edit_line(path: Path, index: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply `change` to the `data` object of line `index` (0-based) of a JSONL recording."""
    lines = path.read_text().splitlines()
    event = json.loads(lines[index])
    change(event["data"])
    lines[index] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n")


def _random_actions(env: Any, count: int, seed: int) -> list[tuple[GameAction, dict[str, Any]]]:
    rng = random.Random(seed)
    chosen = []
    for _ in range(count):
        action = rng.choice([a for a in env.action_space if a != GameAction.RESET])
        chosen.append((action, {"x": rng.randrange(64), "y": rng.randrange(64)} if action.is_complex() else {}))
    return chosen


def toolkit_recording(tmp: Path, game_dir: Path, game_id: str, actions: int = 25, seed: int = 1) -> tuple[Path, Any]:
    """Play random actions with arc_agi's own `save_recording=True`; returns the file and the toolkit scorecard."""
    arcade = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=str(game_dir),
                    recordings_dir=str(tmp / "recordings"))
    env = arcade.make(game_id, save_recording=True)
    assert env is not None
    for action, data in _random_actions(env, actions, seed):
        env.step(action, data=data)
    (path,) = (tmp / "recordings").rglob("*.jsonl")
    card = arcade.get_scorecard()
    assert card is not None
    return path, card.model_dump(mode="json")


def agents_recording(tmp: Path, game_dir: Path, game_id: str, actions: int = 25, seed: int = 2,
                     store_action: bool = True) -> Path:
    """Write what the ARC-AGI-3-Agents harness writes (agents/agent.py + agents/recorder.py), offline.

    The agent sends RESET first, records a `FrameData` dump per response (not the initial frame that
    `arcade.make` produced) and, on cleanup, `scorecard.get(game_id)` (an empty object offline).
    `store_action=False` imitates harness versions that left `action_input` at its default (RESET).
    """
    arcade = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=str(game_dir),
                    recordings_dir=str(tmp / "unused"))
    env = arcade.make(game_id)
    assert env is not None
    path = tmp / f"{game_id.split('-')[0]}.random.{seed}.0b1e5c8e-0000-4000-8000-000000000000.recording.jsonl"
    events = []
    for action, data in [(GameAction.RESET, {}), *_random_actions(env, actions, seed)]:
        raw = env.step(action, data={"game_id": game_id, **data})
        frame = FrameData(game_id=raw.game_id, frame=[f.tolist() for f in raw.frame], state=raw.state,
                          levels_completed=raw.levels_completed, win_levels=raw.win_levels,
                          guid=raw.guid, full_reset=raw.full_reset, available_actions=raw.available_actions,
                          **({"action_input": raw.action_input} if store_action else {}))
        events.append({"timestamp": "2026-01-01T00:00:00+00:00", "data": json.loads(frame.model_dump_json())})
    card = arcade.get_scorecard()
    assert card is not None
    events.append({"timestamp": "2026-01-01T00:00:01+00:00", "data": card.get(game_id)})
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path
