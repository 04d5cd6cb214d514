"""The play loop: RESET after GAME_OVER, budget, refusing a game-restarting RESET, scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.env.catalog import Catalog
from dreamteam.env.session import Arena
from dreamteam.runner import play
from dreamteam.types import Action, GameInfo, Observation


class Scripted:
    """Plays a fixed list of actions, then ends the session."""

    name = "scripted"

    def __init__(self, actions: list[Action]) -> None:
        self.actions = list(actions)
        self.seen: list[Observation] = []

    def begin(self, info: GameInfo, budget: int) -> None:
        self.info = info

    def act(self, obs: Observation) -> Action | None:
        self.seen.append(obs)
        return self.actions.pop(0) if self.actions else None


def _run(fixture_games: Path, actions: list[Action], budget: int = 100) -> tuple[object, dict, Scripted]:
    arena = Arena(Catalog.scan([fixture_games]))
    card = arena.new_scorecard()
    agent = Scripted(actions)
    result = play(arena.open("tiny", card), agent, budget)
    return result, arena.scorecard(card)["environments"][0], agent


def test_game_over_gets_a_level_reset_and_scores_count_it(fixture_games: Path) -> None:
    result, env, _ = _run(fixture_games, [Action(1)] + [Action(4)] * 8)
    assert result.stop_reason == "win" and result.levels_completed == 2
    assert env["runs"][0]["level_actions"] == [5, 5]  # UP, harness RESET, 3 x RIGHT
    assert env["score"] == pytest.approx((100 * (3 / 5) ** 2 * 1 + 100 * 2) / 3)


def test_budget_stops_the_session(fixture_games: Path) -> None:
    result, env, _ = _run(fixture_games, [Action(4)] * 10, budget=4)
    assert result.actions == 4 and result.stop_reason == "budget" and result.levels_completed == 1


def test_game_restarting_reset_is_refused_then_session_ends(fixture_games: Path) -> None:
    result, env, agent = _run(fixture_games, [Action(0)] * 10)
    assert result.actions == 0
    assert "RESET" in result.stop_reason
    assert agent.seen[1].notes and "reset-refused" in agent.seen[1].notes[0]
