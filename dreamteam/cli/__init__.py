"""The `dreamteam` command line: the composition root that reads configuration and builds objects."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from dreamteam import __version__
from dreamteam.errors import UserError

FAMILIES_ENV = "DREAMTEAM_FAMILIES_OFF"
"""Symbolic rule and goal families switched off (checked here, read by the symbolic builder)."""

COMMAND_MODULES = (
    "dreamteam.cli.games_cmd",
    "dreamteam.cli.play_cmd",
    "dreamteam.cli.bench_cmd",
    "dreamteam.cli.workspace_cmd",
    "dreamteam.cli.sandbox_cmd",
    "dreamteam.cli.graph_cmd",
    "dreamteam.cli.replay_cmd",
    "dreamteam.cli.runs_cmd",
    "dreamteam.cli.view_cmd",
    "dreamteam.cli.generate_cmd",
    "dreamteam.cli.dataset_cmd",
    "dreamteam.cli.train_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with one sub-command per registered module."""
    parser = argparse.ArgumentParser(
        prog="dreamteam",
        description="Play ARC-AGI-3-style grid games with a six-role team that trains a git workspace.",
    )
    parser.add_argument("--version", action="version", version=f"dreamteam {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the toolkit's log messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def _reported_errors() -> tuple[type[Exception], ...]:
    """Errors raised deep in a session that still have a clear message for the user (no traceback)."""
    from dreamteam.backends.errors import CassetteMiss, ConfigError, ScriptExhausted
    from dreamteam.workspace.errors import WorkspaceError

    return (WorkspaceError, ConfigError, CassetteMiss, ScriptExhausted)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `dreamteam` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    handler = getattr(args, "handler", None) or getattr(args, "func", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        if os.environ.get(FAMILIES_ENV):
            from dreamteam.cli.team_args import check_families_env

            check_families_env()
        return int(handler(args) or 0)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except _reported_errors() as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of our output went away (`dreamteam graph | head`): stop quietly, as Unix tools do
        with contextlib.suppress(OSError, ValueError, AttributeError):  # no second error at exit's flush
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
