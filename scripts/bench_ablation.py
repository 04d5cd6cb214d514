#!/usr/bin/env python3
"""The tactic scorers' ablation: the team with several `--scorer` settings side by side, game by game.

    .venv/bin/python scripts/bench_ablation.py \\
        --configs "rollout;rollout,latent:L.eqx;rollout,critic:C.eqx;rollout,latent:L.eqx,critic:C.eqx" \\
        [--suites bundled,dev] [--share heldout] [--budget 1000] [--cuts 300] [--jobs 2] [--game-timeout 400] \\
        [--state bench-results/ablation.jsonl] [--out bench-results/ablation.json] [--md bench-results/ablation.md]

Every (game, setting) is one `dreamteam bench --agent team --games GAME --scorer SPEC` process. The queue runs
game by game with the settings of a game next to each other, so load on the machine (and a session cut short)
falls on every setting alike. Each finished (game, setting) is appended to `--state` at once; run the same
command again to resume: finished pairs are skipped. The report counts only the games finished under every
setting.

`--cuts 300` also reports each setting at 300 actions, read from the same runs: the levels completed within
the first 300 actions (the team plays the same way whatever the budget, except that in its last steps it does
not plan beyond the actions left). The milliseconds per step are those of the whole run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from strength_report import step_cost  # noqa: E402

from dreamteam.env.catalog import Catalog  # noqa: E402
from dreamteam.env.devset import SHARES, share  # noqa: E402

DEV_DIR = Path(__file__).resolve().parents[2] / "shared" / "devgames" / "environment_files"
"""The community development set beside the checkout (developers' machines only; never needed by tests)."""

ROOT = Path(__file__).resolve().parents[1]


def label(spec: str) -> str:
    """'rollout,latent:x.eqx,critic:y.eqx' -> 'rollout+latent+critic'."""
    return "+".join(part.split(":", 1)[0].split("@", 1)[0].strip() for part in spec.split(",") if part.strip())


def levels_within(game: dict[str, Any], cut: int | None) -> tuple[int, int]:
    """(levels completed within the first `cut` actions, actions spent on them); all of them when cut is None."""
    done = spent = 0
    for i in range(int(game["levels_completed"])):
        actions = int(game["level_actions"][i]) if i < len(game.get("level_actions", [])) else 0
        if cut is not None and spent + actions > cut:
            break
        done, spent = done + 1, spent + actions
    return done, spent


def per_baseline(games: list[dict[str, Any]], cut: int | None) -> float | None:
    """Actions on the levels completed (within the cut) over their baselines, levels with a baseline only."""
    spent = base = 0
    for game in games:
        done, _ = levels_within(game, cut)
        baselines = game.get("level_baseline_actions", [])
        for i in range(done):
            if i < len(baselines) and int(baselines[i]) > 0:
                spent += int(game["level_actions"][i])
                base += int(baselines[i])
    return round(spent / base, 2) if base else None


def report(records: list[dict[str, Any]], configs: list[str], budget: int, cuts: list[int]) -> tuple[list[dict[str, Any]], str]:
    """Rows per (suite, budget or cut, setting) over the games finished under every setting, and Markdown."""
    rows: list[dict[str, Any]] = []
    text = ""
    names = [label(c) for c in configs]
    for suite in sorted({r["suite"] for r in records}):
        by = {(r["game_id"], r["config"]): r["game"] for r in records if r["suite"] == suite}
        games = sorted({g for g, _ in by if all((g, n) in by for n in names)})
        if not games:
            continue
        for cut in sorted(set(cuts)) + [budget]:
            at = None if cut == budget else cut
            text += (f"\n### {suite}: {len(games)} games at {cut} actions"
                     f"{' (the first ' + str(cut) + ' of the ' + str(budget) + '-action runs)' if at else ''}\n\n")
            text += ("| scorers | levels | actions / baseline | agent ms/step (median, p95 over games) | timed out "
                     "| games below rollout | games above rollout |\n|---|---:|---:|---:|---:|---|---|\n")
            first = names[0]
            done = {(g, n): levels_within(by[(g, n)], at)[0] for g in games for n in names}
            for name in names:
                played = [by[(g, name)] for g in games]
                levels = sum(done[(g, name)] for g in games)
                total = sum(int(g["levels_total"]) for g in played)
                cost = step_cost({"games": played})
                median, p95 = cost["agent_ms_median"], cost["agent_ms_p95"]
                below = [f"{g} {done[(g, name)]} ({done[(g, first)]})" for g in games if done[(g, name)] < done[(g, first)]]
                above = [f"{g} {done[(g, name)]} ({done[(g, first)]})" for g in games if done[(g, name)] > done[(g, first)]]
                timed_out = sum(1 for g in played if g.get("timed_out"))
                rows.append({"suite": suite, "budget": cut, "from_budget": budget, "scorers": name,
                             "games": len(games), "levels_completed": levels, "levels_total": total,
                             "actions_per_level_vs_baseline": per_baseline(played, at),
                             "agent_ms_median": median, "agent_ms_p95": p95, "timed_out": timed_out,
                             "below_first": below, "above_first": above})
                text += (f"| {name} | {levels}/{total} | {rows[-1]['actions_per_level_vs_baseline']} | "
                         f"{median}, {p95} | {timed_out} | {', '.join(below) if name != first else ''} | "
                         f"{', '.join(above) if name != first else ''} |\n")
    return rows, text


def load_state(path: Path) -> list[dict[str, Any]]:
    """The finished (game, setting) records; a torn last line (a killed run) is dropped."""
    records = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"warning: skipped an unreadable line of {path}", file=sys.stderr)
    return records


