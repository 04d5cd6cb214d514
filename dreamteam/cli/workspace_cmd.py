"""`dreamteam log | show | diff RUN_DIR ...`: read a run's workspace history from its step commits."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamteam.workspace import SURFACE_NAMES, StepLogEntry, Workspace, WorkspaceError

REVISION_HELP = "a step number, or a git revision such as seed, level-2-solved or a commit sha"


def register(subparsers: Any) -> None:
    """Add the `log`, `show` and `diff` sub-commands."""
    log = subparsers.add_parser("log", help="one line per step of a run's workspace",
                                description="List the step commits of RUN_DIR/workspace, read from their trailers.")
    log.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    log.set_defaults(handler=cmd_log)

    show = subparsers.add_parser("show", help="the commit message and diff of one step",
                                 description="Show what one step changed in the workspace.")
    show.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    show.add_argument("step", metavar="STEP", help=REVISION_HELP)
    _add_surface(show)
    show.set_defaults(handler=cmd_show)

    diff = subparsers.add_parser("diff", help="the workspace diff between two steps",
                                 description="Unified diff of the workspace between steps A and B.")
    diff.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    diff.add_argument("a", metavar="A", help=REVISION_HELP)
    diff.add_argument("b", metavar="B", help=REVISION_HELP)
    _add_surface(diff)
    diff.set_defaults(handler=cmd_diff)


def _add_surface(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--surface", metavar="NAME", default=None,
                        help=f"only this surface ({', '.join(SURFACE_NAMES)})")


def workspace_dir(run_dir: Path) -> Path:
    """RUN_DIR/workspace, or RUN_DIR itself when it is a workspace repository."""
    if not run_dir.exists():
        raise WorkspaceError(f"run directory {run_dir} does not exist")
    if (run_dir / "workspace").is_dir():
        return run_dir / "workspace"
    if (run_dir / ".git").is_dir():
        return run_dir
    raise WorkspaceError(f"{run_dir} has no workspace/ folder: is it a DreamTeam run directory?")


def format_entry(entry: StepLogEntry) -> str:
    """One `dreamteam log` line."""
    prediction = entry.prediction + (f" ({entry.wrong_cells})" if entry.prediction == "miss" else "")
    return (f"{entry.sha[:10]}  step {entry.step:>5}  level {entry.level:>2}  {entry.action:<18} "
            f"{prediction:<12} {entry.patches_text()}")


def _with_workspace(args: argparse.Namespace, body: Callable[[Workspace], str]) -> int:
    try:
        with Workspace.open(workspace_dir(args.run_dir)) as ws:
            text = body(ws)
    except WorkspaceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a damaged repository can fail anywhere inside git; report, never trace
        print(f"error: cannot read the workspace of {args.run_dir}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return _emit(text)


def _emit(text: str) -> int:
    try:
        if text:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stdout = open("/dev/null", "w")  # noqa: SIM115 - silence the flush at interpreter exit
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    """Print one line per step: commit, step, level, action, prediction, patches."""
    def body(ws: Workspace) -> str:
        entries = ws.log()
        if not entries:
            return f"no step commits yet (seed commit {ws.head_sha[:10]} only)"
        return "\n".join(format_entry(e) for e in entries)
    return _with_workspace(args, body)


def cmd_show(args: argparse.Namespace) -> int:
    """Print one step's commit message and diff (optionally of one surface)."""
    return _with_workspace(args, lambda ws: ws.show(args.step, args.surface))


def cmd_diff(args: argparse.Namespace) -> int:
    """Print the diff between two steps (optionally of one surface)."""
    return _with_workspace(args, lambda ws: ws.diff(args.a, args.b, args.surface))


def run(argv: list[str]) -> int:
    """Parse `argv` with only these sub-commands and run the chosen one (for tests and scripts)."""
    parser = argparse.ArgumentParser(prog="dreamteam")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)
