"""Team Leader: owns the leadership surface and chooses between plans and probes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamteam.roles.base import Role, actions_from
from dreamteam.types import Action


@dataclass(frozen=True, slots=True)
class Decision:
    """The leader's choice for the next actions."""

    goal: str
    plan: tuple[Action, ...]
    source: str
    confidence: float
    reason: str


class TeamLeader(Role):
    """Trusts rollouts only while recent prediction accuracy is high; otherwise probes."""

    def decide(self, surface_text: str, context: dict[str, Any]) -> Decision | None:
        """Ask for a decision; None when the role model failed."""
        reply = self.ask("decide", surface_text, context)
        if not reply.ok:
            return None
        c = reply.content
        return Decision(str(c.get("goal", "DISCOVER")), tuple(actions_from(c.get("plan"))), str(c.get("source", "")),
                        float(c.get("confidence", 0.0) or 0.0), str(c.get("reason", "")))
