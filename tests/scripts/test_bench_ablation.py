"""scripts/bench_ablation.py: settings side by side from a resumable state file, shorter budgets from the same runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_ablation.py"


def _record(game: str, config: str, level_actions: list[int], completed: int, ms: float) -> dict[str, Any]:
    return {"suite": "bundled", "game_id": game, "config": config, "spec": config.replace("+", ","), "budget": 1000,
            "game": {"game_id": game, "levels_completed": completed, "levels_total": 5, "actions": 1000,
                     "level_actions": level_actions, "level_baseline_actions": [10] * len(level_actions),
                     "agent_ms_per_step": ms}}


def test_reports_only_games_every_setting_finished_and_reads_a_shorter_budget_from_the_same_runs(
        tmp_path: Path) -> None:
    state = tmp_path / "state.jsonl"
    records = [
        _record("aa", "rollout", [100, 150, 400], 3, 20.0),  # within 300 actions: 2 levels
        _record("aa", "rollout+critic", [50, 60, 70, 900], 3, 30.0),  # within 300: 3
        _record("bb", "rollout", [500], 1, 10.0),  # within 300: 0
        _record("bb", "rollout+critic", [1000], 0, 12.0),
        _record("cc", "rollout", [10], 1, 10.0),  # cc has no critic run yet: left out
    ]
    state.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"torn line')
    out = subprocess.run([sys.executable, str(SCRIPT), "--configs", "rollout;rollout,critic:c.eqx", "--suites",
                          "bundled", "--state", str(state), "--out", str(tmp_path / "a.json"),
                          "--md", str(tmp_path / "a.md"), "--report-only"],
                         capture_output=True, text=True, check=True)
    assert "unreadable line" in out.stderr
    rows = {(r["budget"], r["scorers"]): r for r in json.loads((tmp_path / "a.json").read_text())["rows"]}
    assert rows[(300, "rollout")]["levels_completed"] == 2 and rows[(300, "rollout")]["games"] == 2
    assert rows[(300, "rollout+critic")]["levels_completed"] == 3
    assert rows[(1000, "rollout")]["levels_completed"] == 4
    assert rows[(1000, "rollout+critic")]["levels_completed"] == 3
    assert rows[(1000, "rollout+critic")]["below_first"] == ["bb 0 (1)"]
    assert rows[(300, "rollout+critic")]["above_first"] == ["aa 3 (2)"]
    assert rows[(1000, "rollout")]["agent_ms_median"] == 15.0
    assert rows[(300, "rollout")]["actions_per_level_vs_baseline"] == round(250 / 20, 2)
    assert "### bundled: 2 games at 300 actions" in (tmp_path / "a.md").read_text()
