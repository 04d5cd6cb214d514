"""Frames of a run as an animated GIF or PNG files (for slides and issues), drawn with Pillow."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from dreamteam.env.replay import Recording
from dreamteam.types import Grid
from dreamteam.viewer.palette import PALETTE, rgb

CAPTION_BG, CAPTION_FG, MARKER = 16, 17, 18
CAPTION_HEIGHT = 14


@dataclass(frozen=True, slots=True)
class Picture:
    """One frame to draw: the grid, a caption and the clicked cell (if the action was a click)."""

    grid: Grid
    caption: str
    click: tuple[int, int] | None = None


def pictures(recording: Recording, first: int = 0, last: int | None = None) -> list[Picture]:
    """The initial frame and the frame after each action in steps first..last (inclusive)."""
    out: list[Picture] = []
    initial = recording.entries[0] if recording.has_initial_frame else None
    if initial is not None and initial.grid is not None and first == 0:
        out.append(Picture(initial.grid, f"{recording.game_id} · start"))
    for step, entry in enumerate(recording.actions):
        if step < first or (last is not None and step > last) or entry.grid is None:
            continue
        x, y = entry.data.get("x"), entry.data.get("y")
        click = (x, y) if entry.action_id == 6 and isinstance(x, int) and isinstance(y, int) else None
        caption = f"step {step} · {entry.action_label} · level {entry.levels_completed + 1} · {entry.state.lower()}"
        out.append(Picture(entry.grid, caption, click))
    return out


def render(picture: Picture, scale: int) -> Image.Image:
    """One palette image: the grid scaled up, the clicked cell outlined, the caption strip below."""
    height, width = picture.grid.shape
    cells = np.repeat(np.repeat(picture.grid.astype(np.uint8), scale, axis=0), scale, axis=1)
    canvas = np.full((height * scale + CAPTION_HEIGHT, width * scale), CAPTION_BG, dtype=np.uint8)
    canvas[: height * scale] = cells
    image = Image.frombytes("P", (canvas.shape[1], canvas.shape[0]), canvas.tobytes())
    image.putpalette(_palette_bytes())
    draw = ImageDraw.Draw(image)
    if picture.click is not None:
        x, y = picture.click
        draw.rectangle((x * scale - 2, y * scale - 2, (x + 1) * scale + 1, (y + 1) * scale + 1), outline=MARKER, width=2)
    draw.text((3, height * scale + 1), picture.caption, fill=CAPTION_FG)
    return image


def write_gif(frames: Sequence[Picture], path: Path, *, scale: int = 4, fps: float = 5.0) -> int:
    """Write an animated GIF (looping); returns the number of frames written."""
    if not frames:
        raise ValueError("no frames to write")
    images = [render(p, scale) for p in frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=max(20, int(1000 / fps)), loop=0)
    return len(images)


def write_pngs(frames: Sequence[Picture], directory: Path, *, scale: int = 4) -> int:
    """Write frame-0000.png, frame-0001.png, ... into `directory`; returns how many were written."""
    directory.mkdir(parents=True, exist_ok=True)
    for number, picture in enumerate(frames):
        render(picture, scale).save(directory / f"frame-{number:04d}.png")
    return len(frames)


def _palette_bytes() -> list[int]:
    colours = [rgb(i) for i in range(len(PALETTE))] + [(32, 35, 42), (242, 243, 245), (255, 0, 255)]
    return [channel for colour in colours for channel in colour]
