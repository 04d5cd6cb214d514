#!/usr/bin/env python3
"""Record training runs for `dreamteam train`: play games with some agents and keep the run directories.

    .venv/bin/python scripts/collect_runs.py --out runs/ [--env-dir ../shared/devgames/environment_files]
        [--agents random,explorer] [--budget 300] [--per-family 1] [--limit N] [--bundled]

With --env-dir, only the development share of that collection is played (dreamteam/env/devset.py: every fifth
family is held out and never played here), `--per-family` games per family. --bundled adds the bundled games.
Runs go to OUT/<agent>/<game id>/ (a game already there is skipped, so the script can be re-run after a cut).
Games play one at a time (`dreamteam play`), with a wall-clock limit per game.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dev_games(env_dir: Path, per_family: int) -> list[str]:
    from dreamteam.env.catalog import Catalog
    from dreamteam.env.devset import family_of, share

    ids = sorted({g.base_id for g in Catalog.scan([env_dir]).all_game_infos()})
    picked: dict[str, list[str]] = {}
    for g in share(ids, "dev"):
        picked.setdefault(family_of(g), [])
        if len(picked[family_of(g)]) < per_family:
            picked[family_of(g)].append(g)
    return [g for fam in sorted(picked) for g in picked[fam]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--env-dir", type=Path, default=None)
    ap.add_argument("--agents", default="random,explorer")
    ap.add_argument("--budget", type=int, default=300)
    ap.add_argument("--per-family", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="at most this many collection games (0: all)")
    ap.add_argument("--bundled", action="store_true", help="also the bundled games")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per game")
    args = ap.parse_args()
    games: list[tuple[str, list[str]]] = []
    if args.bundled:
        from dreamteam.env.catalog import Catalog

        games += [(g.base_id, []) for g in Catalog.scan([ROOT / "games"]).all_game_infos()]
    if args.env_dir:
        chosen = dev_games(args.env_dir, args.per_family)
        games += [(g, ["--env-dir", str(args.env_dir)]) for g in chosen[:args.limit or None]]
    exe = str(Path(sys.executable).parent / "dreamteam")
    for agent in args.agents.split(","):
        for game, extra in games:
            out = args.out / agent / game
            if (out / "run.json").exists():
                continue
            cmd = [exe, "play", game, "--agent", agent, "--budget", str(args.budget), "--seed", str(args.seed),
                   "--out", str(out), *extra]
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                status = "ok" if r.returncode == 0 else f"exit {r.returncode}: {r.stderr.strip()[-200:]}"
            except subprocess.TimeoutExpired:
                status = "timed out"
            print(f"{agent} {game}: {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
