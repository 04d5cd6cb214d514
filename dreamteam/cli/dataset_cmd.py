"""`dreamteam dataset`: turn recorded runs into a transitions file for `dreamteam train`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dreamteam.errors import UserError


def register(sub: Any) -> None:
    """Add the `dataset` sub-command."""
    p = sub.add_parser(
        "dataset", help="turn recorded runs into a transitions file (.npz) for `dreamteam train`",
        description="Read run directories (recording.jsonl, and the team's workspace for its sub-goals), "
                    "toolkit or agents-harness recordings, or directories holding them, and write the "
                    "transitions (frame, action with click, next frame, level-up, game over, level, hindsight "
                    "goals) as a compressed .npz with its metadata beside it (FILE.json). See docs/learning.md.")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR", help="run directories, recordings, or directories of them")
    p.add_argument("--out", required=True, metavar="FILE", help="the dataset file to write (.npz)")
    p.add_argument("--devset", metavar="DIR", default=None,
                   help="a development collection (e.g. ../shared/devgames/environment_files): refuse games of "
                        "its held-out families")
    p.set_defaults(handler=run)


def check_devset(games: list[str], devset: str | None) -> None:
    """Refuse training data from the held-out families of a development collection."""
    if not devset:
        return
    from dreamteam.env.catalog import Catalog
    from dreamteam.env.devset import family_of, heldout_families

    ids = [g.base_id for g in Catalog.scan([Path(devset)]).all_game_infos()]
    if not ids:
        raise UserError(f"--devset {devset}: no games found there")
    held = heldout_families(ids)
    bad = sorted(g for g in games if family_of(g) in held)
    if bad:
        raise UserError(f"these games belong to held-out families of {devset} and must not be trained on: "
                        f"{', '.join(bad)} (train on the development share only; see docs/learning.md)")


def run(args: argparse.Namespace) -> int:
    """Build and write the dataset; print a summary."""
    from dreamteam.learn.dataset import build_dataset

    out = Path(args.out)
    if out.suffix != ".npz":
        raise UserError(f"--out {out}: the dataset file must end in .npz")
    ds = build_dataset([Path(r) for r in args.runs],
                       progress=lambda p: print(f"read {p}", file=sys.stderr))
    check_devset(ds.meta["games"], args.devset)
    ds.save(out)
    summary = {"out": str(out), "transitions": len(ds), "sources": len(ds.meta["sources"]),
               "games": ds.meta["games"], "level_ups": int(ds.level_up.sum()), "game_overs": int(ds.game_over.sum()),
               "goals": len(ds.goal_names), "skipped": len(ds.meta["skipped"]), "bytes": out.stat().st_size}
    print(json.dumps(summary, indent=2))
    return 0
