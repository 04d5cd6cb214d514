"""Interfaces between layers, as Protocols. Imports only `dreamteam.types`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from dreamteam.types import Action, GameInfo, Observation, Tactic


@runtime_checkable
class Agent(Protocol):
    """Plays one game: `begin(info)`, then `act(obs) -> Action | None` until None or the game ends.

    An agent may also define `end(obs) -> None`; the play loop calls it once with the last observation.
    """

    name: str

    def begin(self, info: GameInfo, budget: int) -> None:
        """Called once before the first observation of a session."""

    def act(self, obs: Observation) -> Action | None:
        """Return the next action, or None to end the session."""


@dataclass(frozen=True, slots=True)
class CallUsage:
    """Accounting for one role-model call."""

    backend: str
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0


@dataclass(frozen=True, slots=True)
class RoleRequest:
    """What a role asks its role model: the role's surface, JSON-able context, and the reply schema."""

    role: str
    task: str
    surface: str
    context: Mapping[str, Any]
    schema: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class RoleReply:
    """A role model's validated structured answer (or a recorded failure)."""

    role: str
    content: Mapping[str, Any]
    ok: bool = True
    error: str | None = None
    usage: CallUsage = field(default_factory=lambda: CallUsage(backend="none"))


@runtime_checkable
class RoleModel(Protocol):
    """Anything that answers a role's request: symbolic algorithms, LLM backends, cassettes, scripts."""

    name: str

    def respond(self, request: RoleRequest) -> RoleReply:
        """Answer `request` with content matching `request.schema`, or ok=False with the error."""


@dataclass(frozen=True, slots=True)
class Score:
    """One scorer's judgement of one tactic: higher `value` is better; `uncertainty` >= 0 is how little the
    scorer trusts its value (a scorer abstains with `value=None`); `note` is a short reason for the leader."""

    value: float | None
    uncertainty: float = 0.0
    note: str = ""


@runtime_checkable
class TacticScorer(Protocol):
    """Ranks the Inductive Explorer's tactics; several combine (see `dreamteam.scorers`).

    `state` is the current observation, `tactics` the proposals in the explorer's order, `goals` the active
    sub-goal names (most urgent first), `context` JSON-able extras (step, level, prediction accuracy, the
    world model's rollouts per tactic when the harness has them). Returns one Score per tactic, in order.
    """

    name: str

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        """One Score per tactic."""