def play(task: dict[str, Any], args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """One `dreamteam bench` process for one game and one setting; its game record."""
    out = tmp / f"{task['suite']}-{task['game_id']}-{task['index']}.json"
    cmd = [sys.executable, "-m", "dreamteam.cli", "bench", "--agent", "team", "--games", task["game_id"],
           "--budget", str(args.budget), "--scorer", task["spec"], "--jobs", "1", "--out", str(out)]
    if task["dir"]:
        cmd += ["--env-dir", task["dir"]]
    if args.game_timeout:
        cmd += ["--game-timeout", str(args.game_timeout)]
    began = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"{task['game_id']} with {task['spec']}: dreamteam bench exited {done.returncode}: "
                           f"{done.stderr.strip()[-400:]}")
    payload = json.loads(out.read_text())
    (game,) = payload["games"]
    return {"suite": task["suite"], "game_id": task["game_id"], "config": task["config"], "spec": task["spec"],
            "budget": args.budget, "game": game, "scorers": payload.get("scorers"),
            "process_s": round(time.perf_counter() - began, 1)}


def tasks_for(args: argparse.Namespace, configs: list[str]) -> list[dict[str, Any]]:
    """Every (suite, game, setting), the settings of one game next to each other."""
    tasks: list[dict[str, Any]] = []
    for suite in args.suites.split(","):
        if suite == "bundled":
            ids, game_dir = [i.game_id for i in Catalog.scan([ROOT / "games"]).infos], ""
        elif suite == "dev":
            ids = share([i.game_id for i in Catalog.scan([Path(args.dev_dir)]).infos], args.share)
            game_dir = str(Path(args.dev_dir).resolve())
        else:
            raise SystemExit(f"error: unknown suite {suite!r} (known: bundled, dev)")
        for game_id in sorted(ids):
            for spec in configs:
                tasks.append({"suite": suite, "game_id": game_id, "spec": spec, "config": label(spec),
                              "dir": game_dir, "index": len(tasks)})
    return tasks


def main() -> int:
    """Run the missing (game, setting) pairs, then print and write the report."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--configs", default="rollout",
                        help="';'-separated --scorer settings; the first is the reference of 'below'/'above'")
    parser.add_argument("--suites", default="bundled,dev", help="comma-separated: bundled, dev")
    parser.add_argument("--dev-dir", default=str(DEV_DIR), help="the community development set (suite 'dev')")
    parser.add_argument("--share", default="heldout", choices=SHARES, help="which families of the dev suite")
    parser.add_argument("--budget", type=int, default=1000, help="action budget per game")
    parser.add_argument("--cuts", default="300", help="comma-separated shorter budgets read from the same runs")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--game-timeout", type=float, default=None, help="seconds per game")
    parser.add_argument("--state", default="bench-results/ablation.jsonl",
                        help="finished (game, setting) records; the run resumes from it")
    parser.add_argument("--out", default="bench-results/ablation.json", help="rows and records as JSON")
    parser.add_argument("--md", default="bench-results/ablation.md", help="the tables as Markdown")
    parser.add_argument("--report-only", action="store_true", help="play nothing; report what --state holds")
    args = parser.parse_args()
    configs = [c.strip() for c in args.configs.split(";") if c.strip()]
    if len({label(c) for c in configs}) != len(configs):
        parser.error("two settings have the same scorer names")
    cuts = [int(c) for c in args.cuts.split(",") if c.strip() and int(c) < args.budget]
    if "dev" in args.suites.split(",") and not Path(args.dev_dir).is_dir():
        parser.error(f"suite 'dev' needs the development set; {args.dev_dir} is not a directory (--dev-dir)")
    state = Path(args.state)
    state.parent.mkdir(parents=True, exist_ok=True)
    records = load_state(state)
    done = {(r["suite"], r["game_id"], r["config"], r["budget"]) for r in records}
    todo = [t for t in tasks_for(args, configs)
            if (t["suite"], t["game_id"], t["config"], args.budget) not in done] if not args.report_only else []
    print(f"{len(records)} finished, {len(todo)} to play", file=sys.stderr, flush=True)
    lock = threading.Lock()
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="dreamteam-ablation-") as tmp, ThreadPoolExecutor(args.jobs) as pool:
        def run(task: dict[str, Any]) -> None:
            try:
                record = play(task, args, Path(tmp))
            except RuntimeError as exc:
                with lock:
                    failures.append(str(exc))
                print(f"error: {exc}", file=sys.stderr, flush=True)
                return
            with lock:
                with state.open("a") as handle:
                    handle.write(json.dumps(record) + "\n")
                records.append(record)
                game = record["game"]
                print(f"[{len(records)}] {task['suite']} {task['game_id']} {task['config']}: "
                      f"{game['levels_completed']}/{game['levels_total']} levels, {game['actions']} actions, "
                      f"{record['process_s']} s{' (timed out)' if game.get('timed_out') else ''}", flush=True)
        list(pool.map(run, todo))
    rows, text = report(records, configs, args.budget, cuts)
    Path(args.out).write_text(json.dumps({"configs": configs, "budget": args.budget, "cuts": cuts, "rows": rows,
                                          "records": records}, indent=1) + "\n")
    Path(args.md).write_text(text)
    print(text)
    print(f"written to {args.out} and {args.md}")
    if failures:
        print(f"{len(failures)} (game, setting) pairs failed; run again to retry them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
