"""`dreamteam bench`: play many games under one scorecard and write JSON results."""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dreamteam.cli.bench_ray import Done, require_ray, run_on_ray
from dreamteam.cli.common import add_agent_args, catalog_for, make_agent, positive
from dreamteam.cli.team_args import add_scorer_arg, team_scorers
from dreamteam.env.catalog import Catalog
from dreamteam.env.session import Arena, GameCrashed
from dreamteam.errors import UserError
from dreamteam.report import bench_table, game_summary, print_table
from dreamteam.runner import TIMED_OUT, play


def register(sub: Any) -> None:
    """Add the `bench` sub-command."""
    p = sub.add_parser("bench", help="play many games and write results JSON",
                       description="Play every game (the games in --env-dir directories when given, the bundled "
                                   "games otherwise) under one scorecard and write JSON results.")
    p.add_argument("--env-dir", action="append", default=[], metavar="DIR",
                   help="bench exactly the games under DIR (repeatable)")
    p.add_argument("--games", default="", metavar="ID,ID", help="only these games (full or base ids)")
    add_agent_args(p, "explorer")
    add_scorer_arg(p)
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="games played in parallel processes (default 1; with --ray: the local instance's CPUs)")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the games as Ray tasks: on a local Ray instance, or on the cluster at ADDRESS "
                        "('auto', 'ray://HOST:PORT', HOST:PORT); needs pip install 'dreamteam[ray]'")
    p.add_argument("--game-timeout", type=float, default=None, metavar="S",
                   help="wall-clock seconds per game: a game that runs out stops at its next step, is scored "
                        "as far as it got and marked timed_out (a step that hangs is cut off a grace period "
                        "later); the bench goes on")
    p.add_argument("--out", required=True, metavar="RESULTS.json", help="where to write the results")
    p.set_defaults(handler=run)


def select_games(catalog: Catalog, wanted: str) -> list[str]:
    """Full game ids to bench: all in the catalog, or those matching --games (base ids match all versions)."""
    ids = [i.game_id for i in catalog.infos]
    if not wanted:
        return ids
    picked: list[str] = []
    for w in (x.strip() for x in wanted.split(",") if x.strip()):
        matches = [g for g in ids if g == w or g.split("-", 1)[0] == w]
        if not matches:
            catalog.resolve(w)  # raises UnknownGameError with close matches
        picked += [m for m in matches if m not in picked]
    return picked


PARENT_CHECK_S = 1.0


