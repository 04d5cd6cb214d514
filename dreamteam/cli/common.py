"""Arguments and builders shared by several commands."""

from __future__ import annotations

import argparse
from typing import Any

from dreamteam.agents import build_agent
from dreamteam.env.catalog import Catalog, env_dirs_from
from dreamteam.errors import UserError
from dreamteam.protocols import Agent


def add_env_args(parser: argparse.ArgumentParser) -> None:
    """--env-dir (repeatable) and --online."""
    parser.add_argument("--env-dir", action="append", default=[], metavar="DIR",
                        help="extra directory of games in the toolkit layout <game_id>/<version>/metadata.json "
                             "(repeatable; $ENVIRONMENTS_DIR is read too)")
    parser.add_argument("--online", action="store_true",
                        help="play against the official ARC-AGI-3 service (needs ARC_API_KEY)")


def add_agent_args(parser: argparse.ArgumentParser, default_agent: str) -> None:
    """--agent, --budget, --seed."""
    parser.add_argument("--agent", default=default_agent, help=f"agent to play with (default: {default_agent})")
    parser.add_argument("--budget", type=int, default=1000, metavar="N",
                        help="action budget per game, RESETs included (default: 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")


def catalog_for(args: argparse.Namespace, *, include_bundled: bool = True) -> Catalog:
    """Scan the bundled games plus the user's directories."""
    return Catalog.scan(env_dirs_from(args.env_dir, include_bundled=include_bundled))


def make_agent(name: str, seed: int, **options: Any) -> Agent:
    """Build a registered agent, turning an unknown name or bad options into a clear user error."""
    try:
        return build_agent(name, seed=seed, **options)
    except ValueError as exc:
        raise UserError(str(exc)) from exc


def positive(value: int, flag: str) -> int:
    """Validate a positive integer flag."""
    if value <= 0:
        raise UserError(f"{flag} must be positive, got {value}")
    return value
