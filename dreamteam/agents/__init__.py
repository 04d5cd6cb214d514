"""Agent registry: names mapped to dotted paths, imported only when an agent is built."""

from __future__ import annotations

import importlib
from typing import Any

from dreamteam.protocols import Agent

AGENTS: dict[str, str] = {
    "random": "dreamteam.agents.random_agent:RandomAgent",
    "explorer": "dreamteam.agents.explorer:ExplorerAgent",
    "team": "dreamteam.team.agent:TeamAgent",
}


class UnknownAgentError(ValueError):
    """Raised for an agent name that is not in the registry."""


def agent_names() -> tuple[str, ...]:
    """Registered agent names, sorted."""
    return tuple(sorted(AGENTS))


def build_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """Import and construct the agent registered as `name` with `seed` and its keyword options."""
    path = AGENTS.get(name)
    if path is None:
        raise UnknownAgentError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    module_name, _, class_name = path.partition(":")
    factory = getattr(importlib.import_module(module_name), class_name)
    try:
        agent = factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for agent {name!r}: {exc}") from exc
    if not isinstance(agent, Agent):
        raise TypeError(f"{path} does not implement the Agent protocol (name, begin(info, budget), act(obs))")
    return agent
