"""`dreamteam train latent|critic`: train a learned tactic scorer from recorded runs (needs the learn extra)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dreamteam.errors import UserError

KINDS = ("latent", "critic")


def register(sub: Any) -> None:
    """Add the `train` sub-command."""
    p = sub.add_parser(
        "train", help="train the latent world model or the critic from recorded runs",
        description="Train a learned tactic scorer (latent: the DreamPhase world model; critic: the "
                    "goal-conditioned IQL critic) on run directories, recordings or a dataset file from "
                    "`dreamteam dataset`, with a held-out validation split (whole runs when there are four or "
                    "more). Writes FILE (equinox weights) and FILE.json (shapes, hyper-parameters, data "
                    "summary, held-out metrics). Needs pip install 'dreamteam[learn]'. See docs/learning.md.")
    p.add_argument("kind", choices=KINDS, help="which model to train")
    p.add_argument("--runs", nargs="+", required=True, metavar="DIR",
                   help="run directories, recordings, directories of them, or one dataset .npz")
    p.add_argument("--out", required=True, metavar="FILE", help="the checkpoint to write (and FILE.json)")
    p.add_argument("--epochs", type=int, default=10, help="passes over the training split (default: 10)")
    p.add_argument("--seed", type=int, default=0, help="seed for the split, initialisation and batches (default: 0)")
    p.add_argument("--batch-size", type=int, default=None, help="minibatch size (default: 32 latent, 64 critic)")
    p.add_argument("--val-fraction", type=float, default=0.2, help="held-out share of the data (default: 0.2)")
    p.add_argument("--max-train", type=int, default=None, metavar="N",
                   help="train on at most N transitions of the training split (a seeded subset; default: all)")
    p.add_argument("--devset", metavar="DIR", default=None,
                   help="a development collection: refuse games of its held-out families")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Train, save, print the held-out metrics."""
    from dreamteam.learn import INSTALL_HINT, jax_missing

    missing = jax_missing()
    if missing:
        raise UserError(f"dreamteam train needs {missing}, which is not installed: {INSTALL_HINT}")
    if args.epochs <= 0:
        raise UserError(f"--epochs must be positive, got {args.epochs}")
    if not 0.0 <= args.val_fraction < 1.0:
        raise UserError(f"--val-fraction must be in [0, 1), got {args.val_fraction}")
    from dreamteam.cli.dataset_cmd import check_devset
    from dreamteam.learn import checkpoint
    from dreamteam.learn.dataset import load_any

    ds = load_any([Path(r) for r in args.runs])
    check_devset(list(ds.meta.get("games", [])), args.devset)
    model: Any
    extra: dict[str, Any] = {"batch_size": args.batch_size} if args.batch_size else {}
    extra["max_train"] = args.max_train
    if args.kind == "latent":
        from dreamteam.learn import latent

        model, config = latent.train(ds, epochs=args.epochs, seed=args.seed, val_fraction=args.val_fraction, **extra)
    else:
        from dreamteam.learn import critic

        model, config = critic.train(ds, epochs=args.epochs, seed=args.seed, val_fraction=args.val_fraction, **extra)
    out = Path(args.out)
    config = checkpoint.save(out, model, config)
    print(json.dumps({"out": str(out), "config": str(checkpoint.config_path(out)),
                      "transitions": len(ds), "train_seconds": config["training"]["train_seconds"],
                      "metrics": config["metrics"]}, indent=2))
    return 0
