"""The symbolic Team Leader takes tactics in the scorers' order and says when they reordered the explorer's."""

from __future__ import annotations

from typing import Any

from tests.backends.symbolic.helpers import ask


def _tactic(name: str, rank: int, score: float | None, action: str) -> dict[str, Any]:
    return {"name": name, "sub_goal": name, "actions": [{"action": action}], "expected": "", "explorer_rank": rank,
            "score": score, "scores": {"reverse": {"value": float(rank), "uncertainty": 0.0, "note": "",
                                                   "status": "used", "scaled": score}}}


def _context(tactics: list[dict[str, Any]]) -> dict[str, Any]:
    return {"tactics": tactics, "probes": [], "critique": {"flags": [], "feedback": {}},
            "prediction_accuracy": 0.9, "budget_left": 50, "fatal_actions": [], "exploration": {}}


def test_the_leader_follows_the_first_tactic_and_names_the_reordering() -> None:
    reply = ask("leader", _context([_tactic("frontier", 1, 1.0, "ACTION2"), _tactic("enter", 0, 0.0, "ACTION1")]))
    assert reply["source"] == "frontier" and reply["plan"] == [{"action": "ACTION2"}]
    assert reply["reason"].endswith("follow tactic 'frontier'; the scorers ranked it first (combined score 1.00), "
                                    "ahead of the explorer's 'enter'")


def test_in_the_explorers_order_the_reason_is_as_before() -> None:
    reply = ask("leader", _context([_tactic("enter", 0, 1.0, "ACTION1"), _tactic("frontier", 1, 0.0, "ACTION2")]))
    assert reply["source"] == "enter"
    assert reply["reason"] == "prediction accuracy 0.90 >= 0.8: follow tactic 'enter'"
    plain = ask("leader", _context([{"name": "enter", "sub_goal": "enter", "actions": [{"action": "ACTION1"}],
                                     "expected": ""}]))
    assert plain["reason"] == "prediction accuracy 0.90 >= 0.8: follow tactic 'enter'"
