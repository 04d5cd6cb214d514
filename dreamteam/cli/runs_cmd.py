"""`dreamteam runs [DIR]` (a table of run directories) and `dreamteam compare RUN_A RUN_B` (per level)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dreamteam.errors import UserError
from dreamteam.paths import default_replays_dir
from dreamteam.report import game_summary, print_table
from dreamteam.rundir import RECORDING, RUN_JSON, SCORECARD

RUN_FILES = (RUN_JSON, RECORDING, SCORECARD)


@dataclass(frozen=True, slots=True)
class RunRow:
    """One run directory as listed by `dreamteam runs`; `error` is set when a file is missing or corrupt."""

    path: Path
    run_id: str
    game_id: str = "?"
    agent: str = "?"
    levels: str = "-"
    actions: str = "-"
    score: str = "-"
    cost: str = "-"
    date: str = "-"
    error: str = ""


def register(subparsers: Any) -> None:
    """Add the `runs` and `compare` sub-commands."""
    runs = subparsers.add_parser("runs", help="table of run directories",
                                 description="List the runs under DIR (default: replays/): run id, game, agent and "
                                             "backends, levels, actions, score, model-call cost, date.")
    runs.add_argument("dir", nargs="?", type=Path, default=None, metavar="DIR")
    runs.set_defaults(handler=cmd_runs)
    compare = subparsers.add_parser("compare", help="two runs side by side, per level",
                                    description="Per level actions and score of RUN_A and RUN_B, plus totals.")
    compare.add_argument("run_a", type=Path, metavar="RUN_A")
    compare.add_argument("run_b", type=Path, metavar="RUN_B")
    compare.set_defaults(handler=cmd_compare)


def cmd_runs(args: argparse.Namespace) -> int:
    """Print the table of runs."""
    root: Path = args.dir or default_replays_dir()
    if not root.is_dir():
        raise UserError(f"{root} is not a directory of runs")
    rows = [read_run_row(path) for path in find_run_dirs(root)]
    if not rows:
        print(f"no runs in {root}")
        return 0
    print_table(runs_table(rows, root), wide_console())
    return 0


def wide_console() -> Console:
    """The terminal, or a very wide console when stdout is not one (so piped tables keep one line per run)."""
    return Console() if sys.stdout.isatty() else Console(width=1000)


def find_run_dirs(root: Path, depth: int = 2) -> list[Path]:
    """Directories holding a run file, searched `depth` levels down (e.g. replays/examples/<run>)."""
    found: list[Path] = []
    for child in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if any((child / name).exists() for name in RUN_FILES):
            found.append(child)
        elif depth > 1:
            found += find_run_dirs(child, depth - 1)
    return found


def read_run_row(path: Path) -> RunRow:
    """Summarise one run directory, never raising: a damaged run gets an `error`."""
    try:
        meta = _json_object(path / RUN_JSON) if (path / RUN_JSON).exists() else {}
        card = _json_object(path / SCORECARD) if (path / SCORECARD).exists() else None
        return _row(path, meta, card)
    except (ValueError, KeyError, TypeError, OSError) as exc:
        return RunRow(path, path.name, error=" ".join(str(exc).split())[:80])


def _row(path: Path, meta: dict[str, Any], card: dict[str, Any] | None) -> RunRow:
    game_id = str(meta.get("game_id") or _game_from_card(card) or "?")
    result = meta.get("result") or {}
    error = "" if meta else f"no {RUN_JSON}"
    if meta.get("status") == "running":
        error = "unfinished (running or killed)"
    if card is not None:
        summary = game_summary(card, game_id)
        levels = f"{summary['levels_completed']}/{len(summary['level_scores']) or result.get('levels_total', '?')}"
        actions, score = str(summary["actions"]), f"{summary['score']:.2f}"
    else:
        levels = f"{result['levels_completed']}/{result.get('levels_total', '?')}" if result else "-"
        actions, score = str(result.get("actions", "-")), "-"
        error = error or f"no {SCORECARD}"
    return RunRow(path, str(meta.get("run_id") or path.name), game_id, agent_label(meta), levels, actions, score,
                  cost_label(meta.get("calls")), str(meta.get("started_at") or "-")[:16].replace("T", " "), error)


def agent_label(meta: dict[str, Any]) -> str:
    """The agent, plus its distinct role-model backends for the team (e.g. `team (anthropic+symbolic)`)."""
    agent = str(meta.get("agent") or "?")
    backends = meta.get("backends") or {}
    names = sorted({str(v.get("backend", "?")) for v in backends.values() if isinstance(v, dict)})
    return f"{agent} ({'+'.join(names)})" if names else agent


def cost_label(calls: Any) -> str:
    """`$0.0123 · 45 calls` from run.json's call totals; `-` when the run made no model calls."""
    if not isinstance(calls, dict) or not calls.get("calls"):
        return "-"
    unpriced = int(calls.get("unpriced_calls", 0))
    extra = f" ({unpriced} unpriced)" if unpriced else ""
    return f"${float(calls.get('cost_usd', 0.0)):.4f} · {int(calls['calls'])} calls{extra}"


