"""`dreamteam bench --ray [ADDRESS]`: the games as Ray tasks, on this machine or on a cluster.

The only module that imports Ray (an optional extra: `pip install 'dreamteam[ray]'`). Each game is one task
running the same `play_one` as the process pool, so the results are the same field by field (apart from wall
times). Joining a cluster by address ships this checkout's `dreamteam` package and the game directories to
the workers in the job's runtime_env; a local instance runs where the files already are.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dreamteam.errors import UserError

RAY_MISSING = ("--ray needs Ray, which is not installed: pip install 'dreamteam[ray]' "
               "(or pip install 'ray>=2.40,<3' into this environment)")
LOCAL = ("", "local")
"""Addresses meaning "start a Ray instance on this machine" (--ray without an address)."""

LOCAL_OBJECT_STORE = 200 * 1024 * 1024
"""Bytes of object store for a local instance: results are small dicts, and Ray's default is 30% of RAM."""

PlayOne = Callable[..., dict[str, Any]]
Done = Callable[[str, dict[str, Any]], None]


def require_ray() -> Any:
    """The `ray` module, or a UserError saying what to install."""
    try:
        import ray
    except ImportError as exc:
        raise UserError(RAY_MISSING) from exc
    return ray


def staged_dirs(dirs: list[str], into: Path) -> list[str]:
    """Copy each game directory to `into/envs/<i>` (the runtime_env's working_dir); their relative paths."""
    out = []
    for i, d in enumerate(dirs):
        target = into / "envs" / str(i)
        shutil.copytree(d, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        out.append(str(target.relative_to(into)))
    return out


@contextmanager
def connected(address: str | None, dirs: list[str], cpus: int | None) -> Iterator[list[str]]:
    """Connect to Ray (start a local instance, reuse one this process started, or join `address`) and yield
    the game directories as the workers will see them; disconnect at the end if this call connected."""
    ray = require_ray()
    if ray.is_initialized():
        yield dirs
        return
    address = (address or "").strip()
    with tempfile.TemporaryDirectory(prefix="dreamteam-ray-") as stage:
        if address in LOCAL:
            ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     object_store_memory=LOCAL_OBJECT_STORE)
            worker_dirs = dirs
        else:
            import dreamteam

            worker_dirs = staged_dirs(dirs, Path(stage))
            runtime_env = {"working_dir": stage, "py_modules": [str(Path(dreamteam.__file__).parent)]}
            try:
                ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise UserError(f"cannot join the Ray cluster at {address!r}: {exc}") from exc
        try:
            yield worker_dirs
        finally:
            ray.shutdown()


def run_on_ray(play: PlayOne, games: list[str], dirs: list[str], args: tuple[Any, ...], done: Done, *,
               address: str | None = None, cpus: int | None = None, levels: dict[str, int] | None = None) -> None:
    """Play each game as a Ray task `play(dirs, game, *args)`; `done(game, summary)` is called as each
    finishes. A task whose worker dies (or raises) is reported as that game's error (`levels`: each game's
    level count, for that report), and the other games go on."""
    ray = require_ray()
    with connected(address, dirs, cpus) as worker_dirs:
        task = ray.remote(num_cpus=1, max_retries=0)(play)
        started = time.perf_counter()
        refs = {task.remote(worker_dirs, g, *args): g for g in games}
        waiting = list(refs)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            game = refs[ready[0]]
            try:
                summary = ray.get(ready[0])
            except ray.exceptions.RayError as exc:
                summary = lost_game(game, exc, time.perf_counter() - started, (levels or {}).get(game, 0))
            done(game, summary)


def lost_game(game: str, exc: BaseException, wall_s: float, levels_total: int) -> dict[str, Any]:
    """The summary of a game whose task died: nothing played, the cause as its error."""
    from dreamteam.report import game_summary

    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    summary = game_summary({}, game)
    summary.update(levels_total=levels_total, wall_s=round(wall_s, 3), error=f"ray task failed ({type(exc).__name__}): {first}")
    return summary
