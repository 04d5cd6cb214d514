"""Observer: owns the observation surface (observable.py: parse and render)."""

from __future__ import annotations

from typing import Any

from dreamteam.roles.base import Role


class Observer(Role):
    """Keeps `render(parse(frame)) == frame` and names entities; parse errors are routed to it."""

    def maintain(self, surface_text: str, frames: list[list[str]], parse_errors: list[dict[str, Any]]) -> str | None:
        """Ask for a new observable.py (or None for no change)."""
        reply = self.ask("maintain", surface_text, {"frames": frames, "parse_errors": parse_errors})
        patch = reply.content.get("patch") if reply.ok else None
        return patch if isinstance(patch, str) and patch.strip() else None
