"""Inductive Explorer: owns the strategy surface and proposes tactics from rollouts of the world model."""

from __future__ import annotations

from typing import Any

from dreamteam.roles.base import Role, actions_from
from dreamteam.types import Tactic

__all__ = ["InductiveExplorer", "Tactic"]


class InductiveExplorer(Role):
    """Derives sub-goals from evidence and searches predicted rollouts for short tactics."""

    def propose(self, surface_text: str, context: dict[str, Any]) -> tuple[str | None, list[Tactic]]:
        """Ask for tactics (and optionally a new strategy.py)."""
        reply = self.ask("propose", surface_text, context)
        if not reply.ok:
            return None, []
        tactics = [
            Tactic(str(t.get("name", "")), str(t.get("sub_goal", "")), tuple(actions_from(t.get("actions"))),
                   str(t.get("expected", "")))
            for t in reply.content.get("tactics", []) or []
        ]
        patch = reply.content.get("patch")
        return (patch if isinstance(patch, str) and patch.strip() else None), [t for t in tactics if t.actions]
