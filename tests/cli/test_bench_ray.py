"""`dreamteam bench --ray`: a local Ray head on 127.0.0.1 started by the test, the same results as the process
pool, a dead worker reported for its game, the cluster path (runtime_env shipping) and Ray missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from dreamteam.cli import main
from dreamteam.cli.bench_cmd import play_one
from dreamteam.cli.bench_ray import run_on_ray
from dreamteam.env.catalog import bundled_games_dir

ROOT = Path(__file__).resolve().parents[2]
GAMES = "maze,flip,push"
TIMINGS = ("wall_s", "agent_ms_per_step", "env_ms_per_step")
"""The only fields allowed to differ between two benches of the same games."""


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A Ray head on the loopback address with 2 CPUs and a small object store; yields its GCS address."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
             _node_ip_address="127.0.0.1", log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def _bench(out: Path, *extra: str, games: str = GAMES, agent: str = "team", budget: int = 25) -> dict[str, Any]:
    assert main(["bench", "--agent", agent, "--budget", str(budget), "--games", games, "--out", str(out),
                 *extra]) == 0
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def _without_timings(results: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k not in TIMINGS} for row in results["games"]]


def test_ray_results_equal_the_process_pool(ray_head: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pool = _bench(tmp_path / "pool.json", "--jobs", "2")
    capsys.readouterr()
    on_ray = _bench(tmp_path / "ray.json", "--ray")
    err = capsys.readouterr().err
    assert [row["game_id"] for row in on_ray["games"]] == ["maze-v1", "flip-v1", "push-v1"]
    assert _without_timings(on_ray) == _without_timings(pool)
    assert {k: v for k, v in on_ray["total"].items() if k != "wall_s"} == \
        {k: v for k, v in pool["total"].items() if k != "wall_s"}
    assert sum(r["actions"] for r in on_ray["games"]) > 0
    for n in (1, 2, 3):  # the per-game progress lines, as with the pool
        assert f"[{n}/3] " in err


def test_game_timeout_is_honoured_on_ray(ray_head: str, tmp_path: Path) -> None:
    results = _bench(tmp_path / "r.json", "--ray", "--game-timeout", "2", games="lava", budget=3000)
    row = results["games"][0]
    assert row.get("timed_out") is True and 0 < row["actions"] < 3000 and results["total"]["timed_out"] == 1


def test_a_dead_worker_is_reported_for_its_game_and_the_rest_go_on(ray_head: str) -> None:
    def dies_on_flip(dirs: list[str], game: str, *args: Any) -> dict[str, Any]:
        if game.startswith("flip"):
            os._exit(3)  # the worker process dies mid-task
        return play_one(dirs, game, *args)

    finished: dict[str, dict[str, Any]] = {}
    run_on_ray(dies_on_flip, ["maze-v1", "flip-v1", "push-v1"], [str(bundled_games_dir())],
               ("explorer", 20, 0, None, None, None), finished.__setitem__, levels={"flip-v1": 6})
    assert sorted(finished) == ["flip-v1", "maze-v1", "push-v1"]
    dead = finished["flip-v1"]
    assert "error" in dead and "WorkerCrashedError" in dead["error"] and dead["levels_total"] == 6
    assert dead["actions"] == 0 and dead["levels_completed"] == 0
    assert finished["maze-v1"]["actions"] == 20 and "error" not in finished["push-v1"]


def test_joining_a_cluster_by_address_ships_the_package_and_the_games(ray_head: str, tmp_path: Path) -> None:
    out = tmp_path / "joined.json"
    cmd = [sys.executable, "-m", "dreamteam.cli", "bench", "--ray", ray_head, "--agent", "explorer",
           "--budget", "20", "--games", "maze,push", "--out", str(out)]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    joined = json.loads(out.read_text())
    local = _bench(tmp_path / "local.json", games="maze,push", agent="explorer", budget=20)
    assert _without_timings(joined) == _without_timings(local)


def test_without_ray_installed_ray_stops_before_any_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    out = tmp_path / "r.json"
    assert main(["bench", "--ray", "--games", "maze", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'dreamteam[ray]'" in err and "[1/1]" not in err and not out.exists()


def test_ray_tasks_load_the_team_scorers(ray_head: str, tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    ckpt = tmp_path / "marker.ckpt"
    ckpt.write_text(str(log), encoding="utf-8")
    results = _bench(tmp_path / "r.json", "--ray", "--scorer", f"tests.scorers.plugins:Marker@{ckpt}",
                     games="maze", budget=15)
    assert results["scorers"]["scorers"][0]["name"] == "marker"
    pids = {line.split()[0] for line in log.read_text().splitlines()}
    assert pids and str(os.getpid()) not in pids, "the Ray task loaded and called the scorer"