def runs_table(rows: list[RunRow], root: Path) -> Table:
    """The `dreamteam runs` table."""
    table = Table(title=f"runs in {root}")
    columns = ["run", "game", "agent", "levels", "actions", "score", "cost", "date"]
    notes = any(row.error for row in rows)
    for col in columns + (["note"] if notes else []):
        table.add_column(col, justify="right" if col in ("levels", "actions", "score") else "left", no_wrap=True)
    for row in rows:
        cells: list[str | Text] = [str(row.path.relative_to(root)), row.game_id, row.agent, row.levels,
                                   row.actions, row.score, row.cost, row.date]
        if notes:
            cells.append(Text(f"! {row.error}", style="red") if row.error else "")
        table.add_row(*cells)
    return table


def cmd_compare(args: argparse.Namespace) -> int:
    """Print two runs' per-level actions and scores side by side, with totals."""
    runs = [_compare_side(path) for path in (args.run_a, args.run_b)]
    if runs[0]["game_id"] != runs[1]["game_id"]:
        print(f"note: the runs played different games ({runs[0]['game_id']} vs {runs[1]['game_id']})")
    print_table(compare_table(runs[0], runs[1]), wide_console())
    return 0


def _compare_side(path: Path) -> dict[str, Any]:
    if not path.is_dir():
        raise UserError(f"run directory {path} does not exist")
    try:
        meta = _json_object(path / RUN_JSON) if (path / RUN_JSON).exists() else {}
        card = _json_object(path / SCORECARD)
        game_id = str(meta.get("game_id") or _game_from_card(card) or "?")
        return {"name": path.name, "agent": agent_label(meta), "game_id": game_id, **game_summary(card, game_id)}
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise UserError(f"cannot compare {path}: {exc}") from None


def compare_table(a: dict[str, Any], b: dict[str, Any]) -> Table:
    """Per level: baseline, then actions and score of each run and the score difference; a totals row."""
    table = Table(title=f"A = {a['name']} ({a['agent']}) · B = {b['name']} ({b['agent']})")
    for col in ("level", "baseline", "A actions", "A score", "B actions", "B score", "B - A"):
        table.add_column(col, justify="right")
    levels = max(len(a["level_scores"]), len(b["level_scores"]))
    for i in range(levels):
        base = _at(a["level_baseline_actions"], i, None) or _at(b["level_baseline_actions"], i, "-")
        sa, sb = _at(a["level_scores"], i, 0.0), _at(b["level_scores"], i, 0.0)
        table.add_row(str(i + 1), str(base), str(_at(a["level_actions"], i, "-")), f"{sa:.1f}",
                      str(_at(b["level_actions"], i, "-")), f"{sb:.1f}", f"{sb - sa:+.1f}")
    table.add_row("total", f"{levels} levels", f"{a['actions']} ({a['levels_completed']} done)", f"{a['score']:.2f}",
                  f"{b['actions']} ({b['levels_completed']} done)", f"{b['score']:.2f}",
                  f"{b['score'] - a['score']:+.2f}", style="bold")
    return table


def _at(values: list[Any], index: int, default: Any) -> Any:
    return values[index] if index < len(values) else default


def _game_from_card(card: dict[str, Any] | None) -> str | None:
    envs = (card or {}).get("environments") or []
    return str(envs[0]["id"]) if envs and isinstance(envs[0], dict) and "id" in envs[0] else None


def _json_object(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path.name} is corrupt ({exc.msg})") from None
    except FileNotFoundError:
        raise ValueError(f"{path.name} is missing") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path.name} is corrupt (not a JSON object)")
    return data
