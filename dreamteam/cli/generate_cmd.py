"""`dreamteam generate`: write procedural variants of the bundled game families, verified through the toolkit."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dreamteam.env.procgen import family_names, write_variant
from dreamteam.env.procgen.common import HELD_OUT_FIRST_SEED, SIZES, VariantError
from dreamteam.errors import UserError

MAX_SEEDS = 10_000


def register(sub: Any) -> None:
    """Add the `generate` sub-command."""
    p = sub.add_parser(
        "generate", help="write procedural game variants (one directory per family and seed)",
        description="Generate variants of the bundled game families into DIR/<family>/s<seed>/ (toolkit "
                    "layout; DIR/<family>/l<seed>/ with --size large), each verified by replaying its planned solution through the toolkit; play them "
                    "with --env-dir DIR. Seeds 1-99 are for development, 1000 and up are held out for "
                    "measurement (docs/procgen.md).")
    p.add_argument("families", metavar="FAMILY[,FAMILY|all]",
                   help=f"comma-separated families, or 'all' ({', '.join(family_names())})")
    p.add_argument("--seeds", required=True, metavar="SPEC", help="seeds, e.g. 1-20 or 1,4,7-9")
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the variants into")
    p.add_argument("--size", choices=list(SIZES), default="standard",
                   help="size profile: 'standard' levels grow from tutorial size (game ids such as maze-s0007); "
                        "'large' levels start about where standard ones end and grow to the scale of official "
                        "ARC-AGI-3 levels (maze-l0007) (default: standard)")
    p.set_defaults(handler=run)


def parse_families(text: str) -> list[str]:
    """Family names from `a,b` or `all`; unknown names are a user error."""
    known = family_names()
    names = known if text.strip() == "all" else [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise UserError(f"unknown game family {', '.join(unknown) or repr(text)} (known: {', '.join(known)}, all)")
    return list(dict.fromkeys(names))


def parse_seeds(text: str) -> list[int]:
    """Seeds from a spec such as `1-20` or `1,4,7-9` (non-negative, ascending ranges)."""
    seeds: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise UserError(f"bad seed spec {text!r}: use numbers and ranges such as 1-20 or 1,4,7-9")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise UserError(f"bad seed range {part!r}: the end is below the start")
        seeds += range(first, last + 1)
        if len(seeds) > MAX_SEEDS:
            raise UserError(f"at most {MAX_SEEDS} seeds per call")
    return list(dict.fromkeys(seeds))


def run(args: argparse.Namespace) -> int:
    """Write and verify every requested variant; print one line per variant."""
    families = parse_families(args.families)
    seeds = parse_seeds(args.seeds)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory")
    if any(seed >= HELD_OUT_FIRST_SEED for seed in seeds):
        print(f"note: seeds >= {HELD_OUT_FIRST_SEED} are held out: use them only to measure, never to develop",
              file=sys.stderr)
    for family in families:
        for seed in seeds:
            try:
                path = write_variant(family, seed, out, args.size)
            except VariantError as exc:
                raise UserError(f"{family} seed {seed}: {exc}", exit_code=1) from exc
            meta = json.loads((path / "metadata.json").read_text(encoding="utf-8"))
            baselines = meta["baseline_actions"]
            print(f"{meta['game_id']}: {len(baselines)} levels, baselines {' '.join(map(str, baselines))} -> {path}")
    return 0
