"""Transductive Explorer: owns the probes surface and proposes information-seeking actions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamteam.roles.base import Role, actions_from
from dreamteam.types import Action


@dataclass(frozen=True, slots=True)
class Probe:
    """An action sequence with the effect expected if a hypothesis holds."""

    actions: tuple[Action, ...]
    expected_effect: str
    target_hypothesis: str

    def to_json(self, status: str = "open") -> dict[str, Any]:
        """The entry written to probes.json."""
        return {"actions": [a.to_json() for a in self.actions], "expected_effect": self.expected_effect,
                "target_hypothesis": self.target_hypothesis, "status": status}


class TransductiveExplorer(Role):
    """Probes untested actions, object classes and places where the model is wrong."""

    def propose(self, surface_text: str, context: dict[str, Any]) -> list[Probe]:
        """Ask for probes."""
        reply = self.ask("propose", surface_text, context)
        if not reply.ok:
            return []
        probes = [Probe(tuple(actions_from(p.get("actions"))), str(p.get("expected_effect", "")),
                        str(p.get("target_hypothesis", ""))) for p in reply.content.get("probes", []) or []]
        return [p for p in probes if p.actions]
