"""The team's fallback when its tactics stop finding anything new: the map's frontier walk and level reset."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dreamteam.backends.symbolic.leader import LeaderAnswerer, decision
from dreamteam.cli import main
from dreamteam.protocols import RoleRequest
from dreamteam.team.logic import credited
from dreamteam.workspace import Workspace


def _decisions(run: Path) -> tuple[dict[int, dict[str, object]], list[str]]:
    decisions: dict[int, dict[str, object]] = {}
    with Workspace.open(run / "workspace") as ws:
        messages = [ws.repo.commit(sha).message for _, sha in sorted(ws.steps().items())]
        for _, sha in sorted(ws.steps().items()):
            for d in json.loads(ws.read_surface("leadership", sha)).get("decisions", []):
                decisions[int(d["step"])] = d
    return decisions, messages


def test_grinding_team_walks_the_frontier(tmp_path: Path) -> None:
    # keys' second level makes the symbolic team grind within 100 steps (fuse and lava, used before, are now
    # won or played on without grinding)
    run = tmp_path / "run"
    assert main(["play", "keys", "--agent", "team", "--budget", "100", "--out", str(run), "--quiet"]) == 0
    decisions, messages = _decisions(run)
    frontier = [d for d in decisions.values() if d["source"] == "map-frontier"]
    assert frontier, "keys makes the symbolic team grind within 100 steps"
    # the walk is the grinding rule's, or the floor's while the world model does not fit yet (leader.py)
    assert any("no new state for" in str(d["reason"]) for d in frontier)
    assert all("no new state for" in str(d["reason"]) or "does not fit yet" in str(d["reason"]) for d in frontier)
    assert any("inductive skipped: no new state" in m for m in messages)


def test_every_level_reset_is_the_leader_s_after_a_loss_or_the_map_s(tmp_path: Path) -> None:
    # lava's first levels kill the symbolic team a few times within 100 steps
    run = tmp_path / "run"
    assert main(["play", "lava", "--agent", "team", "--budget", "100", "--out", str(run), "--quiet"]) == 0
    decisions, _ = _decisions(run)
    resets = [d for d in decisions.values() if d["plan"] == ["RESET"]]
    assert resets
    assert all((d["source"] == "map-frontier" and "reset the level" in str(d["reason"]))
               or (d["source"] == "leader" and str(d["reason"]) == "level lost: reset") for d in resets)


def test_a_tactic_starting_with_a_level_reset_resets_mid_level_but_not_at_the_level_start(tmp_path: Path) -> None:
    plan = [{"action": "RESET"}, {"action": "ACTION1"}, {"action": "ACTION2"}]
    leader = [{"goal": "GOAL", "plan": plan, "source": "repeat-level-up-each:colour8", "confidence": 1.0,
               "reason": "scripted"}] * 40
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"leader": leader}))
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--budget", "5", "--backend", "leader=scripted", "--script",
                 str(script), "--out", str(run), "--quiet"]) == 0
    labels = [json.loads(line)["data"]["action_input"]["id"] for line in (run / "recording.jsonl").open()][1:]
    # step 0 is the level start: the RESET is dropped and the rest runs; afterwards the plan's RESET is sent
    assert labels[:3] in (["ACTION1", "ACTION2", "RESET"], [1, 2, 0])


def test_the_harness_counts_the_level_s_steps_taken_on_the_map_s_walks(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The leader is owed walks by how many of the level's steps the map's walks took (leader.py, `_owed`):
    the harness counts the actions it sent under a map-frontier plan, and only those, per level."""
    seen: list[dict[str, object]] = []

    def answer(self: LeaderAnswerer, request: RoleRequest) -> dict[str, object]:
        seen.append(dict(request.context["exploration"]))
        source = "map-frontier" if len(seen) % 3 else "script"
        move = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")[len(seen) % 4]
        return decision("DISCOVER", [{"action": move}], source, 0.5, "scripted")

    monkeypatch.setattr(LeaderAnswerer, "answer", answer)
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--budget", "30", "--out", str(run), "--quiet"]) == 0
    assert len(seen) > 10
    walked = 0
    for i, context in enumerate(seen):
        if context["level_steps"] == 1:
            walked = 0
        assert context["floor_steps"] == walked, f"call {i}"
        walked += 1 if (i + 1) % 3 else 0



def _credited_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, walk: Callable[[dict[str, Any], int], bool],
                   budget: int = 150) -> list[tuple[int, int, str]]:
    """Play maze with the symbolic leader, its decisions relabelled: a walk of the map where `walk(exploration
    context, plan length)` says so, else a scripted plan. Returns, per decision, the credited
    (levels_by_floor, levels_by_team) it saw and the label it got."""
    seen: list[tuple[int, int, str]] = []
    original = LeaderAnswerer.answer

    def answer(self: LeaderAnswerer, request: RoleRequest) -> dict[str, Any]:
        reply = original(self, request)
        context = request.context["exploration"]
        label = "map-frontier" if walk(context, len(reply["plan"])) else "scripted"
        reply = {**reply, "source": label}
        seen.append((int(context["levels_by_floor"]), int(context["levels_by_team"]), label))
        return reply

    monkeypatch.setattr(LeaderAnswerer, "answer", answer)
    run = tmp_path / "run"
    assert main(["play", "maze", "--agent", "team", "--budget", str(budget), "--out", str(run), "--quiet"]) == 0
    return seen


def test_the_harness_credits_a_level_to_the_plan_that_sent_its_last_action(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The leader reads which plans completed the game's levels (leader.py, `_terms`): a level goes to the
    team's plans when its last action came from one of them (maze's levels fall to its tactics)."""
    seen = _credited_play(tmp_path, monkeypatch, lambda c, n: False)
    assert seen[-1][0] == 0 and seen[-1][1] >= 2, "maze's first levels fall to its tactics within 150 steps"
    assert credited("level_up", 10, 9) == "team"
    assert credited("map-frontier", 10, 5) == "floor"  # the other plans had half of the level's steps
    assert credited("map-frontier", 10, 6) is None  # the walks had most of them


def test_levels_the_walks_completed_alone_are_no_evidence_against_the_tactics(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision a walk of the map: the levels are completed, none of them is credited to the walks (the
    tactics never had their say; at a game's start the walks complete the easy levels alone)."""
    seen = _credited_play(tmp_path, monkeypatch, lambda c, n: True, budget=120)
    assert seen[-1] == (0, 0, "map-frontier")
    assert Workspace.open(tmp_path / "run" / "workspace").repo.tags, "no level tagged"
