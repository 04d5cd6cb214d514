"""The command line end to end on the fixture game: games, play, bench, and user mistakes."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from dreamteam.cli import main


def test_games_lists_bundled_and_extra_dirs(fixture_games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--env-dir", str(fixture_games)]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and "maze" in out


def test_play_writes_a_run_directory(fixture_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    code = main(["play", "tiny", "--env-dir", str(fixture_games), "--agent", "explorer", "--budget", "60",
                 "--out", str(run), "--quiet"])
    assert code == 0
    meta = json.loads((run / "run.json").read_text())
    assert meta["status"] == "finished" and meta["game_id"] == "tiny-v1"
    lines = (run / "recording.jsonl").read_text().splitlines()
    assert len(lines) == 1 + meta["result"]["actions"]
    card = json.loads((run / "scorecard.json").read_text())
    assert card["environments"][0]["id"] == "tiny-v1"
    assert str(run) in capsys.readouterr().out


def test_unknown_game_is_a_clear_error(fixture_games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "tinny", "--env-dir", str(fixture_games)]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'tinny'" in err and "tiny" in err and "Traceback" not in err


def test_unknown_agent_and_bad_budget(fixture_games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "tiny", "--env-dir", str(fixture_games), "--agent", "nope"]) != 0
    assert "nope" in capsys.readouterr().err
    assert main(["play", "tiny", "--env-dir", str(fixture_games), "--budget", "0"]) == 2


def test_env_dir_without_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--env-dir", str(tmp_path), "--out", str(tmp_path / "r.json")]) == 2
    assert "no games found" in capsys.readouterr().err


def test_missing_env_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--env-dir", str(tmp_path / "nope")]) == 2
    assert "not found" in capsys.readouterr().err


def test_bench_json_shape(fixture_games: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    assert main(["bench", "--env-dir", str(fixture_games), "--agent", "random", "--budget", "40",
                 "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["agent"] == "random" and res["budget"] == 40
    (game,) = res["games"]
    assert set(game) >= {"game_id", "levels_completed", "levels_total", "actions", "score", "wall_s"}
    assert game["levels_total"] == 2 and game["actions"] <= 40
    assert res["total"]["games"] == 1 and res["total"]["score"] == pytest.approx(game["score"])


def test_bench_reports_each_finished_game(fixture_games: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--env-dir", str(fixture_games), "--agent", "random", "--budget", "40", "--jobs", "2",
                 "--out", str(tmp_path / "r.json")]) == 0
    game = json.loads((tmp_path / "r.json").read_text())["games"][0]
    err = capsys.readouterr().err
    assert f"[1/1] {game['game_id']}: {game['levels_completed']}/2 levels, {game['actions']} actions" in err


def test_bench_with_jobs_matches_sequential(fixture_games: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    base = ["bench", "--env-dir", str(fixture_games), "--agent", "random", "--budget", "30", "--seed", "3"]
    assert main([*base, "--out", str(a)]) == 0
    assert main([*base, "--jobs", "2", "--out", str(b)]) == 0
    ga, gb = json.loads(a.read_text())["games"][0], json.loads(b.read_text())["games"][0]
    assert (ga["levels_completed"], ga["actions"], ga["score"]) == (gb["levels_completed"], gb["actions"], gb["score"])


def test_bench_counts_a_game_that_crashes_as_zero(fixture_games: Path, tmp_path: Path) -> None:
    games = tmp_path / "games"
    shutil.copytree(fixture_games / "tiny", games / "tiny")
    broken = games / "bust" / "v1"
    broken.mkdir(parents=True)
    (broken / "metadata.json").write_text(json.dumps({"game_id": "bust-v1", "baseline_actions": [1, 1],
                                                      "class_name": "Bust"}))
    (broken / "bust.py").write_text("raise RuntimeError('this game module is broken')\n")
    out = tmp_path / "r.json"
    assert main(["bench", "--env-dir", str(games), "--agent", "explorer", "--budget", "40", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    by_id = {g["game_id"]: g for g in res["games"]}
    assert by_id["bust-v1"]["score"] == 0 and "error" in by_id["bust-v1"]
    assert res["total"]["games"] == 2
    assert res["total"]["score"] == pytest.approx(by_id["tiny-v1"]["score"] / 2)


def test_online_needs_an_api_key(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("ARC_API_KEY", raising=False)
    assert main(["play", "maze", "--agent", "random", "--online"]) == 2
    assert "ARC_API_KEY" in capsys.readouterr().err


def test_a_bench_worker_ends_when_the_bench_process_is_killed(tmp_path: Path) -> None:
    # the bench's workers are started with `exit_with_parent`; kill their parent with SIGKILL (no cleanup
    # possible) and the worker must end by itself instead of playing on as an orphan
    import os
    import signal
    import subprocess
    import sys
    import time

    worker = ("import os, time; from dreamteam.cli.bench_cmd import exit_with_parent; "
              "exit_with_parent(os.getppid()); print(os.getpid(), flush=True); time.sleep(60)")
    parent = ("import subprocess, sys, time; "
              f"p = subprocess.Popen([sys.executable, '-c', {worker!r}], stdout=sys.stdout); time.sleep(60)")
    bench = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    try:
        assert bench.stdout is not None
        pid = int(bench.stdout.readline())
        assert _running(pid)
        os.kill(bench.pid, signal.SIGKILL)
        bench.wait(10)
        deadline = time.monotonic() + 10
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(pid)
    finally:
        bench.kill()


def _running(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _slow_tiny(games: Path, fixture_games: Path, name: str, step_code: str) -> None:
    """A copy of the tiny fixture game whose step first runs `step_code` (a slow or hanging step)."""
    src = (fixture_games / "tiny" / "v1" / "tiny.py").read_text()
    game = games / name / "v1"
    game.mkdir(parents=True)
    src = src.replace("    def step(self) -> None:\n", f"    def step(self) -> None:\n        {step_code}\n")
    src = src.replace('game_id="tiny"', f'game_id="{name}"').replace("class Tiny(", f"class {name.title()}(")
    (game / f"{name}.py").write_text("import time\n" + src)
    meta = json.loads((fixture_games / "tiny" / "v1" / "metadata.json").read_text())
    meta.update(game_id=f"{name}-v1", class_name=name.title(), local_dir=f"{name}/v1")
    (game / "metadata.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bench_game_timeout_scores_slow_and_hung_games_and_goes_on(fixture_games: Path, tmp_path: Path,
                                                                   jobs: str) -> None:
    games = tmp_path / "games"
    shutil.copytree(fixture_games / "tiny", games / "tiny")
    _slow_tiny(games, fixture_games, "slow", "time.sleep(0.05)")
    _slow_tiny(games, fixture_games, "hang", "while self.action.id == GameAction.ACTION1: pass")
    out = tmp_path / "r.json"
    start = time.monotonic()
    assert main(["bench", "--env-dir", str(games), "--agent", "random", "--budget", "400", "--seed", "1",
                 "--game-timeout", "1", "--jobs", jobs, "--out", str(out)]) == 0
    assert time.monotonic() - start < 60  # the hung game is cut off 5 s (the grace) after its timeout
    res = json.loads(out.read_text())
    by_id = {g["game_id"]: g for g in res["games"]}
    assert not by_id["tiny-v1"].get("timed_out") and by_id["tiny-v1"]["actions"] > 0
    slow = by_id["slow-v1"]
    assert slow["timed_out"] and 0 < slow["actions"] < 400  # stopped at a step boundary, scored as far as it got
    assert by_id["hang-v1"]["timed_out"]
    assert res["total"]["timed_out"] == 2 and res["total"]["games"] == 3


def test_bench_rejects_a_non_positive_game_timeout(fixture_games: Path, tmp_path: Path) -> None:
    assert main(["bench", "--env-dir", str(fixture_games), "--game-timeout", "0", "--out",
                 str(tmp_path / "r.json")]) == 2


def test_a_closed_output_pipe_ends_the_command_quietly(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # `dreamteam graph | head`: the reader goes away; no traceback, the shell's code for SIGPIPE
    import dreamteam.graph.build as build

    def closed() -> str:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(build, "mermaid", closed)
    assert main(["graph"]) == 141
    assert "Traceback" not in capsys.readouterr().err
