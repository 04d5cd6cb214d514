"""GIF and PNG export of a run's frames."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from dreamteam.cli.view_cmd import parse_steps
from dreamteam.env.replay import load_recording
from dreamteam.errors import UserError
from dreamteam.viewer.images import CAPTION_HEIGHT, pictures, render
from dreamteam.viewer.palette import rgb
from tests.replay.helpers import run_cli


def test_gif_of_a_whole_run(click_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gif = tmp_path / "run.gif"
    assert run_cli(["view", str(click_run), "--gif", str(gif), "--scale", "3"]) == 0
    assert f"wrote {gif} (25 frames" in capsys.readouterr().out
    with Image.open(gif) as image:
        assert image.n_frames == 25 and image.size == (64 * 3, 64 * 3 + CAPTION_HEIGHT)
        assert not (click_run / "view.html").exists()


def test_png_frames_show_the_palette_and_the_click(click_run: Path, tmp_path: Path) -> None:
    assert run_cli(["view", str(click_run), "--png-dir", str(tmp_path / "png"), "--steps", "2:4"]) == 0
    files = sorted((tmp_path / "png").iterdir())
    assert [f.name for f in files] == ["frame-0000.png", "frame-0001.png", "frame-0002.png"]
    recording = load_recording(click_run / "recording.jsonl")
    entry = recording.actions[2]
    assert entry.grid is not None
    with Image.open(files[0]) as image:
        rgb_image = image.convert("RGB")
        x, y = entry.data["x"], entry.data["y"]
        far = (x + 8) % 64, (y + 8) % 64
        assert rgb_image.getpixel((far[0] * 4 + 2, far[1] * 4 + 2)) == rgb(int(entry.grid[far[1], far[0]]))
        assert rgb_image.getpixel((x * 4 - 1, y * 4 + 1)) == (255, 0, 255)  # the click outline


def test_captions_and_ranges(click_run: Path) -> None:
    recording = load_recording(click_run / "recording.jsonl")
    everything = pictures(recording)
    assert everything[0].caption == "flip-v1 · start" and everything[1].caption.startswith("step 0 · ACTION6@(")
    assert len(pictures(recording, 5, 5)) == 1 and pictures(recording, 5, 5)[0].caption.startswith("step 5 ")
    assert render(everything[0], 2).size == (128, 128 + CAPTION_HEIGHT)


def test_parse_steps() -> None:
    assert parse_steps(None) == (0, None) and parse_steps("3:") == (3, None) and parse_steps(":7") == (0, 7)
    assert parse_steps("4") == (4, 4)
    for bad in ("a:b", "5:2", "-1:"):
        with pytest.raises(UserError):
            parse_steps(bad)


def test_bad_image_options(click_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["view", str(click_run), "--gif", str(tmp_path / "a.gif"), "--scale", "0"]) == 2
    assert run_cli(["view", str(click_run), "--gif", str(tmp_path / "a.gif"), "--steps", "500:600"]) == 2
    assert "no frames in steps 500:600" in capsys.readouterr().err
