"""Simulator: owns the dynamics surface (dynamics.py: HYPOTHESES, predict, history)."""

from __future__ import annotations

from typing import Any

from dreamteam.roles.base import Role


class Simulator(Role):
    """Synthesises dynamics from the regression set; wrong-effect diffs are routed to it."""

    def maintain(self, surface_text: str, transitions: list[dict[str, Any]],
                 counterexamples: list[dict[str, Any]], observable: str = "") -> str | None:
        """Ask for a new dynamics.py (or None for no change)."""
        reply = self.ask("maintain", surface_text, {"transitions": transitions, "counterexamples": counterexamples,
                                                    "observable": observable})
        patch = reply.content.get("patch") if reply.ok else None
        return patch if isinstance(patch, str) and patch.strip() else None
