#!/usr/bin/env python3
"""`dreamteam bench` with the symbolic team's search clock fixed, to compare two versions of the harness.

Usage: .venv/bin/python scripts/bench_fixed_clock.py [--code DIR] -- BENCH ARGS...
       e.g. -- --agent team --budget 300 --jobs 1 --games keys,push --out bench-results/fixed-clock.json

The symbolic Inductive Explorer's searches stop at wall-clock budgets (80 ms to a few seconds), so on a busy
machine two runs of the same code can cut a search at different nodes and play differently. This script
replaces the clock those searches read (`time.perf_counter` in `backends/symbolic/planning/inductive.py`
and `search.py`, nothing else) with a counter that advances 2 microseconds per reading: a budget becomes a
fixed number of clock readings and the play depends on the code only. Run it on two checkouts (`--code`,
e.g. `git archive <commit>` unpacked) and compare the results field by field (apart from the timings).
Keep `--jobs 1`: the fixed clock is set in this process only.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import sys
import types
from pathlib import Path

TICK_S = 2e-6


def main() -> int:
    """Fix the search clock, then run `dreamteam bench` with the remaining arguments in this process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default=str(Path(__file__).resolve().parents[1]),
                        help="the checkout whose dreamteam package plays")
    args, bench = parser.parse_known_args()
    bench = [a for a in bench if a != "--"]
    sys.path.insert(0, str(Path(args.code).resolve()))
    inductive, search = _search_modules()
    from dreamteam.cli import main as cli

    readings = itertools.count()
    clock = types.SimpleNamespace(perf_counter=lambda: next(readings) * TICK_S)
    inductive.time = clock  # type: ignore[assignment]
    search.time = clock  # type: ignore[assignment]
    return cli(["bench", *bench])


def _search_modules() -> tuple[types.ModuleType, types.ModuleType]:
    """The modules whose clock is fixed, in the checkout `--code` names (roles/symbolic/ before the layout move)."""
    for package in ("dreamteam.backends.symbolic.planning", "dreamteam.roles.symbolic"):
        try:
            return importlib.import_module(f"{package}.inductive"), importlib.import_module(f"{package}.search")
        except ModuleNotFoundError as exc:
            if exc.name is None or not package.startswith(exc.name):
                raise
    raise ModuleNotFoundError("no symbolic inductive explorer in this checkout")


if __name__ == "__main__":
    raise SystemExit(main())
