"""Patch policies over hand-built replay reports."""

from __future__ import annotations

import pytest

from dreamteam.sandbox import CellDiff, ReplayReport, TransitionRecord, Verdict, classify, decide

RIGHT = Verdict(True)


def wrong(cells: int = 3, error: str = "") -> Verdict:
    return Verdict(False, cells, None if error else CellDiff(1, 2, 5, 0), error)


def report(*pairs: tuple[Verdict, Verdict], **kwargs: object) -> ReplayReport:
    records = tuple(TransitionRecord(i, 10 + i, old, new, "ACTION1") for i, (old, new) in enumerate(pairs))
    return ReplayReport("dynamics", records, **kwargs)  # type: ignore[arg-type]


def test_classification_table() -> None:
    assert [classify(o, n) for o, n in [(False, True), (True, False), (False, False), (True, True)]] == [
        "fixed", "broken", "still_wrong", "unchanged_right"]


def test_gate_accepts_a_patch_without_regressions() -> None:
    decision = decide(report((wrong(), RIGHT), (RIGHT, RIGHT), (wrong(), wrong())))
    assert decision.accepted
    assert decision.reason == "no regressions (fixed 1, broken 0, still wrong 1, unchanged right 1)"
    assert [c.kind for c in decision.counterexamples] == ["still_wrong"]


def test_gate_rejects_any_regression_by_default() -> None:
    decision = decide(report((RIGHT, wrong()), (wrong(), RIGHT), (wrong(), RIGHT)))
    assert not decision.accepted
    assert decision.reason.startswith("breaks 1 transition(s) the old version predicted right (steps 10)")
    (example,) = decision.counterexamples
    assert example.describe() == "step 10 ACTION1 (broken): 3 wrong cells, first (1, 2) in after: expected 5, got 0"


def test_net_gain_is_opt_in_and_needs_more_fixed_than_broken() -> None:
    gain = report((RIGHT, wrong()), (wrong(), RIGHT), (wrong(), RIGHT))
    assert decide(gain, allow_net_gain=True).reason.startswith("net gain: fixes 2, breaks 1")
    tie = report((RIGHT, wrong()), (wrong(), RIGHT))
    assert not decide(tie, allow_net_gain=True).accepted


def test_feedback_accepts_whatever_ran() -> None:
    decision = decide(report((RIGHT, wrong(error="KeyError: 'x' (dynamics.py line 3)"))), policy="feedback")
    assert decision.accepted and decision.reason.startswith("feedback policy accepts it (fixed 0, broken 1")
    assert decision.counterexamples[0].describe() == "step 10 ACTION1 (broken): KeyError: 'x' (dynamics.py line 3)"


@pytest.mark.parametrize("policy", ["gate", "feedback"])
def test_both_policies_reject_aborted_replays_and_broken_new_versions(policy: str) -> None:
    aborted = decide(report(aborted="worker died (signal 9)"), policy=policy)
    assert (aborted.accepted, aborted.reason) == (False, "replay aborted: worker died (signal 9)")
    killed = decide(report((RIGHT, wrong()), new_status="killed: memory limit"), policy=policy)
    assert (killed.accepted, killed.reason) == (False, "new version killed: memory limit")


def test_counterexamples_list_broken_first_and_are_capped() -> None:
    pairs = [(wrong(), wrong())] * 5 + [(RIGHT, wrong())] * 5
    decision = decide(report(*pairs), max_counterexamples=4)
    assert [c.kind for c in decision.counterexamples] == ["broken"] * 4
    assert decision.to_json()["counterexamples"][0]["first_diff"] == {"x": 1, "y": 2, "expected": 5, "got": 0, "frame": "after"}


def test_unknown_policy_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown patch policy 'lenient'"):
        decide(report(), policy="lenient")
