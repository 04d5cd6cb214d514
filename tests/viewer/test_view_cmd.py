"""`dreamteam view` writes one self-contained HTML page holding the run's data."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from dreamteam.env.replay import load_recording
from dreamteam.viewer.model import build_view
from dreamteam.viewer.page import render_page, script_json
from tests.replay.helpers import run_cli


def _embedded(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', page, re.S)
    assert match is not None
    data: dict[str, object] = json.loads(match.group(1))
    return data


def test_view_writes_a_self_contained_page(team_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "page.html"
    assert run_cli(["view", str(team_run), "--out", str(out)]) == 0
    assert f"wrote {out} (30 steps" in capsys.readouterr().out
    page = out.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "fetch(" not in page
    assert _embedded(page) == json.loads(json.dumps(build_view(load_recording(team_run / "recording.jsonl"),
                                                               team_run)))
    assert len(page) < 400_000


def test_default_output_next_to_the_run(click_run: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(click_run, tmp_path / "run"))
    assert run_cli(["view", str(run)]) == 0
    assert (run / "view.html").is_file()
    foreign = tmp_path / "flip-v1-abc.jsonl"
    shutil.copy(run / "recording.jsonl", foreign)
    assert run_cli(["view", str(foreign)]) == 0
    page = (tmp_path / "flip-v1-abc.html").read_text()
    assert _embedded(page)["has_workspace"] is False


def test_long_run_stays_small(tmp_path: Path) -> None:
    from tests.replay.helpers import make_run

    run = make_run(tmp_path / "maze", "maze", agent="explorer", budget=600)
    page = render_page(build_view(load_recording(run / "recording.jsonl"), run))
    recording_size = (run / "recording.jsonl").stat().st_size
    assert len(page) < recording_size / 10, (len(page), recording_size)


def test_script_json_cannot_close_the_script() -> None:
    text = script_json({"note": "</script><script>alert(1)</script> <!-- \u2028"})
    assert "</" not in text and "<!--" not in text and "\u2028" not in text
    assert json.loads(text)["note"].startswith("</script>")


def test_view_of_a_damaged_recording(click_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = Path(shutil.copytree(click_run, tmp_path / "run"))
    (run / "recording.jsonl").write_text('{"timestamp": 1, "data": {"action_input": {"id": "ACTION1"}, "game_id": "x", '
                                         '"frame": [[[99]]]}}\n')
    assert run_cli(["view", str(run)]) == 1
    err = capsys.readouterr().err
    assert "line 1: a frame layer is not a 2-D grid of colours 0..15" in err and "Traceback" not in err
