"""`--scorer` on the command line: clear errors before any game, the scores in every record, the leader
following the scorers, resume and bench workers loading the same scorers."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dreamteam.cli import main, play_cmd
from dreamteam.cli.team_args import team_scorers_from
from dreamteam.errors import ScorerError
from dreamteam.scorers.registry import sha256_file

PLUGINS = "tests.scorers.plugins"
BUDGET = 70


@pytest.mark.parametrize(("spec", "message"), [
    ("nosuch", "unknown scorer 'nosuch'; scorers are: rollout, latent, critic"),
    ("no_such_pkg_xyz.scorers:Thing", "no module named 'no_such_pkg_xyz.scorers'"),
    (f"{PLUGINS}:Nope", "has no attribute 'Nope'"),
    ("latent:/no/such/latent.ckpt", "checkpoint '/no/such/latent.ckpt' does not exist"),
    (f"{PLUGINS}:refuses", "wrong shape"),
])
@pytest.mark.parametrize("command", ["play", "bench"])
def test_a_bad_scorer_stops_before_the_game(command: str, spec: str, message: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / ("run" if command == "play" else "results.json")
    args = (["play", "maze"] if command == "play" else ["bench", "--games", "maze", "--jobs", "2"])
    assert main([*args, "--agent", "team", "--budget", "5", "--scorer", spec, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.startswith("error: ")
    assert not out.exists(), "nothing is written before the scorers load"
    assert "[1/1]" not in err


def test_help_documents_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "bench"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "--scorer SPEC" in text and "NAME[:CHECKPOINT]" in text and "MODULE:ATTR[@CHECKPOINT]" in text
        assert "(default: rollout" in text


def _play(run: Path, *extra: str) -> None:
    assert main(["play", "maze", "--agent", "team", "--budget", str(BUDGET), "--quiet", "--out", str(run),
                 *extra]) == 0


def _decisions(run: Path) -> list[dict[str, Any]]:
    """Every leader decision of the run, from leader.json at each commit (its log keeps the last 30)."""
    shas = subprocess.run(["git", "-C", str(run / "workspace"), "log", "--format=%H", "--", "leader.json"],
                          capture_output=True, text=True, check=True).stdout.split()
    seen: dict[int, dict[str, Any]] = {}
    for sha in shas:
        text = subprocess.run(["git", "-C", str(run / "workspace"), "show", f"{sha}:leader.json"],
                              capture_output=True, text=True, check=True).stdout
        for d in json.loads(text).get("decisions", []):
            seen.setdefault(int(d["step"]), d)
    return [seen[k] for k in sorted(seen)]


def _messages(run: Path) -> str:
    return subprocess.run(["git", "-C", str(run / "workspace"), "log", "--format=%B"],
                          capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same game and seed played with the default scorer and with the reversing one."""
    root = tmp_path_factory.mktemp("scored")
    _play(root / "default")
    _play(root / "reverse", "--scorer", f"{PLUGINS}:Reverse")
    return {"default": root / "default", "reverse": root / "reverse"}


