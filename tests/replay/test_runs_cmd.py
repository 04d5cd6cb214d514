"""`dreamteam runs` and `dreamteam compare` over real run directories (and damaged ones)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dreamteam.cli.runs_cmd import agent_label, cost_label, find_run_dirs, read_run_row
from dreamteam.report import game_summary
from tests.replay.helpers import make_run, run_cli


@pytest.fixture
def runs_root(tiny_run_template: Path, tmp_path: Path) -> Path:
    """replays/ with the tiny run, a maze run, a curated example, a corrupt run and a team-like run.json."""
    root = tmp_path / "replays"
    shutil.copytree(tiny_run_template, root / "a-tiny")
    make_run(root / "b-maze", "maze", agent="random", budget=25)
    shutil.copytree(tiny_run_template, root / "examples" / "c-example")
    (root / "d-corrupt").mkdir()
    (root / "d-corrupt" / "run.json").write_text("{not json")
    team = shutil.copytree(tiny_run_template, root / "e-team")
    meta = json.loads((team / "run.json").read_text())
    meta.update(agent="team", backends={"leader": {"backend": "anthropic"}, "observer": {"backend": "symbolic"}},
                calls={"calls": 12, "cost_usd": 0.0315, "unpriced_calls": 0})
    (team / "run.json").write_text(json.dumps(meta))
    (root / "README.md").write_text("not a run")
    (root / "empty").mkdir()
    return root


def test_runs_table(runs_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["runs", str(runs_root)]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("│")}
    assert set(lines) == {"a-tiny", "b-maze", "examples/c-example", "d-corrupt", "e-team"}
    assert "tiny-v1" in lines["a-tiny"] and "explorer" in lines["a-tiny"] and "2026-" not in lines["d-corrupt"]
    assert "maze-v1" in lines["b-maze"] and "0/6" in lines["b-maze"] and " 25 " in lines["b-maze"]
    assert "! run.json is corrupt" in lines["d-corrupt"]
    assert "team (anthropic+symbolic)" in lines["e-team"] and "$0.0315 · 12 calls" in lines["e-team"]


def test_runs_default_dir_and_empty_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "replays").mkdir()
    assert run_cli(["runs"]) == 0  # DREAMTEAM_REPLAYS_DIR points at tmp_path/replays in the tests
    assert "no runs in" in capsys.readouterr().out
    assert run_cli(["runs", str(tmp_path / "nope")]) == 2


def test_row_of_a_damaged_scorecard(tiny_run: Path) -> None:
    (tiny_run / "scorecard.json").write_text('{"environments": [{"id": "tiny-v1"}]}')
    row = read_run_row(tiny_run)
    assert row.error and row.run_id == "run"
    (tiny_run / "scorecard.json").unlink()
    row = read_run_row(tiny_run)
    assert row.error == "no scorecard.json" and row.game_id == "tiny-v1" and row.score == "-"


def test_labels() -> None:
    assert agent_label({"agent": "explorer", "backends": {}}) == "explorer"
    assert cost_label(None) == "-" and cost_label({"calls": 0}) == "-"
    assert cost_label({"calls": 3, "cost_usd": 0.5, "unpriced_calls": 1}) == "$0.5000 · 3 calls (1 unpriced)"


def test_find_run_dirs_skips_non_runs(runs_root: Path) -> None:
    names = [p.relative_to(runs_root).as_posix() for p in find_run_dirs(runs_root)]
    assert names == ["a-tiny", "b-maze", "d-corrupt", "e-team", "examples/c-example"]


def test_compare(tiny_run_template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixture_games = Path(__file__).resolve().parents[1] / "fixtures" / "games"
    other = make_run(tmp_path / "random", "tiny", agent="random", budget=30, env_dir=fixture_games)
    capsys.readouterr()
    assert run_cli(["compare", str(tiny_run_template), str(other)]) == 0
    out = capsys.readouterr().out
    card_a = game_summary(json.loads((tiny_run_template / "scorecard.json").read_text()), "tiny-v1")
    card_b = game_summary(json.loads((other / "scorecard.json").read_text()), "tiny-v1")
    rows = [line.split("│")[1:-1] for line in out.splitlines() if line.startswith("│")]
    level_rows = [[c.strip() for c in row] for row in rows if row[0].strip().isdigit()]
    assert [r[2] for r in level_rows] == [str(n) for n in card_a["level_actions"]]
    assert [r[4] for r in level_rows] == [str(n) for n in card_b["level_actions"]]
    total = [c.strip() for c in rows[-1]]
    assert total[0] == "total" and total[3] == f"{card_a['score']:.2f}" and total[5] == f"{card_b['score']:.2f}"


def test_compare_needs_scorecards(tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tiny_run / "scorecard.json").unlink()
    assert run_cli(["compare", str(tiny_run), str(tiny_run)]) == 2
    assert "cannot compare" in capsys.readouterr().err
    assert run_cli(["compare", str(tmp_path / "x"), str(tiny_run)]) == 2
