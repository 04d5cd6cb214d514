"""`dreamteam play GAME`: play one game and write a run directory."""

from __future__ import annotations

import argparse
import errno
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dreamteam.cli.common import add_agent_args, add_env_args, catalog_for, make_agent, positive
from dreamteam.cli.resume import prepare_resume
from dreamteam.cli.team_args import (
    add_team_args,
    team_backends,
    team_backends_from,
    team_options,
    team_scorers,
    team_scorers_from,
)
from dreamteam.env.recording import RecordingWriter
from dreamteam.env.session import Arena
from dreamteam.errors import StorageError, UserError
from dreamteam.paths import default_replays_dir
from dreamteam.report import game_summary, level_table, print_table
from dreamteam.rundir import (
    RECORDING,
    RUN_JSON,
    SCORECARD,
    code_version,
    create_run_dir,
    new_run_id,
    now_iso,
    read_json,
    write_json,
)
from dreamteam.runner import PlayResult, play
from dreamteam.types import Observation

DEFAULT_AGENT = "team"


def register(sub: Any) -> None:
    """Add the `play` sub-command."""
    p = sub.add_parser("play", help="play one game and write a run directory",
                       description="Play GAME (an id like maze or maze-v1) with an agent, showing progress, "
                                   "and write replays/<run-id>/ with run.json, recording.jsonl, scorecard.json.")
    p.add_argument("game", nargs="?", help="game id (base id picks the newest version)")
    add_agent_args(p, DEFAULT_AGENT)
    add_env_args(p)
    p.add_argument("--out", metavar="RUN_DIR", help="run directory (default: replays/<run-id>/)")
    add_team_args(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--resume", metavar="RUN_DIR",
                   help="continue a killed session from its last committed step (game, agent, budget from run.json)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the game, write the run directory, print the scorecard."""
    if args.resume:
        return run_resume(args)
    if not args.game:
        raise UserError("play needs a GAME (or --resume RUN_DIR)")
    budget = positive(args.budget, "--budget")
    catalog = catalog_for(args)
    if not args.online:
        catalog.require_games()
        info = catalog.game_info(args.game)
    game_id = info.game_id if not args.online else args.game
    backends = team_backends(args) if args.agent == "team" else None
    scorers = team_scorers(args) if args.agent == "team" else None
    run_dir = create_run_dir(Path(args.out) if args.out else default_replays_dir() / new_run_id(game_id, args.agent))
    agent = make_agent(args.agent, args.seed, **team_options(args, run_dir, backends, scorers))
    arena = Arena(catalog, online=args.online)
    meta: dict[str, Any] = {
        "run_id": run_dir.name, "game_id": game_id, "agent": args.agent, "seed": args.seed, "budget": budget,
        "backends": backends.summary() if backends else {}, "seed_workspace": args.seed_workspace,
        "cassette": args.cassette, "script": args.script,
        "patch_policy": args.policy, "scorers": scorers.summary() if scorers else {},
        "online": bool(args.online), "env_dirs": [str(d) for d in catalog.dirs],
        "code_version": code_version(), "started_at": now_iso(), "status": "running",
    }
    write_json(run_dir / RUN_JSON, meta)
    card = arena.new_scorecard(tags=["dreamteam", args.agent])
    recording = RecordingWriter(run_dir / RECORDING)
    try:
        with storage_faults(run_dir):
            session = arena.open(game_id, card, recording)
            result = _play_with_progress(session, agent, budget, quiet=args.quiet)
    finally:
        _quietly(recording.close)
    with storage_faults(run_dir):
        return _finish(run_dir, meta, arena, card, agent, result)


def _finish(run_dir: Path, meta: dict[str, Any], arena: Arena, card: str, agent: Any, result: PlayResult) -> int:
    scorecard = arena.scorecard(card)
    write_json(run_dir / SCORECARD, scorecard)
    meta.update(status="finished", ended_at=now_iso(), result=_result_json(result))
    totals = getattr(agent, "totals", None)
    if callable(totals):
        meta["calls"] = totals()
    write_json(run_dir / RUN_JSON, meta)
    print_table(level_table(game_summary(scorecard, str(meta["game_id"]))))
    print(f"stopped: {result.stop_reason} · run written to {run_dir}")
    return 0


def run_resume(args: argparse.Namespace) -> int:
    """Continue a killed run in place."""
    run_dir = Path(args.resume)
    catalog = catalog_for(args)
    recorded = read_json(run_dir / RUN_JSON)
    # the scorers load (and their checkpoints are checked) before anything of the run is changed
    scorers = team_scorers_from(recorded) if isinstance(recorded, dict) and recorded.get("agent") == "team" else None
    meta, arena, card, session, state = prepare_resume(run_dir, catalog)
    budget = int(meta["budget"])
    if meta["agent"] == "team":
        backends = team_backends_from(meta)
        agent: Any = make_agent("team", int(meta["seed"]), run_dir=run_dir, backends=backends,
                                seed_workspace=meta.get("seed_workspace", "default"),
                                policy=meta.get("patch_policy", "gate"), scorers=scorers)
        agent.resume(session.info, budget, state)
    else:
        agent = make_agent(str(meta["agent"]), int(meta["seed"]))
        agent.begin(session.info, budget)
    meta.setdefault("resumed_at", []).append({"time": now_iso(), "from_action": session.actions_taken})
    write_json(run_dir / RUN_JSON, meta)
    try:
        with storage_faults(run_dir):
            result = _play_with_progress(session, agent, budget, quiet=args.quiet, resumed=True)
    finally:
        if session.recording:
            _quietly(session.recording.close)
    with storage_faults(run_dir):
        return _finish(run_dir, meta, arena, card, agent, result)


STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EDQUOT, errno.EFBIG,
                            errno.EIO})
"""OSErrors that mean the run directory cannot be written: a clear message, not a traceback."""


@contextmanager
def storage_faults(run_dir: Path) -> Iterator[None]:
    """Turn a failure to write the run directory into a StorageError that says what is kept."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in STORAGE_ERRNOS:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        raise StorageError(f"cannot write the run directory: {exc.strerror or exc}{where}; the session stopped. "
                           f"Every committed step is kept: resume with `dreamteam play --resume {run_dir}` once "
                           "the fault is gone") from None


def _quietly(close: Callable[[], None]) -> None:
    """Close a file whose last write may have failed (the original error is the one to report)."""
    with suppress(OSError):
        close()


def _result_json(result: PlayResult) -> dict[str, Any]:
    return {
        "levels_completed": result.levels_completed, "levels_total": result.levels_total,
        "actions": result.actions, "state": result.state, "stop_reason": result.stop_reason,
        "wall_s": round(result.wall_s, 3), "env_s": round(result.env_s, 3), "agent_s": round(result.agent_s, 3),
    }


def _play_with_progress(session: Any, agent: Any, budget: int, *, quiet: bool, resumed: bool = False) -> PlayResult:
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, disable=quiet, transient=False) as progress:
        task = progress.add_task(_describe(session.observation, session.info.levels), total=budget)

        def on_step(obs: Observation) -> None:
            progress.update(task, completed=obs.step, description=_describe(obs, session.info.levels))

        return play(session, agent, budget, on_step=on_step, resumed=resumed)


def _describe(obs: Observation, levels: int) -> str:
    total = max(levels, obs.win_levels)
    return f"level {min(obs.levels_completed + 1, total)}/{total} · {obs.state.lower()}"
