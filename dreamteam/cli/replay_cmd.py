"""`dreamteam replay RUN_DIR|RECORDING`: re-play a recording offline and check every frame and the scorecard.

Exit codes: 0 when everything matches; 1 when the replay diverges, the scorecard differs, or a file of the
run is truncated or corrupt; 2 when the recording cannot be checked here (the game version is not available
locally, the path is not a run directory or recording).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamteam.env.catalog import Catalog, env_dirs_from
from dreamteam.env.replay import (
    FORMAT_AGENTS,
    Recording,
    RecordingError,
    ReplayOutcome,
    embedded_score_differences,
    load_recording,
    replay_recording,
    scorecard_differences,
)
from dreamteam.errors import UserError
from dreamteam.report import game_summary, level_table, print_table
from dreamteam.rundir import RECORDING, RUN_JSON, SCORECARD

MISMATCH = 1


@dataclass(frozen=True, slots=True)
class ReplayTarget:
    """The recording file to replay and, for a DreamTeam run directory, the directory holding it."""

    recording: Path
    run_dir: Path | None


def register(subparsers: Any) -> None:
    """Add the `replay` sub-command."""
    p = subparsers.add_parser(
        "replay", help="re-play a run offline and verify every frame and the scorecard",
        description="Re-play the recorded actions of RUN_DIR (or a recording file: ours, the toolkit's "
                    "<game_id>-<guid>.jsonl or the ARC-AGI-3-Agents harness's *.recording.jsonl) against the same "
                    "game version offline. Checks every frame and the scorecard; prints the first divergence. "
                    "Exit 0: all match; 1: mismatch or damaged files; 2: cannot be checked here.")
    p.add_argument("path", type=Path, metavar="RUN_DIR", help="a run directory or a recording .jsonl file")
    p.add_argument("--env-dir", action="append", default=[], metavar="DIR",
                   help="extra directory of games (repeatable; run.json's env_dirs and $ENVIRONMENTS_DIR are read too)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay, print one OK line (plus the scorecard for foreign recordings) or the first mismatch."""
    target = find_target(args.path)
    meta = _run_meta(target.run_dir)
    recording = load_recording(target.recording)
    outcome = replay_recording(recording, catalog_with(args.env_dir, meta))
    if outcome.divergence is not None:
        print(f"MISMATCH {recording.game_id}: {outcome.divergence.message()}{_hint(recording, outcome)}")
        return MISMATCH
    problems = _run_dir_problems(target, meta, outcome)
    if problems:
        print(f"MISMATCH {recording.game_id}: {problems[0]}"
              + (f" (and {len(problems) - 1} more: {'; '.join(problems[1:4])})" if len(problems) > 1 else ""))
        return MISMATCH
    summary = game_summary(outcome.scorecard, recording.game_id)
    print(_ok_line(target, outcome, summary))
    if target.run_dir is None:
        print_table(level_table(summary))
        embedded = embedded_score_differences(recording, outcome.scorecard)
        if embedded:
            print("note: the scorecard entry inside the recording differs from the replay: " + "; ".join(embedded))
    return 0


def find_target(path: Path) -> ReplayTarget:
    """Resolve RUN_DIR (holding recording.jsonl, or exactly one .jsonl file) or a recording file."""
    if path.is_file():
        run_dir = path.parent if path.name == RECORDING and (path.parent / RUN_JSON).exists() else None
        return ReplayTarget(path, run_dir)
    if not path.is_dir():
        raise UserError(f"{path} does not exist")
    if (path / RECORDING).is_file():
        return ReplayTarget(path / RECORDING, path if (path / RUN_JSON).exists() or (path / SCORECARD).exists()
                            else None)
    found = sorted(path.glob("*.jsonl"))
    if len(found) == 1:
        return ReplayTarget(found[0], None)
    if not found:
        raise UserError(f"{path} holds no {RECORDING} or other .jsonl recording: is it a run directory?")
    raise UserError(f"{path} holds {len(found)} .jsonl files; name one: {', '.join(f.name for f in found[:5])}")


def catalog_with(cli_dirs: list[str], meta: dict[str, Any]) -> Catalog:
    """Bundled games, --env-dir, $ENVIRONMENTS_DIR, then the run's own env_dirs that still exist."""
    dirs = env_dirs_from(cli_dirs)
    for recorded in meta.get("env_dirs") or []:
        candidate = Path(str(recorded))
        if candidate.is_dir() and candidate not in dirs:
            dirs.append(candidate)
    return Catalog.scan(dirs)


def _run_dir_problems(target: ReplayTarget, meta: dict[str, Any], outcome: ReplayOutcome) -> list[str]:
    if target.run_dir is None:
        return []
    problems = []
    recorded_actions = (meta.get("result") or {}).get("actions")
    if isinstance(recorded_actions, int) and recorded_actions != outcome.actions_replayed:
        problems.append(f"{RECORDING} holds {outcome.actions_replayed} actions but {RUN_JSON} records "
                        f"{recorded_actions} (a truncated or extended recording)")
    card_path = target.run_dir / SCORECARD
    if card_path.exists():
        problems += [f"scorecard differs: {d}" for d in scorecard_differences(_read_json(card_path),
                                                                             outcome.scorecard)]
    return problems


def _ok_line(target: ReplayTarget, outcome: ReplayOutcome, summary: dict[str, Any]) -> str:
    result = (f"levels {summary['levels_completed']}/{len(summary['level_scores'])}, "
              f"actions {summary['actions']}, score {summary['score']:.2f}")
    if target.run_dir is None:
        scorecard = f"recomputed scorecard: {result}"
    elif (target.run_dir / SCORECARD).exists():
        scorecard = f"scorecard matches {SCORECARD} ({result})"
    else:
        scorecard = f"no {SCORECARD} to check (the run did not finish?); recomputed: {result}"
    rec = outcome.recording
    return (f"OK {rec.game_id}: {outcome.actions_replayed} actions replayed offline, all {outcome.frames_checked} "
            f"recorded frames match ({rec.format} recording {rec.path.name}); {scorecard}")


def _hint(recording: Recording, outcome: ReplayOutcome) -> str:
    if outcome.divergence is not None and outcome.divergence.step is None:
        return (" (the game's code or levels differ from the recorded run's although the version id is the "
                "same, or the recording was edited)")
    if recording.format == FORMAT_AGENTS and len(recording.entries) > 1 \
            and all(e.action_id == 0 for e in recording.entries):
        return (" (every action in this recording is RESET: it was probably written by a harness version that "
                "did not store the action taken, so it cannot be replayed)")
    return ""


def _run_meta(run_dir: Path | None) -> dict[str, Any]:
    if run_dir is None or not (run_dir / RUN_JSON).exists():
        return {}
    meta = _read_json(run_dir / RUN_JSON)
    if not isinstance(meta, dict):
        raise RecordingError(f"{run_dir / RUN_JSON} is corrupt: not a JSON object")
    return meta


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingError(f"{path} is unreadable: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordingError(f"{path} is corrupt: not valid JSON ({exc.msg} at line {exc.lineno})") from None
