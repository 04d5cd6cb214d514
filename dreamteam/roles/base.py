"""What every role shares: asking its role model through the protocol and reading the reply safely."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dreamteam.backends.schemas import ROLE_SCHEMAS
from dreamteam.protocols import RoleModel, RoleReply, RoleRequest
from dreamteam.types import Action


@dataclass
class Role:
    """One team member: a name, the surface it owns, its role model, and the feedback routed to it."""

    name: str
    surface: str
    model: RoleModel
    feedback: list[str] = field(default_factory=list)
    failures: int = 0
    last_notes: str = ""

    def ask(self, task: str, surface_text: str, context: Mapping[str, Any]) -> RoleReply:
        """Send one request; peer feedback received since the last call travels with it."""
        ctx = dict(context)
        if self.feedback:
            ctx["feedback"] = "\n".join(self.feedback[-4:])
        request = RoleRequest(role=self.name, task=task, surface=surface_text, context=ctx,
                              schema=ROLE_SCHEMAS[self.name])
        reply = self.model.respond(request)
        self.feedback.clear()
        self.last_notes = str(reply.content.get("notes", "")) if reply.ok else ""
        if not reply.ok:
            self.failures += 1
        return reply


def actions_from(items: Any) -> list[Action]:
    """Parse a reply's action list, dropping malformed entries."""
    out: list[Action] = []
    for item in items or []:
        try:
            out.append(Action.from_json(item))
        except (ValueError, KeyError, TypeError):
            continue
    return out
