"""Commit messages and trailers of step records."""

from __future__ import annotations

import pytest

from dreamteam.workspace import PatchOutcome, StepRecord, commit_message, parse_trailers
from dreamteam.workspace.records import log_entry, subject_line

ACCEPTED = PatchOutcome("dynamics", "Simulator", True, "no regression", "fixed 3, broke 0, still wrong 1")
REJECTED = PatchOutcome("strategy", "Inductive Explorer", False, "scope: name 'parse' is not owned by strategy")


def test_subject_matches_the_documented_example() -> None:
    record = StepRecord(17, 2, "ACTION3", hit=True, patches=(ACCEPTED,))
    assert subject_line(record) == "step 17 · level 2 · ACTION3 · prediction hit · 1 patch accepted"


@pytest.mark.parametrize(("hit", "wrong", "patches", "expected"), [
    (False, 12, (ACCEPTED, REJECTED), "prediction miss (12 cells wrong) · 1 patch accepted, 1 rejected"),
    (False, 1, (), "prediction miss (1 cell wrong) · no patches"),
    (None, 0, (REJECTED,), "prediction none · 0 patches accepted, 1 rejected"),
])
def test_subject_variants(hit: bool | None, wrong: int, patches: tuple[PatchOutcome, ...], expected: str) -> None:
    record = StepRecord(3, 0, "ACTION6@(12,40)", hit=hit, wrong_cells=wrong, patches=patches)
    assert subject_line(record) == "step 3 · level 0 · ACTION6@(12,40) · " + expected


def test_message_body_and_trailers() -> None:
    record = StepRecord(17, 2, "ACTION3", hit=False, wrong_cells=4, diff_summary="player did not move",
                        patches=(ACCEPTED, REJECTED), notes=("leader: probing\nsecond line",))
    message = commit_message(record)
    assert "- dynamics (Simulator): accepted: no regression [replay: fixed 3, broke 0, still wrong 1]" in message
    assert "- strategy (Inductive Explorer): rejected: scope: name 'parse'" in message
    assert "- leader: probing second line" in message and "diff: player did not move" in message
    assert parse_trailers(message) == {
        "DreamTeam-Step": "17", "DreamTeam-Level": "2", "DreamTeam-Action": "ACTION3",
        "DreamTeam-Prediction": "miss", "DreamTeam-Wrong-Cells": "4",
        "DreamTeam-Patches": "dynamics=accepted, strategy=rejected",
    }
    entry = log_entry("abc", message)
    assert entry is not None and entry.step == 17 and entry.level == 2 and entry.wrong_cells == 4
    assert entry.patches == (("dynamics", "accepted"), ("strategy", "rejected"))
    assert entry.patches_text() == "dynamics=accepted, strategy=rejected"


def test_tactic_scores_paragraph() -> None:
    lines = ("frontier explorer #2: combined 1 · reverse 1 (reverse pick)",
             "level_up explorer #1: combined none · reverse 0 ±0.9 [gated] (too\nunsure)")
    message = commit_message(StepRecord(4, 0, "ACTION1", hit=True, notes=("critic: loop",), scores=lines))
    assert ("notes:\n- critic: loop\n\nscores:\n- frontier explorer #2: combined 1 · reverse 1 (reverse pick)\n"
            "- level_up explorer #1: combined none · reverse 0 ±0.9 [gated] (too unsure)\n\nDreamTeam-Step: 4") in message
    assert parse_trailers(message)["DreamTeam-Step"] == "4"
    assert "scores:" not in commit_message(StepRecord(4, 0, "ACTION1", hit=True))


def test_non_step_messages_have_no_entry() -> None:
    assert log_entry("abc", "seed workspace default\n\nDreamTeam-Seed: default\n") is None
    assert log_entry("abc", "a subject only") is None
    assert parse_trailers("subject\n\nnot: a trailer\nplain prose line") == {}


def test_record_validation() -> None:
    with pytest.raises(ValueError, match="one non-empty line"):
        StepRecord(1, 0, "ACTION1\nx", hit=True)
    with pytest.raises(ValueError, match=">= 0"):
        StepRecord(-1, 0, "ACTION1", hit=True)
