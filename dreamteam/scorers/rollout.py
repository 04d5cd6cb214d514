"""The `rollout` scorer: the Inductive Explorer's own ranking of its tactics, as scores.

The explorer already ranks tactics by rollouts of the workspace's executable world model: sub-goals in
priority order (level-completing ones first), and for each the shortest plan its search over predicted
rollouts found. This scorer turns that order into values (`-index`: the first tactic scores 0, the next -1,
...), so that alone it reproduces the explorer's order exactly and, combined with other scorers, it is the
ranking they fall back to where they abstain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreamteam.errors import ScorerError
from dreamteam.protocols import Score
from dreamteam.types import Observation, Tactic


class RolloutScorer:
    """Scores each tactic by its place in the explorer's rollout ranking; never uncertain, never abstains."""

    name = "rollout"

    def __init__(self, checkpoint: str | None = None) -> None:
        if checkpoint is not None:
            raise ScorerError(f"scorer 'rollout' takes no checkpoint (got {checkpoint!r}): write just 'rollout'")

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        """`-index` per tactic, with the sub-goal's priority and the plan length as the note."""
        priority = {g: i for i, g in enumerate(goals)}
        out = []
        for i, t in enumerate(tactics):
            goal = f"sub-goal {t.sub_goal!r}" + (f" (priority {priority[t.sub_goal] + 1})" if t.sub_goal in priority else "")
            out.append(Score(float(-i), 0.0, f"rollout rank {i + 1}/{len(tactics)}: {goal}, "
                                             f"{len(t.actions)} predicted action{'' if len(t.actions) == 1 else 's'}"))
        return out
