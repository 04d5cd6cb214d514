"""The random baseline: seeded, never RESET, clicks on objects."""

from __future__ import annotations

import numpy as np

from dreamteam.agents.random_agent import RandomAgent
from dreamteam.perception import segment
from dreamteam.protocols import Agent
from dreamteam.types import CLICK, RESET, Action, GameInfo, Observation
from tests.agents.gridworlds import CORRIDOR_MAZE, LampPuzzle, MazeWorld, play

INFO = GameInfo("x-test", "x", (0,))


def observation(grid: np.ndarray, actions: tuple[int, ...], state: str = "NOT_FINISHED") -> Observation:
    return Observation(grid, (grid,), state, 0, 1, actions, 0)


def test_is_an_agent() -> None:
    assert isinstance(RandomAgent(0), Agent)


def test_same_seed_same_actions_and_begin_restarts_the_sequence() -> None:
    first = [s.action for s in play(MazeWorld([CORRIDOR_MAZE]), RandomAgent(3), 200)[0]]
    second = [s.action for s in play(MazeWorld([CORRIDOR_MAZE]), RandomAgent(3), 200)[0]]
    other = [s.action for s in play(MazeWorld([CORRIDOR_MAZE]), RandomAgent(4), 200)[0]]
    assert first == second
    assert first != other
    agent = RandomAgent(3)
    assert [s.action for s in play(MazeWorld([CORRIDOR_MAZE]), agent, 200)[0]] == first
    assert [s.action for s in play(MazeWorld([CORRIDOR_MAZE]), agent, 200)[0]] == first


def test_uses_every_available_action_and_never_reset() -> None:
    agent = RandomAgent(0)
    agent.begin(INFO, 100)
    obs = observation(np.zeros((64, 64), dtype=np.int8), (0, 1, 3, 5))
    chosen = {agent.act(obs) for _ in range(200)}
    assert chosen == {Action(1), Action(3), Action(5)}


def test_clicks_land_on_non_background_objects() -> None:
    obs = LampPuzzle().reset()
    seg = segment(obs.grid)
    agent = RandomAgent(1)
    agent.begin(INFO, 100)
    clicks = [agent.act(obs) for _ in range(100)]
    hit = set()
    for click in clicks:
        assert click is not None and click.id == CLICK and click.x is not None and click.y is not None
        comp = seg.component_at(click.y, click.x)
        assert comp.colour != seg.background
        hit.add(comp.label)
    assert len(hit) == len(seg.objects)


def test_clicks_anywhere_on_an_empty_frame() -> None:
    agent = RandomAgent(2)
    agent.begin(INFO, 100)
    obs = observation(np.zeros((64, 64), dtype=np.int8), (CLICK,))
    points = {(a.x, a.y) for a in (agent.act(obs) for _ in range(50)) if a is not None}
    assert len(points) > 40


def test_nothing_to_do_ends_the_session_and_game_over_asks_for_reset() -> None:
    agent = RandomAgent(0)
    agent.begin(INFO, 100)
    grid = np.zeros((64, 64), dtype=np.int8)
    assert agent.act(observation(grid, (RESET,))) is None
    assert agent.act(observation(grid, (1, 2), state="GAME_OVER")) == Action(RESET)
