"""scripts/strength_tables.py: runs measured apart combine into one report per suite and budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "strength_tables.py"


def _results(agent: str, levels: dict[str, int]) -> dict[str, Any]:
    return {"agent": agent, "budget": 300, "seed": 0,
            "games": [{"game_id": g, "levels_completed": n, "levels_total": 5} for g, n in levels.items()]}


def test_runs_from_several_files_are_compared_on_the_games_all_of_them_played(tmp_path: Path) -> None:
    # families aa, bb, cc, dd, ee: the fifth (ee) is the held-out share
    team = {"aa01": 3, "bb01": 0, "cc01": 2, "dd01": 1, "ee01": 4, "ff01": 5}
    explorer = {"aa01": 1, "bb01": 2, "cc01": 1, "dd01": 0, "ee01": 1}
    (tmp_path / "team.json").write_text(json.dumps({"runs": {"dev/team/300": _results("team", team)}}))
    (tmp_path / "base.json").write_text(json.dumps({"runs": {"dev/explorer/300": _results("explorer", explorer)}}))
    bench = _results("team", {g: n + 1 for g, n in explorer.items()})
    bench["scorers"] = {"scorers": [{"name": "rollout"}, {"name": "critic"}]}
    (tmp_path / "critic.json").write_text(json.dumps(bench))
    out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "team.json"), str(tmp_path / "base.json"),
                          str(tmp_path / "critic.json"), "--dev-dir", str(tmp_path / "none"),
                          "--md", str(tmp_path / "report.md")], capture_output=True, text=True, check=True).stdout
    assert "(5 games every agent played)" in out  # ff01 only the team played
    assert "| all | 5 | 10/25 | 5/25 | 10/25 | 2.00 |" in out
    assert "| dev | 4 | 6/20 | 4/20 | 8/20 | 1.50 |" in out
    assert "| heldout | 1 | 4/5 | 1/5 | 2/5 | 4.00 |" in out
    assert "- bb: team 0 < explorer 2" in out and "- bb: team 0 < team[rollout+critic] 3" in out
    assert (tmp_path / "report.md").read_text().strip() == out.strip()