def _followed(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Decisions that followed a tactic while at least two were scored."""
    return [d for d in decisions if len(d.get("scores") or []) > 1
            and d["source"] in {s["tactic"] for s in d["scores"]}]


def _expected(d: dict[str, Any]) -> dict[str, Any]:
    """The scored tactic the leader should have taken: the first, or under a flagged loop the second."""
    return d["scores"][1 if "a loop was flagged" in d["reason"] else 0]


def test_by_default_the_leader_gets_the_explorers_order(runs: dict[str, Path]) -> None:
    decisions = _decisions(runs["default"])
    scored = [d for d in decisions if d.get("scores")]
    assert scored, "the inductive node scored tactics"
    for d in scored:
        assert [s["explorer_rank"] for s in d["scores"]] == list(range(len(d["scores"])))
        assert all(set(s["scores"]) == {"rollout"} for s in d["scores"])
    followed = _followed(decisions)
    assert followed and all(d["source"] == _expected(d)["tactic"] for d in followed)
    meta = json.loads((runs["default"] / "run.json").read_text())
    assert meta["scorers"]["spec"] == "rollout"
    assert [s["name"] for s in meta["scorers"]["scorers"]] == ["rollout"]


def test_the_leader_follows_the_tactic_a_plugged_in_scorer_puts_first(runs: dict[str, Path]) -> None:
    followed = _followed(_decisions(runs["reverse"]))
    assert followed
    for d in followed:
        top = d["scores"][0]
        assert top["explorer_rank"] == len(d["scores"]) - 1  # the reversing scorer's order
        assert top["scores"]["reverse"]["status"] == "used" and top["combined"] == 1.0
        assert d["source"] == _expected(d)["tactic"]
        if _expected(d) is top and d["goal"] != "VALIDATE":
            assert "the scorers ranked it first" in d["reason"]
    assert any(_expected(d) is d["scores"][0] and d["goal"] != "VALIDATE" for d in followed), \
        "the leader followed the reversed top tactic at least once"
    default_first = {(d["step"], _expected(d)["tactic"]) for d in _followed(_decisions(runs["default"]))}
    reverse_first = {(d["step"], d["source"]) for d in followed}
    assert default_first != reverse_first, "the reversed ranking changed what the leader followed"


def test_scores_are_in_the_commit_messages_and_run_json(runs: dict[str, Path]) -> None:
    messages = _messages(runs["reverse"])
    assert "\nscores:\n- " in messages
    lines = [line for line in messages.splitlines() if line.startswith("- ") and " explorer #" in line]
    assert lines and all("reverse " in line and "combined " in line for line in lines)
    assert any("(reverse: " in line for line in lines), "the scorer's notes are in the message"
    meta = json.loads((runs["reverse"] / "run.json").read_text())
    (scorer,) = meta["scorers"]["scorers"]
    assert scorer["name"] == "reverse" and scorer["factory"] == f"{PLUGINS}:Reverse" and scorer["sha256"] is None
    leader = json.loads((runs["reverse"] / "workspace" / "leader.json").read_text())
    assert leader["scorers"] == ["reverse"]


def test_the_viewer_shows_the_scores(runs: dict[str, Path], tmp_path: Path) -> None:
    from dreamteam.env.replay import load_recording
    from dreamteam.viewer.model import build_view

    view = build_view(load_recording(runs["reverse"] / "recording.jsonl"), runs["reverse"])
    with_scores = [s for s in view["steps"] if (s.get("ws") or {}).get("scores")]
    assert with_scores
    ws = with_scores[0]["ws"]
    assert ws["decision"]["current"] and ws["decision"]["scores"][0]["scores"]["reverse"]["note"].startswith("reverse: ")
    assert main(["view", str(runs["reverse"]), "--out", str(tmp_path / "v.html")]) == 0
    assert "tacticScores" in (tmp_path / "v.html").read_text()


def test_resume_restores_the_scorers_and_checks_their_checkpoints(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    ckpt = tmp_path / "values.txt"
    ckpt.write_text("0 1 2 3 4 5\n", encoding="utf-8")
    meta = {"agent": "team", "scorers": {"spec": "x", "scorers": [
        {"name": "rollout", "ref": "rollout", "checkpoint": None, "sha256": None},
        {"name": "fromfile", "ref": f"{PLUGINS}:FromFile", "checkpoint": str(ckpt), "sha256": sha256_file(ckpt)}]}}
    restored = team_scorers_from(meta)
    assert restored.names == ["rollout", "fromfile"] and restored.loaded[1].entry.checkpoint == str(ckpt)
    assert team_scorers_from({"agent": "team"}).names == ["rollout"], "runs recorded before scorers: rollout"
    ckpt.write_text("5 4 3\n", encoding="utf-8")
    with pytest.raises(ScorerError, match="changed since the run began"):
        team_scorers_from(meta)


def test_play_resume_restores_the_scorers_and_refuses_a_changed_checkpoint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ckpt = tmp_path / "values.txt"
    ckpt.write_text("0 1 2 3 4\n", encoding="utf-8")
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--budget", "6", "--quiet", "--out", str(run),
                 "--scorer", f"rollout,{PLUGINS}:FromFile@{ckpt}"]) == 0
    meta = json.loads((run / "run.json").read_text())
    assert meta["scorers"]["scorers"][1]["sha256"] == sha256_file(ckpt)
    meta["status"] = "running"  # as a killed session leaves it
    (run / "run.json").write_text(json.dumps(meta))
    built: list[Any] = []
    original = play_cmd.make_agent
    monkeypatch.setattr(play_cmd, "make_agent", lambda *a, **kw: built.append(kw) or original(*a, **kw))
    assert main(["play", "--resume", str(run), "--quiet"]) == 0
    assert built[0]["scorers"].names == ["rollout", "fromfile"], "the resumed team plays with the run's scorers"
    assert json.loads((run / "run.json").read_text())["scorers"] == meta["scorers"]
    (run / "run.json").write_text(json.dumps(meta))
    before = {p: p.read_bytes() for p in (run / "recording.jsonl", run / "run.json")}
    ckpt.write_text("9 9 9\n", encoding="utf-8")
    assert main(["play", "--resume", str(run), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "changed since the run began" in err and "Traceback" not in err
    assert {p: p.read_bytes() for p in before} == before, "the refused resume changed nothing"


def test_bench_workers_load_the_scorers(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    ckpt = tmp_path / "marker.ckpt"
    ckpt.write_text(str(log), encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["bench", "--agent", "team", "--games", "maze,push", "--budget", "15", "--jobs", "2",
                 "--scorer", f"{PLUGINS}:Marker@{ckpt}", "--out", str(out)]) == 0
    results = json.loads(out.read_text())
    assert results["scorers"]["scorers"][0]["name"] == "marker"
    assert results["scorers"]["scorers"][0]["sha256"] == sha256_file(ckpt)
    pids = {line.split()[0] for line in log.read_text().splitlines()}
    assert len(pids) == 2, "each of the two worker processes loaded and called the scorer"
    assert str(os.getpid()) not in pids


def test_scorers_run_only_on_steps_that_decide(tmp_path: Path) -> None:
    """The fast path (a plan going on while its predictions hold) and steps without tactics score nothing:
    the scorer is called exactly once per decision that has scored tactics."""
    log = tmp_path / "calls.log"
    ckpt = tmp_path / "marker.ckpt"
    ckpt.write_text(str(log), encoding="utf-8")
    run = tmp_path / "run"
    _play(run, "--scorer", f"{PLUGINS}:Marker@{ckpt}")
    calls = log.read_text().splitlines()
    decisions = _decisions(run)
    scored = [d for d in decisions if d.get("scores")]
    assert calls and len(calls) == len(scored)
    assert [int(c.split()[1]) for c in calls] == [len(d["scores"]) for d in scored]
    assert len(decisions) < BUDGET, "some steps went on with a committed plan"
    commits = _messages(run).count("\nscores:\n")
    assert commits == len(scored), "one scores paragraph per scored decision"


def test_a_scorers_critique_reaches_critique_json_and_the_leaders_feedback(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _play(run, "--scorer", f"rollout,{PLUGINS}:Critiques")
    shas = subprocess.run(["git", "-C", str(run / "workspace"), "log", "--format=%H", "--", "critique.json"],
                          capture_output=True, text=True, check=True).stdout.split()
    routed = []
    for sha in shas:
        record = json.loads(subprocess.run(["git", "-C", str(run / "workspace"), "show", f"{sha}:critique.json"],
                                           capture_output=True, text=True, check=True).stdout)
        if record.get("critiques"):
            routed.append(record)
    assert routed, "some step had tactics, so the critique was recorded"
    for record in routed:
        (line,) = record["critiques"]["critiques"]
        assert line.startswith("tactic ") and line.endswith(" is likely to lose the level")
        for role in ("leader", "inductive"):
            assert f"critiques critique: {line}" in record["feedback"][role]
