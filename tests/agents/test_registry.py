"""The agent registry: lazy construction by name, clear errors."""

from __future__ import annotations

import pytest

from dreamteam.agents import AGENTS, UnknownAgentError, agent_names, build_agent
from dreamteam.agents.explorer import ExplorerAgent
from dreamteam.agents.random_agent import RandomAgent
from dreamteam.protocols import Agent


def test_builds_each_registered_agent_with_its_seed() -> None:
    assert set(AGENTS) >= {"random", "explorer"}
    random_agent = build_agent("random", seed=5)
    assert isinstance(random_agent, RandomAgent) and random_agent.seed == 5
    explorer = build_agent("explorer", seed=2, max_click_targets=4)
    assert isinstance(explorer, ExplorerAgent) and explorer.options.max_click_targets == 4
    for name in ("random", "explorer"):
        assert name in agent_names()
        assert isinstance(build_agent(name, 0), Agent)


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownAgentError, match="unknown agent 'nope'; known agents: ") as err:
        build_agent("nope", 0)
    assert all(name in str(err.value) for name in AGENTS)


def test_bad_option_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="bad options for agent 'random'"):
        build_agent("random", 0, colour="blue")
