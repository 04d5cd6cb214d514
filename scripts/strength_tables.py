#!/usr/bin/env python3
"""Combine the JSON of several bench_strength.py runs (e.g. the team measured today, explorer and random
measured earlier on the same games) into one report per suite and budget: levels per agent on the whole set
and on each share of the development set, the team's ratio to the explorer, levels per tag and per family,
and the families where the team completes fewer levels than another agent.

    scripts/strength_tables.py bench-results/dev-all-team-300.json bench-results/dev-all-baselines.json \\
        [--dev-dir ../shared/devgames/environment_files] [--md OUT.md]

A file may also be the JSON of one `dreamteam bench --env-dir DEV ...` run (counted as suite "dev"; a team
with other tactic scorers than `rollout` is named by them, e.g. `team[rollout+critic]`). Runs of the same
(suite, agent, budget) in several files: the last file wins.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from strength_report import by_family, by_tag, floor_violations  # noqa: E402

from dreamteam.env.catalog import Catalog  # noqa: E402
from dreamteam.env.devset import share  # noqa: E402

DEV_DIR = Path(__file__).resolve().parents[2] / "shared" / "devgames" / "environment_files"


def load_runs(paths: list[Path]) -> dict[tuple[str, int], dict[str, dict[str, Any]]]:
    """{(suite, budget): {agent: bench results}} from bench_strength.py JSON files (later files win)."""
    out: dict[tuple[str, int], dict[str, dict[str, Any]]] = defaultdict(dict)
    for path in paths:
        try:
            payload = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise SystemExit(f"error: cannot read {path}: {exc}") from exc
        if "runs" not in payload and "games" in payload:  # one `dreamteam bench` run: named by its scorers
            names = [s["name"] for s in (payload.get("scorers") or {}).get("scorers", [])]
            agent = str(payload["agent"]) + (f"[{'+'.join(names)}]" if names and names != ["rollout"] else "")
            out[("dev", int(payload["budget"]))][agent] = payload
        for key, results in payload.get("runs", {}).items():
            suite, agent, budget = key.split("/")
            out[(suite, int(budget))][agent] = results
    return dict(out)


def common_games(runs: dict[str, dict[str, Any]]) -> set[str]:
    """The games every agent played (a comparison only counts those)."""
    sets = [{g["game_id"] for g in r["games"]} for r in runs.values()]
    return set.intersection(*sets) if sets else set()


def restricted(results: dict[str, Any], games: set[str]) -> dict[str, Any]:
    """`results` with only `games`."""
    return {**results, "games": [g for g in results["games"] if g["game_id"] in games]}


def totals(runs: dict[str, dict[str, Any]], games: set[str]) -> str:
    """Markdown: levels per agent on the whole set and on each share, and team / explorer."""
    agents = list(runs)
    head = "| games | count | " + " | ".join(agents) + (" | team / explorer |" if {"team", "explorer"} <= set(runs)
                                                            else " |")
    lines = [head, "|---|---:|" + "---:|" * (len(agents) + ({"team", "explorer"} <= set(runs)))]
    for which in ("all", "dev", "heldout"):
        chosen = set(share(games, which))
        levels = {a: sum(g["levels_completed"] for g in r["games"] if g["game_id"] in chosen) for a, r in runs.items()}
        total = max((sum(g["levels_total"] for g in r["games"] if g["game_id"] in chosen) for r in runs.values()),
                    default=0)
        cells = [f"{levels[a]}/{total}" for a in agents]
        ratio = ""
        if "team" in levels and "explorer" in levels:
            ratio = f" {levels['team'] / levels['explorer']:.2f} |" if levels["explorer"] else " - |"
        timed = {a: sum(1 for g in r["games"] if g["game_id"] in chosen and g.get("timed_out")) for a, r in runs.items()}
        note = ", ".join(f"{a} {n}" for a, n in timed.items() if n)
        lines.append(f"| {which}{f' (timed out: {note})' if note else ''} | {len(chosen)} | " + " | ".join(cells)
                     + " |" + ratio)
    return "\n".join(lines) + "\n"


def report(by_run: dict[tuple[str, int], dict[str, dict[str, Any]]], dev_dir: Path | None) -> str:
    """The whole report, one section per (suite, budget)."""
    tags: dict[str, tuple[str, ...]] = {}
    if dev_dir is not None and dev_dir.is_dir():
        tags = {i.game_id: tuple(i.tags or ()) for i in Catalog.scan([dev_dir]).infos}
    text = ""
    for (suite, budget), runs in sorted(by_run.items()):
        games = common_games(runs)
        runs = {a: restricted(r, games) for a, r in runs.items()}
        bad = floor_violations(runs)
        text += f"## {suite} at {budget} actions ({len(games)} games every agent played)\n\n{totals(runs, games)}"
        if tags:
            text += f"\n### levels per tag\n\n{by_tag(runs, tags)}"
        text += f"\n### levels per family\n\n{by_family(runs)}"
        text += f"\n### families where the team completes fewer levels than another agent ({len(bad)})\n\n"
        text += ("\n".join(f"- {b}" for b in bad) if bad else "none") + "\n\n"
    return text


def main() -> int:
    """Print (and optionally write) the combined report."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("runs", nargs="+", type=Path, help="bench_strength.py JSON files")
    parser.add_argument("--dev-dir", type=Path, default=DEV_DIR, help="the development set (for the tags)")
    parser.add_argument("--md", type=Path, default=None, help="also write the report here")
    args = parser.parse_args()
    text = report(load_runs(args.runs), args.dev_dir)
    print(text)
    if args.md is not None:
        args.md.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
