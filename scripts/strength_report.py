"""Tables for bench_strength.py on a set of games with metadata: per tag, per family, the floor check
(families where the team completes fewer levels than another agent) and the per-step cost."""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from dreamteam.env.devset import family_of


def _levels_by(results: dict[str, Any], key_of: Any) -> dict[str, list[int]]:
    """{key: [levels completed, levels total, games]} over one bench's games."""
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in results["games"]:
        for key in key_of(g):
            acc[key][0] += g["levels_completed"]
            acc[key][1] += g["levels_total"]
            acc[key][2] += 1
    return dict(acc)


def by_tag(runs: dict[str, dict[str, Any]], tags: dict[str, tuple[str, ...]]) -> str:
    """Markdown: levels per tag, one column per agent (runs maps agent -> bench results at one budget)."""
    tables = {a: _levels_by(r, lambda g: tags.get(g["game_id"], ()) or ("(none)",)) for a, r in runs.items()}
    return _table("tag", tables)


def by_family(runs: dict[str, dict[str, Any]]) -> str:
    """Markdown: levels per family, one column per agent."""
    return _table("family", {a: _levels_by(r, lambda g: (family_of(g["game_id"]),)) for a, r in runs.items()})


def _table(what: str, tables: dict[str, dict[str, list[int]]]) -> str:
    agents = list(tables)
    keys = sorted({k for t in tables.values() for k in t})
    head = f"| {what} | games | " + " | ".join(agents) + " |\n|---|---:|" + "---:|" * len(agents) + "\n"
    lines = []
    for k in keys:
        games = max(t.get(k, [0, 0, 0])[2] for t in tables.values())
        cells = [f"{t[k][0]}/{t[k][1]}" if k in t else "-" for t in tables.values()]
        lines.append(f"| {k} | {games} | " + " | ".join(cells) + " |")
    return head + "\n".join(lines) + "\n"


def floor_violations(runs: dict[str, dict[str, Any]], agent: str = "team") -> list[str]:
    """Families where `agent` completes fewer levels than some other agent, as 'family: team 1 < random 2'."""
    if agent not in runs:
        return []
    fam = {a: _levels_by(r, lambda g: (family_of(g["game_id"]),)) for a, r in runs.items()}
    out = []
    for f, (mine, _, _) in sorted(fam[agent].items()):
        for other, table in fam.items():
            theirs = table.get(f, [0, 0, 0])[0]
            if other != agent and theirs > mine:
                out.append(f"{f}: {agent} {mine} < {other} {theirs}")
    return out


def step_cost(results: dict[str, Any]) -> dict[str, float | None]:
    """Median and p95 over games of the agent's milliseconds per step (beyond env.step), and the median env
    milliseconds per step."""
    agent = sorted(g["agent_ms_per_step"] for g in results["games"] if "agent_ms_per_step" in g)
    env = [g["env_ms_per_step"] for g in results["games"] if "env_ms_per_step" in g]
    if not agent:
        return {"agent_ms_median": None, "agent_ms_p95": None, "env_ms_median": None}
    p95 = agent[min(len(agent) - 1, round(0.95 * (len(agent) - 1)))]
    return {"agent_ms_median": round(statistics.median(agent), 2), "agent_ms_p95": round(p95, 2),
            "env_ms_median": round(statistics.median(env), 2) if env else None}
