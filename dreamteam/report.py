"""Summaries of the toolkit's scorecard for printing and for bench JSON."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def game_summary(scorecard: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Levels, actions and score of one game from a scorecard dict (zeros when it was never played)."""
    for env in scorecard.get("environments", []):
        if env.get("id") == game_id:
            best = max(env["runs"], key=lambda r: (r.get("levels_completed", 0), r.get("score", 0.0)))
            return {
                "game_id": game_id,
                "levels_completed": int(env.get("levels_completed", 0)),
                "actions": int(env.get("actions", 0)),
                "score": float(env.get("score", 0.0)),
                "level_scores": best.get("level_scores") or [],
                "level_actions": best.get("level_actions") or [],
                "level_baseline_actions": best.get("level_baseline_actions") or [],
                "resets": int(env.get("resets", 0)),
            }
    return {"game_id": game_id, "levels_completed": 0, "actions": 0, "score": 0.0,
            "level_scores": [], "level_actions": [], "level_baseline_actions": [], "resets": 0}


def level_table(summary: dict[str, Any]) -> Table:
    """Per-level actions against baseline and score."""
    table = Table(title=f"scorecard · {summary['game_id']}")
    for col in ("level", "completed", "actions", "baseline", "score"):
        table.add_column(col, justify="right")
    done = summary["levels_completed"]
    rows = zip(summary["level_actions"], summary["level_baseline_actions"], summary["level_scores"], strict=False)
    for i, (acts, base, score) in enumerate(rows, start=1):
        table.add_row(str(i), "yes" if i <= done else "no", str(acts), str(base), f"{score:.1f}")
    table.caption = (f"levels {done}/{len(summary['level_scores'])} · actions {summary['actions']} "
                     f"(resets {summary['resets']}) · score {summary['score']:.2f}")
    return table


def bench_table(results: dict[str, Any]) -> Table:
    """One row per game plus the total."""
    table = Table(title=f"bench · agent {results['agent']} · budget {results['budget']}")
    for col in ("game", "levels", "actions", "score", "wall s"):
        table.add_column(col, justify="right")
    for g in results["games"]:
        table.add_row(g["game_id"], f"{g['levels_completed']}/{g['levels_total']}", str(g["actions"]),
                      f"{g['score']:.2f}", f"{g['wall_s']:.1f}")
    t = results["total"]
    table.add_row("TOTAL", f"{t['levels_completed']}/{t['levels_total']}", str(t["actions"]),
                  f"{t['score']:.2f}", f"{t['wall_s']:.1f}", style="bold")
    return table


def print_table(table: Table, console: Console | None = None) -> None:
    """Print a rich table to stdout."""
    (console or Console()).print(table)
