"""Write a workspace beside a recorded run the way the team's step logic does (dreamteam/team/logic.py).

One step commit per recorded action through the real Workspace API: the transition, the prediction line
(the seed's "nothing changes" prediction against the observed frame), leader.json with its decision log,
probes.json, critique.json, a dynamics patch accepted every third step with a replay report, a strategy
patch rejected every fifth step, and the level tags. Used until (and beside) runs of `--agent team`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from dreamteam.codec import encode_grid, grid_hash
from dreamteam.env.replay import load_recording
from dreamteam.types import Action
from dreamteam.workspace import PatchOutcome, PredictionRecord, StepRecord, Workspace, seed_path

REPORT = {"surface": "dynamics", "aborted": None, "old_status": "ok", "new_status": "ok",
          "counts": {"fixed": 1, "broken": 0, "still_wrong": 1, "unchanged_right": 0},
          "summary": "2 transitions: fixed 1, broken 0, still wrong 1, unchanged right 0",
          "records": [{"index": 0, "step": 0, "action": "ACTION4", "kind": "fixed",
                       "old": {"right": False, "wrong_cells": 2, "first_diff": None, "error": ""},
                       "new": {"right": True, "wrong_cells": 0, "first_diff": None, "error": ""}},
                      {"index": 1, "step": 1, "action": "ACTION1", "kind": "still_wrong",
                       "old": {"right": False, "wrong_cells": 5, "first_diff": None, "error": ""},
                       "new": {"right": False, "wrong_cells": 3, "first_diff": None, "error": ""}}]}


SCORES = [
    {"tactic": "frontier", "sub_goal": "frontier", "explorer_rank": 1, "combined": 1.0, "scores": {
        "reverse": {"value": 1.0, "uncertainty": 0.0, "note": "reverse pick", "status": "used", "scaled": 1.0}}},
    {"tactic": "level_up", "sub_goal": "level_up", "explorer_rank": 0, "combined": None, "scores": {
        "reverse": {"value": 0.0, "uncertainty": 0.9, "note": "too unsure", "status": "gated", "scaled": None}}},
]
"""The tactic scores of step 2's decision (as the team writes them into leader.json)."""
SCORE_LINES = ("frontier explorer #2: combined 1 · reverse 1 (reverse pick)",
               "level_up explorer #1: combined none · reverse 0 ±0.9 [gated] (too unsure)")


def _dumps(data: object) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def add_team_workspace(run_dir: Path) -> Path:
    """Create RUN_DIR/workspace with one step commit per action of RUN_DIR/recording.jsonl."""
    recording = load_recording(run_dir / "recording.jsonl")
    ws = Workspace.create(run_dir / "workspace", seed_path("default"))
    dynamics, decisions = ws.read_surface("dynamics"), []
    for step, entry in enumerate(recording.actions):
        before, after, level = recording.entries[step].grid, entry.grid, recording.entries[step].levels_completed
        assert before is not None and after is not None
        action = Action.parse(entry.action_label)
        ws.add_transition({"step": step, "level": level, "action": action.to_json(), "before": encode_grid(before),
                           "after": encode_grid(after), "frames": len(entry.frames or ()), "history": {},
                           "level_up": entry.levels_completed > level, "game_over": entry.state == "GAME_OVER"})
        wrong = int(np.count_nonzero(before != after))
        ws.add_prediction(PredictionRecord(step, action.label(), grid_hash(before), grid_hash(after), wrong == 0, wrong))
        patches: list[PatchOutcome] = []
        if step % 3 == 1:
            dynamics += f"\n# step {step}: the player moves one cell per ACTION4\n"
            ws.write_surface("dynamics", dynamics)
            ws.write_replay_report(REPORT)
            patches.append(PatchOutcome("dynamics", "simulator", True, "no regression", REPORT["summary"]))
        if step % 5 == 2:
            patches.append(PatchOutcome("strategy", "inductive", False, "scope: name 'parse' is not owned by strategy"))
        scores = SCORES if step == 2 else []
        decisions = (decisions + [{"step": step, "goal": "DISCOVER", "source": "transductive", "plan": [action.label()],
                                   "confidence": 0.25, "reason": f"probe {action.label()}", "scores": scores}])[-30:]
        ws.write_surface("leadership", _dumps({"goal": "DISCOVER", "plan": [action.to_json()], "confidence": 0.25,
                                               "decisions": decisions}))
        ws.write_surface("probes", _dumps({"probes": [{"actions": [action.to_json()], "status": "open",
                                                       "expected_effect": "the player moves",
                                                       "target_hypothesis": f"{action.name} moves the player"}]}))
        flags = ["grinding loop"] if step % 4 == 3 else []
        ws.write_surface("critique", _dumps({"feedback": {"simulator": f"wrong in {wrong} cells"}, "flags": flags}))
        ws.commit_step(StepRecord(step=step, level=level, action=action.label(), hit=wrong == 0, wrong_cells=wrong,
                                  diff_summary="prediction matched the frame" if wrong == 0 else f"{wrong} cells differ",
                                  patches=tuple(patches), notes=tuple(f"critic: {f}" for f in flags),
                                  scores=SCORE_LINES if step == 2 else ()))
        if step == 0:
            ws.tag_level(level + 1, "start")
        if entry.levels_completed > level:
            ws.tag_level(level + 1, "solved", move=True)
            ws.tag_level(entry.levels_completed + 1, "start", move=True)
    ws.close()
    return run_dir / "workspace"
