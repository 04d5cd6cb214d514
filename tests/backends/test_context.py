"""LLM prompts stay small: transition lists are cut and grids become cell changes."""

from __future__ import annotations

import numpy as np

from dreamteam.backends.context import MAX_TRANSITIONS, compact_context
from dreamteam.backends.render import PromptRenderer
from dreamteam.backends.schemas import ROLE_SCHEMAS
from dreamteam.codec import encode_grid
from dreamteam.protocols import RoleRequest


def _transition(step: int) -> dict[str, object]:
    before = np.full((64, 64), 5, dtype=np.int8)
    before[10, step % 60] = 9
    after = before.copy()
    after[10, step % 60], after[10, step % 60 + 1] = 5, 9
    return {"step": step, "level": 0, "action": {"action": "ACTION4"}, "before": encode_grid(before),
            "after": encode_grid(after), "frames": 1, "history": {}, "level_up": False, "game_over": False}


def test_transitions_become_cell_changes() -> None:
    ctx = compact_context({"transitions": [_transition(i) for i in range(200)]})
    assert len(ctx["transitions"]) == MAX_TRANSITIONS and ctx["transitions_omitted"] == 200 - MAX_TRANSITIONS
    last = ctx["transitions"][-1]
    assert "before" not in last and last["changed_cells"] == 2
    assert last["changes_x_y_old_new"] == [[199 % 60, 10, 9, 5], [199 % 60 + 1, 10, 5, 9]]


def test_simulator_prompt_with_a_full_regression_set_is_small() -> None:
    request = RoleRequest("simulator", "maintain", "HYPOTHESES = []\n",
                          {"transitions": [_transition(i) for i in range(200)], "counterexamples": []},
                          ROLE_SCHEMAS["simulator"])
    prompt = PromptRenderer().render(request)
    assert prompt.chars < 30_000
