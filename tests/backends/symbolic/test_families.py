"""Rule and goal families: the registries, switching a family off, and rejecting unknown names."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from dreamteam.backends.symbolic import build, describe_families, family_switches
from dreamteam.backends.symbolic.common.evidence import MotionCache, decode_transitions
from dreamteam.backends.symbolic.common.families import (
    CORE,
    ENV_VAR,
    GOAL_FAMILIES,
    RULE_FAMILIES,
    FamilySwitches,
    UnknownFamilyError,
    family_names,
    parse_families_off,
)
from dreamteam.backends.symbolic.common.frames import DisplayCache
from dreamteam.backends.symbolic.planning.goals import Evidence, SubGoal, click_goals, derive
from dreamteam.backends.symbolic.planning.goals.families import goal_families
from dreamteam.backends.symbolic.worldmodel.families import rule_families
from dreamteam.backends.symbolic.worldmodel.learner import learn
from dreamteam.backends.symbolic.worldmodel.model import WorldRules
from dreamteam.cli import main
from dreamteam.cli.team_args import add_team_args, check_families_env, families_off, team_backends
from dreamteam.errors import UserError

from .worlds import (
    MazeWorld,
    PatrolWorld,
    TimerWorld,
    TintWorld,
    ToggleWorld,
    World,
    random_clicks,
    random_moves,
    record,
)

PREFIXES = {
    "level_up": ("level_up",),
    "all-on": ("repeat-level-up-all:", "repeat-level-up-each:"),
    "cover": ("cover:",),
    "repeat-level-up": ("repeat-level-up:", "repeat-level-up-after:"),
    "enter": ("enter:",),
    "touch": ("touch:",),
    "holding": ("holding:",),
    "together": ("together:",),
    "frontier": ("frontier",),
    "uniform": ("uniform:",),
}
"""The sub-goal names each goal family derives."""


def test_the_registries_list_every_family_in_order() -> None:
    assert list(RULE_FAMILIES) == ["movers", "patrols", "tints", "pushes", "scenes", "unders", "clicks",
                                   "restored", "ticks", "hud", "touches"]
    assert list(GOAL_FAMILIES) == list(PREFIXES)
    assert [f.name for f in rule_families()] == list(RULE_FAMILIES)
    assert [f.name for f in goal_families()] + [f.name for f in goal_families(stage="clicks")] == list(GOAL_FAMILIES)
    assert len(set(family_names())) == len(RULE_FAMILIES) + len(GOAL_FAMILIES)  # one namespace for both
    assert set(family_names()) > CORE
    described = describe_families()
    assert [name for _, name, _, _ in described] == list(family_names())
    assert all(description and games for _, _, description, games in described)


def test_all_switches_off_every_family_but_the_core_ones() -> None:
    assert parse_families_off("all").off == set(family_names()) - CORE
    assert parse_families_off("all,frontier").off == set(family_names()) - CORE | {"frontier"}
    assert parse_families_off(" cover , together,").off == {"cover", "together"}
    assert parse_families_off("").off == frozenset()


def test_unknown_family_names_are_rejected_with_the_known_ones() -> None:
    with pytest.raises(UnknownFamilyError, match=r"unknown rule or goal family 'covers'; families are: movers, .*"
                                                 r"together.* \(or all: every family but "):
        parse_families_off("cover,covers")
    with pytest.raises(UserError, match="'bogus'"):
        families_off("bogus")
    with pytest.raises(UserError, match=f"^{ENV_VAR}: unknown rule or goal families 'x', 'y'"):
        check_families_env({ENV_VAR: "x,cover,y"})
    check_families_env({ENV_VAR: "cover,all"})


def test_the_command_line_reports_an_unknown_family_in_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(ENV_VAR, "nonsense")
    assert main(["games"]) != 0
    err = capsys.readouterr().err
    assert err.startswith(f"error: {ENV_VAR}: unknown rule or goal family 'nonsense'") and "Traceback" not in err


def test_the_builder_reads_the_environment_and_the_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "cover")
    context = SimpleNamespace(config=SimpleNamespace(families_off=("ticks",)))
    assert family_switches(context).off == {"cover", "ticks"}
    for role in ("simulator", "inductive"):
        assert build(role, context).answerer.families.off == {"cover", "ticks"}
    given = FamilySwitches(frozenset({"enter"}))
    assert build("inductive", context, families=given).answerer.families is given
    monkeypatch.setenv(ENV_VAR, "nope")
    with pytest.raises(UnknownFamilyError):
        build("simulator")


def _names(goals: list[SubGoal]) -> list[tuple[str, int]]:
    return [(g.name, g.priority) for g in goals]


def _family_of(name: str) -> str:
    return next(f for f, prefixes in PREFIXES.items() if any(name.startswith(p) for p in prefixes))


def _scenarios() -> list[tuple[Evidence, np.ndarray, np.ndarray | None, tuple[tuple[int, int, int], ...]]]:
    """Small worlds in which between them every goal family but `uniform` derives something."""
    floor = np.zeros((3, 6), dtype=np.int8)
    floor[1, 2], floor[1, 5] = 8, 8
    start = floor.copy()
    start[1, 0], start[1, 3] = 9, 12
    apart = frozenset({frozenset({(0, 1), (3, 1)}), frozenset({(2, 1), (4, 1)})})
    together = Evidence(frozenset({9, 12}), (), apart, pairs=frozenset({(9, 8), (12, 8)}))
    all_on = Evidence(frozenset({9, 12}), (), frozenset(), pairs=frozenset({(9, 8)}),
                      level_up_pairs=frozenset({(9, 8)}))
    # a key (colour 4, entered) and a door (colour 13, it stopped the player) before any level-up
    keys = np.zeros((5, 7), dtype=np.int8)
    keys[1, 1], keys[3, 5], keys[1, 5] = 9, 4, 13
    held = Evidence(frozenset({9}), (("ACTION4", 9, 1, 0),), frozenset(), pairs=frozenset({(9, 4)}),
                    stoppers=frozenset({13}))
    # two blocks (12) that show colour 7 on targets (6), pushed by the player (9)
    blocks = np.zeros((5, 7), dtype=np.int8)
    blocks[2, 1], blocks[2, 3], blocks[4, 3], blocks[1, 5], blocks[3, 5] = 9, 12, 12, 6, 6
    cover = Evidence(frozenset({9, 12}), (), frozenset(), pushed=frozenset({12}))
    return [(together, start, floor, ()), (all_on, start, floor, ()), (held, keys, None, ()),
            (cover, blocks, blocks, ((12, 6, 7),))]


@pytest.mark.parametrize("family", [f for f in GOAL_FAMILIES if f != "uniform"])
def test_switching_a_goal_family_off_removes_exactly_its_goals(family: str) -> None:
    seen = 0
    for evidence, start, floor, tints in _scenarios():
        everything = _names(derive(evidence, start, floor, tints))
        without = _names(derive(evidence, start, floor, tints, FamilySwitches(frozenset({family}))))
        assert without == [(n, p) for n, p in everything if _family_of(n) != family]
        seen += len(everything) - len(without)
    assert seen, f"no scenario derives a goal of {family}"


def test_switching_uniform_off_removes_the_click_goals() -> None:
    start = np.array([[1, 2, 1], [0, 0, 0]], dtype=np.int8)
    clicks = [((x, 0), np.pad(np.eye(1, 3, x, dtype=bool), ((0, 1), (0, 0)))) for x in range(3)]
    assert [g.name for g in click_goals(start, clicks)] == ["uniform:colour1", "uniform:colour2"]
    assert click_goals(start, clicks, parse_families_off("uniform")) == []
    assert click_goals(start, clicks, parse_families_off("all,level_up")) == []


def _learned(world: World, policy: Callable[[World, int], dict[str, object]], steps: int,
             off: str = "") -> WorldRules:
    raw = record(world, policy, steps)
    transitions = decode_transitions(raw, [[world.scale, *world.offset()]], DisplayCache())
    return learn(transitions, MotionCache(), [], parse_families_off(off))


@pytest.mark.parametrize(("family", "world", "field"), [
    ("patrols", lambda: (PatrolWorld(seed=5), random_moves(6), 60), "patrols"),
    ("tints", lambda: (TintWorld(seed=9), random_moves(9), 300), "tints"),
    ("ticks", lambda: (TimerWorld(), random_moves(3, ("ACTION1", "ACTION2", "ACTION5")), 11), "ticks"),
    ("clicks", lambda: (ToggleWorld(seed=1), random_clicks(1), 40), "click"),
    ("touches", lambda: (MazeWorld(seed=1, size=6), random_moves(1), 150), "goals"),
])
def test_switching_a_rule_family_off_removes_its_rules(family: str, world: Callable[[], tuple[World, Callable[
        [World, int], dict[str, object]], int]], field: str) -> None:
    on = _learned(*world())
    off = _learned(*world(), off=family)
    assert getattr(on, field), f"{family} learns nothing here: the test says nothing"
    assert not getattr(off, field)
    if family in ("ticks", "touches"):  # the last families: nothing else reads them
        keep = ("moves", "patrols", "tints", "scenes", "restored", "ticks", "goals", "fatal")
        assert all(getattr(on, k) == getattr(off, k) for k in keep if k not in (field, "fatal"))


def test_all_families_off_leaves_the_core_rules() -> None:
    world, policy, steps = TintWorld(seed=9), random_moves(9), 120
    rules = _learned(world, policy, steps, off="all")
    assert rules.moves and rules.scenes
    assert not (rules.tints or rules.patrols or rules.ticks or rules.restored or rules.goals)


def test_the_play_flag_reaches_the_backend_config() -> None:
    parser = argparse.ArgumentParser()
    add_team_args(parser)
    assert team_backends(parser.parse_args([])).families_off == ()
    assert team_backends(parser.parse_args(["--families-off", "together,cover"])).families_off == ("cover", "together")
    with pytest.raises(UserError, match="unknown rule or goal family 'covr'"):
        team_backends(parser.parse_args(["--families-off", "covr"]))


def _strip_bar_maze() -> World:
    from .test_simulator import _StripBarMaze

    return _StripBarMaze(seed=3, size=7, bar=False, scale=8)


@pytest.mark.parametrize("make", [lambda: TintWorld(seed=9), lambda: PatrolWorld(seed=3), lambda: TimerWorld(),
                                  lambda: MazeWorld(seed=4), _strip_bar_maze],
                         ids=["tints", "patrols", "counter", "maze-bar", "hud-counter"])
def test_rules_learned_with_remembered_per_transition_evidence_equal_those_learned_afresh(
        make: Callable[[], Any]) -> None:
    """The Simulator keeps one MotionCache across steps, and the families remember their per-transition
    evidence in it (pushes, patrol steps, blocking, the counters' unexplained changes and which orders fit
    them): learning again over a longer window must give exactly the rules a fresh cache gives."""
    world = make()
    raw = record(world, random_moves(9), 240)
    displays, shared = DisplayCache(), MotionCache()
    for end in (60, 120, 180, 240):
        transitions = decode_transitions(raw[:end], [], displays)
        again = learn(transitions, shared, [])
        afresh = learn(transitions, MotionCache(), [])
        assert again == afresh
    assert afresh.patrols or afresh.tints or afresh.ticks or afresh.hud_ticks, \
        "the world shows a family whose evidence is remembered"


def test_evidence_gathered_with_remembered_per_transition_steps_equals_evidence_gathered_afresh() -> None:
    """The explorers keep one MotionCache across steps and `gather` remembers what each move ran into and where
    the movers stood: over sliding windows it must find what a fresh cache finds."""
    from dreamteam.backends.symbolic.planning.goals import gather

    world = TintWorld(seed=9)
    raw = record(world, random_moves(9), 200)
    displays, shared = DisplayCache(), MotionCache()
    for end in (50, 100, 150, 200):
        transitions = decode_transitions(raw[max(0, end - 60):end], [], displays)
        again = gather(transitions, shared)
        assert again == gather(transitions, MotionCache())
        assert again.movers and again.pairs
