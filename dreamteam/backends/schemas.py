"""JSON-schema dicts for each role's structured reply; roles import these as `RoleRequest.schema`."""

from __future__ import annotations

from typing import Any

from dreamteam.types import ACTION_NAMES

ROLES: tuple[str, ...] = ("observer", "simulator", "inductive", "transductive", "critic", "leader")
GOALS: tuple[str, ...] = ("GOAL", "DISCOVER", "VALIDATE", "REFUTE")

Schema = dict[str, Any]


def _text(description: str) -> Schema:
    return {"type": "string", "description": description}


def _object(properties: Schema, required: list[str] | None = None) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


COORDINATE: Schema = {"type": "integer", "minimum": 0, "maximum": 63}

ACTION: Schema = _object(
    {
        "action": {"type": "string", "enum": list(ACTION_NAMES)},
        "x": {**COORDINATE, "description": "column, only for ACTION6"},
        "y": {**COORDINATE, "description": "row, only for ACTION6"},
    },
    required=["action"],
)

ACTIONS: Schema = {"type": "array", "items": ACTION}

PATCH: Schema = {
    "type": ["string", "null"],
    "description": "the full new source of your artifact, or null to leave it unchanged",
}

NOTES: Schema = _text("short reasoning for the team: what you changed or saw, and why")

OBSERVER_REPLY: Schema = _object({"patch": PATCH, "notes": NOTES})

SIMULATOR_REPLY: Schema = _object({"patch": PATCH, "notes": NOTES})

TACTIC: Schema = _object(
    {
        "name": _text("short identifier of the tactic"),
        "sub_goal": _text("the sub-goal this tactic serves"),
        "actions": ACTIONS,
        "expected": _text("what should happen when the actions run"),
    }
)

INDUCTIVE_REPLY: Schema = _object({"patch": PATCH, "notes": NOTES, "tactics": {"type": "array", "items": TACTIC}})

PROBE: Schema = _object(
    {
        "actions": ACTIONS,
        "expected_effect": _text("the observable effect if the target hypothesis holds"),
        "target_hypothesis": _text("the hypothesis this probe confirms or refutes"),
    }
)

TRANSDUCTIVE_REPLY: Schema = _object({"probes": {"type": "array", "items": PROBE}, "notes": NOTES})

CRITIC_REPLY: Schema = _object(
    {
        "flags": {"type": "array", "items": _text("e.g. broken hypothesis, ontology drift, grinding loop")},
        "feedback": _object({role: _text(f"feedback routed to the {role}") for role in ROLES}, required=[]),
        "notes": NOTES,
    }
)

LEADER_REPLY: Schema = _object(
    {
        "goal": {"type": "string", "enum": list(GOALS)},
        "plan": ACTIONS,
        "source": _text("where the plan comes from: a tactic name, a probe, or 'leader'"),
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "reason": _text("one or two sentences on why this plan now"),
    }
)

ROLE_SCHEMAS: dict[str, Schema] = {
    "observer": OBSERVER_REPLY,
    "simulator": SIMULATOR_REPLY,
    "inductive": INDUCTIVE_REPLY,
    "transductive": TRANSDUCTIVE_REPLY,
    "critic": CRITIC_REPLY,
    "leader": LEADER_REPLY,
}
