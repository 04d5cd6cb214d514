"""`dreamteam view RUN_DIR`: one self-contained HTML page to step through a run; `--gif` / `--png-dir` for images."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dreamteam.cli.replay_cmd import find_target
from dreamteam.env.replay import load_recording
from dreamteam.errors import UserError
from dreamteam.viewer.images import pictures, write_gif, write_pngs
from dreamteam.viewer.model import build_view
from dreamteam.viewer.page import render_page

DEFAULT_PAGE = "view.html"


def register(subparsers: Any) -> None:
    """Add the `view` sub-command."""
    p = subparsers.add_parser(
        "view", help="write an HTML page (or GIF / PNGs) to step through a run",
        description="Write one self-contained HTML file (no network) showing RUN_DIR step by step: frames with the "
                    "click marked, action, level, prediction, each role's proposal and the leader's decision, the "
                    "step's patches and surface diff, and per-level summaries. Left/right keys step; #step=N "
                    "in the URL opens a step. --gif / --png-dir export the frames as images instead.")
    p.add_argument("path", type=Path, metavar="RUN_DIR", help="a run directory or a recording .jsonl file")
    p.add_argument("--out", type=Path, metavar="FILE.html",
                   help=f"where to write the page (default: RUN_DIR/{DEFAULT_PAGE}; not written with only "
                        "--gif/--png-dir)")
    p.add_argument("--gif", type=Path, metavar="FILE.gif", help="write the frames as an animated GIF")
    p.add_argument("--png-dir", type=Path, metavar="DIR", help="write one PNG per frame into DIR")
    p.add_argument("--steps", metavar="A:B", default=None, help="only steps A..B (inclusive) in the GIF / PNGs")
    p.add_argument("--scale", type=int, default=4, metavar="N", help="pixels per cell in images (default: 4)")
    p.add_argument("--fps", type=float, default=5.0, metavar="F", help="GIF frames per second (default: 5)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the page and/or the images and say where they went."""
    target = find_target(args.path)
    recording = load_recording(target.recording)
    images = args.gif is not None or args.png_dir is not None
    if images:
        if not 1 <= args.scale <= 32 or args.fps <= 0:
            raise UserError("--scale must be 1..32 and --fps positive")
        first, last = parse_steps(args.steps)
        frames = pictures(recording, first, last)
        if not frames:
            raise UserError(f"no frames in steps {args.steps} (the run has {len(recording.actions)} actions)")
        if args.gif is not None:
            count = write_gif(frames, args.gif, scale=args.scale, fps=args.fps)
            print(f"wrote {args.gif} ({count} frames, {_size(args.gif)})")
        if args.png_dir is not None:
            count = write_pngs(frames, args.png_dir, scale=args.scale)
            print(f"wrote {count} PNG files to {args.png_dir}")
    if args.out is not None or not images:
        out = args.out or _default_page(target.recording, target.run_dir)
        view = build_view(recording, target.run_dir)
        out.write_text(render_page(view), encoding="utf-8")
        for warning in view["warnings"]:
            print(f"warning: {warning}")
        print(f"wrote {out} ({len(view['steps'])} steps, {_size(out)}); open {out.resolve().as_uri()}")
    return 0


def parse_steps(text: str | None) -> tuple[int, int | None]:
    """`A:B`, `A:` or `:B` -> (A, B or None); None -> the whole run."""
    if not text:
        return 0, None
    head, sep, tail = text.partition(":")
    try:
        first = int(head) if head else 0
        last = int(tail) if tail else None
    except ValueError:
        raise UserError(f"--steps must look like A:B (step numbers), got {text!r}") from None
    if not sep:
        last = first
    if first < 0 or (last is not None and last < first):
        raise UserError(f"--steps {text!r} is not a range of steps")
    return first, last


def _default_page(recording: Path, run_dir: Path | None) -> Path:
    if run_dir is not None:
        return run_dir / DEFAULT_PAGE
    return recording.with_name(recording.name.removesuffix(".jsonl") + ".html")


def _size(path: Path) -> str:
    size = path.stat().st_size
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"
