"""Critic: owns the critique surface; detects loops and regressions and routes feedback to their owners."""

from __future__ import annotations

from typing import Any

from dreamteam.roles.base import Role


class Critic(Role):
    """Audits proposals against the evidence."""

    def audit(self, surface_text: str, context: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
        """Return flags and feedback per role."""
        reply = self.ask("audit", surface_text, context)
        if not reply.ok:
            return [], {}
        flags = [str(f) for f in reply.content.get("flags", []) or []]
        feedback = {str(k): str(v) for k, v in (reply.content.get("feedback") or {}).items() if v}
        return flags, feedback
