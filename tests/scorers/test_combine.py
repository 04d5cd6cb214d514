"""The TacticScorer contract, and how several scorers combine into one ranking."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.protocols import Score, TacticScorer
from dreamteam.scorers import ScorerSet
from dreamteam.scorers.combine import ABSTAINED, FAILED, FLAT, GATED, USED
from dreamteam.scorers.rollout import RolloutScorer
from dreamteam.types import Action, Observation, Tactic
from tests.scorers import plugins

PLUGINS = "tests.scorers.plugins"


def _obs() -> Observation:
    grid = np.zeros((8, 8), dtype=np.int8)
    return Observation(grid=grid, frames=(grid,), state="NOT_FINISHED", levels_completed=0,
                       win_levels=3, available_actions=(1, 2, 3, 4), step=5)


def _tactics(n: int) -> list[Tactic]:
    goals = ["level_up", "enter:colour3", "frontier"]
    return [Tactic(f"t{i}", goals[i % 3], tuple(Action(1 + i % 4) for _ in range(i + 1)), f"expect {i}")
            for i in range(n)]


def _goals(tactics: Sequence[Tactic]) -> list[str]:
    return list(dict.fromkeys(t.sub_goal for t in tactics))


CONTEXT = {"step": 5, "level": 0, "prediction_accuracy": 0.9, "budget_left": 100, "available_actions": [1, 2]}


def check_contract(scorer: TacticScorer) -> None:
    """What every scorer owes the team: one Score per tactic in order, values finite or None, uncertainty a
    non-negative number, a note that is text; the same answer for the same question; nothing for no tactics."""
    assert isinstance(scorer, TacticScorer) and isinstance(scorer.name, str) and scorer.name.strip()
    assert scorer.score(_obs(), [], [], CONTEXT) == []
    for n in (1, 2, 5):
        tactics = _tactics(n)
        scores = scorer.score(_obs(), tactics, _goals(tactics), CONTEXT)
        assert isinstance(scores, list) and len(scores) == n
        for s in scores:
            assert isinstance(s, Score)
            assert s.value is None or (isinstance(s.value, float | int) and math.isfinite(s.value))
            assert isinstance(s.uncertainty, float | int) and s.uncertainty >= 0
            assert isinstance(s.note, str)
        assert scorer.score(_obs(), tactics, _goals(tactics), CONTEXT) == scores


@pytest.mark.parametrize("scorer", [RolloutScorer(), plugins.Reverse(), plugins.Unsure(), plugins.Abstains()],
                         ids=lambda s: s.name)
def test_contract(scorer: TacticScorer) -> None:
    check_contract(scorer)


def test_rollout_values_follow_the_explorers_order() -> None:
    tactics = _tactics(4)
    scores = RolloutScorer().score(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [s.value for s in scores] == [0.0, -1.0, -2.0, -3.0]
    assert scores[1].note == "rollout rank 2/4: sub-goal 'enter:colour3' (priority 2), 2 predicted actions"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["level_up", "frontier", "enter:colour3", "probe"]),
                          st.integers(1, 6)), max_size=12))
def test_rollout_alone_keeps_the_explorers_order(shape: list[tuple[str, int]]) -> None:
    tactics = [Tactic(f"{goal}-{i}", goal, tuple(Action(1) for _ in range(k)), "") for i, (goal, k) in enumerate(shape)]
    ranked = ScorerSet.load("rollout").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [r.tactic for r in ranked] == tactics
    assert [r.explorer_rank for r in ranked] == list(range(len(tactics)))


def test_rescaled_values_and_the_weighted_mean() -> None:
    tactics = _tactics(3)
    ranked = ScorerSet.load(f"rollout,{PLUGINS}:Reverse").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    # rollout rescales to 1, .5, 0 and reverse to 0, .5, 1: every tactic averages .5, so the explorer's order
    assert [r.tactic.name for r in ranked] == ["t0", "t1", "t2"]
    assert [r.combined for r in ranked] == [0.5, 0.5, 0.5]
    assert [(v.scorer, v.status, v.scaled) for v in ranked[0].verdicts] == [("rollout", USED, 1.0), ("reverse", USED, 0.0)]
    alone = ScorerSet.load(f"{PLUGINS}:Reverse").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [r.tactic.name for r in alone] == ["t2", "t1", "t0"] and [r.combined for r in alone] == [1.0, 0.5, 0.0]


def test_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins.Reverse, "weight", 3.0, raising=False)
    tactics = _tactics(3)
    ranked = ScorerSet.load(f"rollout,{PLUGINS}:Reverse").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [r.tactic.name for r in ranked] == ["t2", "t1", "t0"]
    assert ranked[0].combined == pytest.approx((1 * 0.0 + 3 * 1.0) / 4)


def test_a_gated_score_falls_back_to_rollout() -> None:
    """`unsure` prefers the last tactic but is above its gate there: that tactic is judged by rollout alone."""
    tactics = _tactics(3)
    ranked = ScorerSet.load(f"rollout,{PLUGINS}:Unsure").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    by_name = {r.tactic.name: r for r in ranked}
    assert [v.status for v in by_name["t2"].verdicts] == [USED, GATED]
    assert by_name["t2"].combined == 0.0  # rollout's rescaled value only
    # t0, t1: unsure counts on two tactics (0 -> 0.0, 1 -> 1.0)
    assert by_name["t0"].combined == pytest.approx(0.5) and by_name["t1"].combined == pytest.approx(0.75)
    assert [r.tactic.name for r in ranked] == ["t1", "t0", "t2"]


def test_abstaining_everywhere_is_exactly_rollout() -> None:
    tactics = _tactics(4)
    ranked = ScorerSet.load(f"rollout,{PLUGINS}:Abstains").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [r.tactic for r in ranked] == tactics
    assert {v.status for r in ranked for v in r.verdicts if v.scorer == "abstains"} == {ABSTAINED}
    alone = ScorerSet.load(f"{PLUGINS}:Abstains").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [r.tactic for r in alone] == tactics and all(r.combined is None for r in alone)


def test_a_single_tactic_is_flat() -> None:
    (only,) = ScorerSet.load("rollout").rank(_obs(), _tactics(1), ["level_up"], CONTEXT)
    assert only.combined is None and only.verdicts[0].status == FLAT
    assert ScorerSet.load("rollout").rank(_obs(), [], [], CONTEXT) == []


@pytest.mark.parametrize(("name", "why"), [("Broken", "failed: RuntimeError: model exploded"),
                                           ("TooFew", "failed: returned 2 scores for 3 tactics")])
def test_a_failing_scorer_abstains_and_the_game_goes_on(name: str, why: str) -> None:
    tactics = _tactics(3)
    ranked = ScorerSet.load(f"rollout,{PLUGINS}:{name}").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    assert [r.tactic for r in ranked] == tactics
    assert all(r.verdicts[1].status == FAILED and r.verdicts[1].score.note == why for r in ranked)


def test_records() -> None:
    tactics = _tactics(2)
    ranked = ScorerSet.load(f"rollout,{PLUGINS}:Unsure").rank(_obs(), tactics, _goals(tactics), CONTEXT)
    first = ranked[0].to_json()
    assert first == {"tactic": "t0", "sub_goal": "level_up", "explorer_rank": 0, "combined": 1.0, "scores": {
        "rollout": {"value": 0.0, "uncertainty": 0.0, "note": "rollout rank 1/2: sub-goal 'level_up' (priority 1), "
                    "1 predicted action", "status": USED, "scaled": 1.0},
        "unsure": {"value": 0.0, "uncertainty": 0.1, "note": "unsure", "status": FLAT, "scaled": None}}}
    assert ranked[1].line() == ("t1 [enter:colour3] explorer #2: combined 0 · rollout -1 (rollout rank 2/2: sub-goal "
                                "'enter:colour3' (priority 2), 2 predicted actions); unsure 1 ±0.9 [gated] (unsure)")
