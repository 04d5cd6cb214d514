"""`dreamteam graph`: print the team's step graph as mermaid."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """Add the `graph` sub-command."""
    p = sub.add_parser("graph", help="print the team's step graph (mermaid)",
                       description="Print the compiled LangGraph step graph of the team as mermaid text.")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the mermaid drawing."""
    from dreamteam.graph.build import mermaid

    print(mermaid())
    return 0