def exit_with_parent(parent: int) -> None:
    """Worker initializer: end this worker once the bench process that started it is gone. A bench killed
    from outside (SIGTERM, SIGKILL) cannot shut its pool down, and its workers would otherwise play on for
    as long as their games last, taking the cores from whatever runs next."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def play_one(dirs: list[str], game_id: str, agent_name: str, budget: int, seed: int,
             arena: Arena | None = None, card: str | None = None, timeout: float | None = None,
             scorer: str | None = None) -> dict[str, Any]:
    """Play one game; returns its summary and the scorecard entry (used in-process and by workers).

    `scorer` is the team's --scorer spec (each worker loads the scorers itself; other agents ignore it).

    With `timeout` the session stops at the first step boundary past it (`timed_out`); a single step (the
    game's or the agent's) that hangs past the timeout plus a grace period is interrupted where it is.
    """
    if arena is None:
        arena = Arena(Catalog.scan([Path(d) for d in dirs]))
    card = card or arena.new_scorecard(tags=["dreamteam-bench", agent_name])
    start = time.perf_counter()
    error, timed_out, cost = None, False, {}
    levels_total = len(arena.catalog.resolve(game_id).baseline_actions or [])
    deadline = time.monotonic() + timeout if timeout else None
    agent = make_agent(agent_name, seed, **({"scorers": scorer} if agent_name == "team" and scorer else {}))
    try:
        with hard_deadline(timeout + grace_s(timeout) if timeout else None):
            session = arena.open(game_id, card)
            result = play(session, agent, budget, deadline=deadline)
        levels_total, timed_out = result.levels_total, result.stop_reason == TIMED_OUT
        steps = max(1, result.actions)
        cost = {"agent_ms_per_step": round(1000 * result.agent_s / steps, 2),
                "env_ms_per_step": round(1000 * result.env_s / steps, 2)}
    except GameCrashed as exc:
        error = str(exc)
    except StepHung:
        timed_out = True
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    summary = game_summary(arena.scorecard(card), game_id)
    summary.update(levels_total=levels_total, wall_s=round(time.perf_counter() - start, 3), **cost)
    if timed_out:
        summary["timed_out"] = True
    if error:
        summary["error"] = error
    return summary


class StepHung(BaseException):
    """A game's or an agent's step ran past the game's hard deadline (a BaseException, so that no `except
    Exception` in game or agent code swallows it)."""


def grace_s(timeout: float) -> float:
    """How long past a game's timeout one step may still run before it is interrupted."""
    return max(5.0, 0.25 * timeout)


@contextlib.contextmanager
def hard_deadline(seconds: float | None) -> Iterator[None]:
    """Raise StepHung in this thread once `seconds` have passed (a SIGALRM timer; only the main thread of a
    process can take signals, so elsewhere this does nothing and the cooperative deadline alone applies).
    The game and the agent are Python code, so the interrupt lands at the next bytecode of a hung loop."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def fire(_sig: int, _frame: Any) -> None:
        raise StepHung(f"a step was still running {seconds:.0f} s into the game")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(args: argparse.Namespace) -> int:
    """Bench the selected games and write the results."""
    budget = positive(args.budget, "--budget")
    jobs = positive(args.jobs, "--jobs") if args.jobs is not None else 1
    if args.ray is not None:
        require_ray()  # before any game: a clear message when Ray is not installed
    timeout = args.game_timeout
    if timeout is not None and timeout <= 0:
        raise UserError(f"--game-timeout must be positive, got {timeout}")
    catalog = catalog_for(args, include_bundled=not args.env_dir)
    catalog.require_games()
    games = select_games(catalog, args.games)
    make_agent(args.agent, args.seed)  # fail fast on an unknown agent
    # the team's scorers load here once, before any game (a bad spec or checkpoint stops the bench); each
    # game (in this process or a worker) then loads them from the spec
    scorers = team_scorers(args) if args.agent == "team" else None
    spec = scorers.portable_spec() if scorers else None
    dirs = [str(d) for d in catalog.dirs]
    start = time.perf_counter()
    if args.ray is not None:
        summaries = _run_ray(catalog, dirs, games, args.agent, (budget, args.seed, timeout, spec), args.ray, args.jobs)
    else:
        summaries = _run_all(catalog, dirs, games, args.agent, budget, args.seed, jobs, timeout, spec)
    results = _results(args.agent, budget, args.seed, summaries, time.perf_counter() - start)
    if scorers is not None:
        results["scorers"] = scorers.summary()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print_table(bench_table(results))
    print(f"results written to {out}")
    return 0


@contextlib.contextmanager
def _bench_progress(agent: str, games: list[str]) -> Iterator[tuple[Progress, Any, Done, dict[str, dict[str, Any]]]]:
    """The bar and `done(game, summary)`, which prints one line per finished game (a live bar draws nothing
    when stderr is a log file); yields (progress, task, done, summaries)."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    summaries: dict[str, dict[str, Any]] = {}
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task(f"bench {agent}", total=len(games))

        def done(g: str, summary: dict[str, Any]) -> None:
            summaries[g] = summary
            progress.advance(task)
            progress.console.print(f"[{len(summaries)}/{len(games)}] {done_line(summary)}", highlight=False)

        yield progress, task, done, summaries


def _run_all(catalog: Catalog, dirs: list[str], games: list[str], agent: str, budget: int, seed: int,
             jobs: int, timeout: float | None = None, scorer: str | None = None) -> dict[str, dict[str, Any]]:
    with _bench_progress(agent, games) as (progress, task, done, summaries):
        if jobs == 1:
            arena = Arena(catalog)
            card = arena.new_scorecard(tags=["dreamteam-bench", agent])
            for g in games:
                progress.update(task, description=f"bench {agent} · {g}")
                done(g, play_one(dirs, g, agent, budget, seed, arena, card, timeout, scorer))
        else:
            with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                                     initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:
                futures = {pool.submit(play_one, dirs, g, agent, budget, seed, None, None, timeout, scorer): g
                           for g in games}
                for fut in as_completed(futures):
                    done(futures[fut], fut.result())
    return {g: summaries[g] for g in games}


def _run_ray(catalog: Catalog, dirs: list[str], games: list[str], agent: str, play_args: tuple[Any, ...],
             address: str, cpus: int | None) -> dict[str, dict[str, Any]]:
    """The games as Ray tasks (see `bench_ray`), with the same progress output as the process pool."""
    budget, seed, timeout, scorer = play_args
    levels = {g: len(catalog.resolve(g).baseline_actions or []) for g in games}
    with _bench_progress(agent, games) as (_, _, done, summaries):
        run_on_ray(play_one, games, dirs, (agent, budget, seed, None, None, timeout, scorer), done, address=address,
                   cpus=cpus, levels=levels)
    return {g: summaries[g] for g in games}


def done_line(summary: dict[str, Any]) -> str:
    """One finished game, for progress output: id, levels, actions, score, wall time (and a crash)."""
    line = (f"{summary['game_id']}: {summary['levels_completed']}/{summary['levels_total']} levels, "
            f"{summary['actions']} actions, score {summary['score']:.2f}, {summary['wall_s']:.0f} s")
    line += " (timed out)" if summary.get("timed_out") else ""
    return line + (f" (error: {summary['error']})" if "error" in summary else "")


def _results(agent: str, budget: int, seed: int, summaries: dict[str, dict[str, Any]], wall: float) -> dict[str, Any]:
    rows = [{k: s[k] for k in ("game_id", "levels_completed", "levels_total", "actions", "score", "wall_s")}
            | {"level_scores": s["level_scores"], "level_actions": s["level_actions"],
               "level_baseline_actions": s["level_baseline_actions"]}
            | {k: s[k] for k in ("agent_ms_per_step", "env_ms_per_step", "timed_out", "error") if k in s}
            for s in summaries.values()]
    if not rows:
        raise UserError("no games selected")
    total = {
        "games": len(rows),
        "levels_completed": sum(r["levels_completed"] for r in rows),
        "levels_total": sum(r["levels_total"] for r in rows),
        "actions": sum(r["actions"] for r in rows),
        "score": sum(r["score"] for r in rows) / len(rows),
        "wall_s": round(wall, 3),
        "timed_out": sum(1 for r in rows if r.get("timed_out")),
        "errors": sum(1 for r in rows if "error" in r),
    }
    return {"agent": agent, "budget": budget, "seed": seed, "games": rows, "total": total}
