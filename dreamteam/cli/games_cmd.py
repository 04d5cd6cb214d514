"""`dreamteam games`: list the games found."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from dreamteam.cli.common import catalog_for


def register(sub: Any) -> None:
    """Add the `games` sub-command."""
    p = sub.add_parser("games", help="list available games",
                       description="Table of game id, version, title, levels, baseline actions and tags.")
    p.add_argument("--env-dir", action="append", default=[], metavar="DIR",
                   help="also list games under DIR (repeatable; $ENVIRONMENTS_DIR is read too)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the games table."""
    catalog = catalog_for(args)
    catalog.require_games()
    table = Table(title="games")
    for col in ("game id", "version", "title", "levels", "baseline actions", "tags"):
        table.add_column(col)
    for g in catalog.all_game_infos():
        table.add_row(g.base_id, g.version or "-", g.title, str(g.levels),
                      " ".join(str(b) for b in g.baseline_actions), ", ".join(g.tags))
    Console(width=160).print(table)
    return 0
