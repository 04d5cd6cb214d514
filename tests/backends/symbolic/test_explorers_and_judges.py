"""Transductive probes, critic audits and the leader's accuracy gate."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.codec import encode_grid
from dreamteam.perception import label_runs

from .helpers import ask
from .worlds import CopyWorld, MazeWorld, random_moves, record


def probes(world: Any, transitions: list[dict[str, Any]], actions: list[int], tested: dict[str, int],
           regions: list[Any] | None = None) -> list[dict[str, Any]]:
    context = {"frame": encode_grid(world.frame()), "transitions": transitions, "available_actions": actions,
               "tested": tested, "wrong_regions": regions or [], "feedback": ""}
    return list(ask("transductive", context)["probes"])


def test_untested_actions_come_first() -> None:
    world = MazeWorld(seed=1)
    transitions = record(world, random_moves(1, ("ACTION1", "ACTION2")), 12)
    found = probes(world, transitions, [1, 2, 3, 4, 5], {"ACTION1": 6, "ACTION2": 6})
    assert [p["actions"][0]["action"] for p in found[:3]] == ["ACTION3", "ACTION4", "ACTION5"]
    assert all("ACTION3" not in p["target_hypothesis"] for p in found[3:])


def _classes(world: CopyWorld, clicks: list[dict[str, Any]]) -> list[tuple[int, bytes]]:
    """(colour, shape) of the object under each click, computed independently of the role."""
    labels, _ = label_runs(world.grid)
    ox, oy = world.offset()
    out = []
    for a in clicks:
        cx, cy = (a["x"] - ox) // world.scale, (a["y"] - oy) // world.scale
        mask = labels == labels[cy, cx]
        ys, xs = np.nonzero(mask)
        out.append((int(world.grid[cy, cx]), mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].tobytes()))
    return out


def test_one_click_per_unclicked_object_class() -> None:
    world = CopyWorld(seed=3, size=3)
    clicks = [p["actions"][0] for p in probes(world, [], [6], {})]
    assert clicks and all(a["action"] == "ACTION6" for a in clicks)
    classes = _classes(world, clicks)
    assert len(set(classes)) == len(classes)
    ox, oy = world.offset()
    canvas_x = range(world.size + 2, 2 * world.size + 2)
    inert = next(i for i, a in enumerate(clicks) if (a["x"] - ox) // world.scale not in canvas_x)
    clicked = world.step(clicks[inert], 0)
    assert clicked["before"] == clicked["after"]
    again = _classes(world, [p["actions"][0] for p in probes(world, [clicked], [6], {})])
    assert classes[inert] not in again and len(again) == len(classes) - 1


def test_action_that_killed_from_this_frame_is_not_probed() -> None:
    world = MazeWorld(seed=1)
    frame = encode_grid(world.frame())
    death = {"step": 0, "level": 0, "action": {"action": "ACTION3"}, "before": frame, "after": frame,
             "history": {}, "level_up": False, "game_over": True}
    found = probes(world, [death], [1, 2, 3, 4], {})
    assert all(p["actions"][0]["action"] != "ACTION3" for p in found)


def test_wrong_region_gets_a_click() -> None:
    world = CopyWorld(seed=3, size=3)
    found = probes(world, [], [6], {}, regions=[[10, 12, 20, 22]])
    assert {"action": "ACTION6", "x": 15, "y": 17} in [p["actions"][0] for p in found]


def audit(**context: Any) -> dict[str, Any]:
    base = {"recent_actions": [], "recent_hashes": [], "deaths": 0, "level_steps": 10, "prediction_accuracy": 1.0,
            "proposals": {"tactics": [], "probes": []}}
    return ask("critic", {**base, **context})


def test_critic_flags_a_grinding_loop_and_routes_it() -> None:
    hashes = ["s"] + ["a", "b", "c"] * 5
    actions = [{"action": "ACTION1"}, {"action": "ACTION2"}, {"action": "ACTION3"}] * 5
    reply = audit(recent_actions=actions, recent_hashes=hashes, level_steps=15)
    assert any("grinding loop" in f and "period 3" in f for f in reply["flags"])
    assert "inductive" in reply["feedback"] and "leader" in reply["feedback"]


def test_critic_sees_no_loop_while_the_trajectory_progresses() -> None:
    hashes = [f"h{i}" for i in range(30)]
    actions = [{"action": "ACTION1"}] * 29
    reply = audit(recent_actions=actions, recent_hashes=hashes, level_steps=30)
    assert not any("loop" in f for f in reply["flags"])


def test_critic_routes_deaths_accuracy_resets_and_dead_actions() -> None:
    actions = [{"action": "RESET"}, {"action": "ACTION4"}] * 5
    hashes = ["x"] * 11
    reply = audit(recent_actions=actions, recent_hashes=hashes, deaths=3, prediction_accuracy=0.2, level_steps=2)
    flags = " | ".join(reply["flags"])
    assert "repeated deaths" in flags and "broken hypothesis" in flags and "reset spam" in flags
    assert "no-effect actions: ACTION4" in flags
    assert "simulator" in reply["feedback"] and "transductive" in reply["feedback"]


TACTIC = {"name": "level_up", "sub_goal": "level_up", "actions": [{"action": "ACTION2"}, {"action": "ACTION2"}],
          "expected": "level completed"}
PROBE = {"actions": [{"action": "ACTION5"}], "expected_effect": "first look", "target_hypothesis": "ACTION5 has an effect"}


def decide(**context: Any) -> dict[str, Any]:
    base = {"tactics": [TACTIC], "probes": [PROBE], "critique": {"flags": [], "feedback": {}},
            "prediction_accuracy": 0.95, "budget_left": 100, "fatal_actions": []}
    return ask("leader", {**base, **context})


def test_leader_follows_tactics_when_predictions_are_reliable() -> None:
    reply = decide()
    assert reply["goal"] == "GOAL" and reply["source"] == "level_up" and reply["plan"] == TACTIC["actions"]


def test_leader_probes_when_accuracy_is_low() -> None:
    reply = decide(prediction_accuracy=0.3)
    assert reply["source"] == "probe" and reply["plan"] == PROBE["actions"] and reply["goal"] == "DISCOVER"
    # between the two gates, probes still come before the map
    assert decide(prediction_accuracy=0.7, tactics=[], exploration={**WALK, "steps_since_new_state": 0})["source"] \
        == "probe"


def test_leader_explores_the_map_systematically_while_the_model_does_not_fit() -> None:
    fresh = {**WALK, "steps_since_new_state": 0}
    reply = decide(prediction_accuracy=0.3, exploration=fresh)
    assert reply["source"] == "map-frontier" and reply["plan"] == WALK["actions"] and reply["goal"] == "DISCOVER"
    # a fatal first step, or a flagged loop, leaves it to the probes
    assert decide(prediction_accuracy=0.3, exploration=fresh, fatal_actions=["ACTION1"])["source"] == "probe"
    looping = {"flags": ["grinding loop: ..."], "feedback": {}}
    assert decide(prediction_accuracy=0.3, exploration=fresh, critique=looping)["source"] == "probe"
    # a level-completing tactic above goal_trust still wins
    assert decide(prediction_accuracy=0.65, exploration=fresh)["source"] == "level_up"


def test_leader_avoids_fatal_actions_and_resets() -> None:
    reset_tactic = {**TACTIC, "name": "retry", "actions": [{"action": "RESET"}]}
    reply = decide(tactics=[reset_tactic, TACTIC], fatal_actions=["ACTION2"])
    assert reply["source"] == "probe"
    assert decide(tactics=[], probes=[], fatal_actions=[])["plan"] == []


def test_leader_leaves_the_top_tactic_under_a_loop() -> None:
    other = {**TACTIC, "name": "frontier", "actions": [{"action": "ACTION1"}]}
    reply = decide(tactics=[TACTIC, other], critique={"flags": ["grinding loop: ..."], "feedback": {}})
    assert reply["source"] == "frontier"


WALK = {"actions": [{"action": "ACTION1"}, {"action": "ACTION3"}, {"action": "ACTION4"}],
        "steps_since_new_state": 20, "states": 9}


def test_leader_walks_to_the_frontier_when_no_new_state_shows_up() -> None:
    reply = decide(exploration=WALK)
    assert reply["source"] == "map-frontier" and reply["goal"] == "DISCOVER" and reply["plan"] == WALK["actions"]
    assert "20 steps" in reply["reason"]


def test_leader_keeps_its_tactic_while_new_states_keep_coming() -> None:
    assert decide(exploration={**WALK, "steps_since_new_state": 3})["source"] == "level_up"
    assert decide(exploration={**WALK, "actions": []})["source"] == "level_up"


def test_leader_gives_the_map_its_share_of_a_level_that_runs_long() -> None:
    """New states keep coming (no grinding), but past the patience the walks are owed half the steps, and more
    as the level runs on (0.1 more every 50 steps, up to 0.8)."""
    fresh = {**WALK, "steps_since_new_state": 1}
    assert decide(exploration={**fresh, "level_steps": 100, "floor_steps": 0})["source"] == "level_up"
    owed = decide(exploration={**fresh, "level_steps": 110, "floor_steps": 5})  # 0.52 of 10 steps
    assert owed["source"] == "map-frontier" and owed["plan"] == WALK["actions"]
    assert "110 steps on this level, 5 of them exploring (the floor's share beyond 100 is 52%)" in owed["reason"]
    assert decide(exploration={**fresh, "level_steps": 110, "floor_steps": 6})["source"] == "level_up"
    assert decide(exploration={**fresh, "level_steps": 160, "floor_steps": 37})["source"] == "map-frontier"  # 0.62
    assert decide(exploration={**fresh, "level_steps": 160, "floor_steps": 38})["source"] == "level_up"
    assert decide(exploration={**fresh, "level_steps": 600, "floor_steps": 399})["source"] == "map-frontier"  # 0.8
    assert decide(exploration={**fresh, "level_steps": 600, "floor_steps": 400})["source"] == "level_up"
    # nothing untested reachable: the level's start has some, so a reset is the floor's step
    empty = {**fresh, "actions": [], "level_steps": 400, "floor_steps": 0}
    assert decide(exploration={**empty, "reset_helps": True})["plan"] == [{"action": "RESET"}]
    assert decide(exploration=empty)["source"] == "level_up"
    assert decide(exploration={**fresh, "level_steps": 400, "floor_steps": 0},
                  fatal_actions=["ACTION1"])["source"] != "map-frontier"


def test_leader_owes_the_map_more_once_its_walks_completed_most_levels() -> None:
    """The game's record: when the walks completed more of its levels than the other plans, they are owed their
    part of those levels (at least half, at most 0.8) from the level's first step, without patience."""
    fresh = {**WALK, "steps_since_new_state": 1}
    early = {**fresh, "level_steps": 10, "floor_steps": 5}
    assert decide(exploration={**early, "levels_by_floor": 1, "levels_by_team": 1})["source"] == "level_up"
    assert decide(exploration={**early, "levels_by_floor": 0, "levels_by_team": 3})["source"] == "level_up"
    owed = decide(exploration={**early, "levels_by_floor": 2, "levels_by_team": 1})
    assert owed["source"] == "map-frontier" and "share beyond 0 is 67%" in owed["reason"]
    # capped at 0.8: with 8 of 10 steps walked the tactic runs even after a record of floor levels only
    assert decide(exploration={**fresh, "level_steps": 10, "floor_steps": 7, "levels_by_floor": 3,
                               "levels_by_team": 0})["source"] == "map-frontier"
    assert decide(exploration={**fresh, "level_steps": 10, "floor_steps": 8, "levels_by_floor": 3,
                               "levels_by_team": 0})["source"] == "level_up"
    # three of five levels: the walks are owed 60% of the steps
    record = {**fresh, "level_steps": 10, "levels_by_floor": 3, "levels_by_team": 2}
    assert decide(exploration={**record, "floor_steps": 5})["source"] == "map-frontier"
    assert decide(exploration={**record, "floor_steps": 6})["source"] == "level_up"


def test_leader_does_not_start_a_walk_with_a_fatal_action() -> None:
    reply = decide(exploration=WALK, fatal_actions=["ACTION1"])
    assert reply["source"] != "map-frontier"
    # a later step of the walk is a known edge: it does not veto the walk
    assert decide(exploration=WALK, fatal_actions=["ACTION4"])["source"] == "map-frontier"


def test_transductive_turns_the_frontier_into_a_discovering_probe() -> None:
    world = MazeWorld(seed=1)
    transitions = record(world, random_moves(1, ("ACTION1", "ACTION2", "ACTION3", "ACTION4")), 12)
    tested = {f"ACTION{i}": 3 for i in range(1, 6)}
    context = {"frame": encode_grid(world.frame()), "transitions": transitions, "available_actions": [1, 2, 3, 4, 5],
               "tested": tested, "wrong_regions": [], "feedback": "", "frontier": WALK}
    found = list(ask("transductive", context)["probes"])
    walks = [p for p in found if p["target_hypothesis"].endswith("an untested action of a known state has an effect")]
    assert len(walks) == 1 and walks[0]["actions"] == WALK["actions"]
    assert "walk 2 known steps" in walks[0]["expected_effect"]
    malformed = {**context, "frontier": {"actions": "ACTION1"}}
    assert not [p for p in ask("transductive", malformed)["probes"] if "known state" in p["target_hypothesis"]]


def test_leader_resets_the_level_only_when_the_map_says_it_is_the_way_to_anything_new() -> None:
    stuck = {"actions": [], "steps_since_new_state": 30, "reset_helps": True}
    reply = decide(exploration=stuck)
    assert reply["source"] == "map-frontier" and reply["plan"] == [{"action": "RESET"}]
    assert decide(exploration={**stuck, "reset_helps": False})["source"] == "level_up"
    assert decide(exploration={**stuck, "steps_since_new_state": 2})["source"] == "level_up"


def test_leader_takes_a_tactic_that_begins_with_a_level_reset_but_no_other_reset() -> None:
    restart = {**TACTIC, "name": "repeat-level-up-each:colour8",
               "actions": [{"action": "RESET"}, {"action": "ACTION1"}, {"action": "ACTION2"}]}
    reply = decide(tactics=[restart])
    assert reply["source"] == restart["name"] and reply["plan"] == restart["actions"]
    late = {**restart, "actions": [{"action": "ACTION1"}, {"action": "RESET"}, {"action": "ACTION2"}]}
    assert decide(tactics=[late])["source"] == "probe"
    reset_probe = {**PROBE, "actions": [{"action": "RESET"}, {"action": "ACTION1"}]}
    assert decide(tactics=[], probes=[reset_probe])["plan"] == []


def test_only_the_first_action_of_a_plan_is_judged_by_what_is_fatal_from_here() -> None:
    """Out of a pocket in a lava field the way often needs, later, the very move that is fatal now."""
    later = {**TACTIC, "actions": [{"action": "ACTION1"}, {"action": "ACTION2"}]}
    assert decide(tactics=[later], fatal_actions=["ACTION2"])["source"] == "level_up"
    assert decide(tactics=[later], fatal_actions=["ACTION1"])["source"] == "probe"
    reset_then = {**TACTIC, "actions": [{"action": "RESET"}, {"action": "ACTION2"}]}
    assert decide(tactics=[reset_then], fatal_actions=["ACTION2"])["source"] == "level_up", \
        "after a reset the frame is another one"
    assert decide(tactics=[{**TACTIC, "actions": [{"action": "ACTION1"}, {"action": "RESET"}]}],
                  probes=[])["plan"] == []


def test_a_sub_goal_that_completes_nothing_gets_two_level_resets_per_level() -> None:
    # a spark entered on the way to the door, entered again and again from the level start: after two
    # reset-first top tactics on one level, that sub-goal's reset-first plans are dropped (its plain plans,
    # and level-completing ones, stay); a new level starts the count afresh
    from dreamteam.backends.symbolic.planning.goals import SubGoal
    from dreamteam.backends.symbolic.planning.inductive import RESETS_PER_GOAL, InductiveAnswerer

    goals = [SubGoal("repeat-level-up:colour8", "", 2, lambda grid, events: False),
             SubGoal("level_up", "", 0, lambda grid, events: False)]

    def plan(name: str, *actions: str) -> dict[str, Any]:
        return {"name": name, "actions": [{"action": a} for a in actions]}

    answerer = InductiveAnswerer()
    again = [plan("repeat-level-up:colour8", "RESET", "ACTION4", "ACTION3"), plan("frontier", "ACTION1")]
    for _ in range(RESETS_PER_GOAL):
        assert answerer._ration_resets(list(again), goals, 40)[0]["name"] == "repeat-level-up:colour8"
    assert [t["name"] for t in answerer._ration_resets(list(again), goals, 40)] == ["frontier"]
    walk = [plan("repeat-level-up:colour8", "ACTION4"), plan("level_up", "RESET", "ACTION1")]
    assert answerer._ration_resets(list(walk), goals, 40) == walk
    assert answerer._ration_resets(list(walk[1:]) * 3, goals, 40) == walk[1:] * 3  # completing: never rationed
    assert answerer._ration_resets(list(again), goals, 77)[0]["name"] == "repeat-level-up:colour8"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_run_cells_list_every_run_in_reading_order(seed: int) -> None:
    from dreamteam.perception import run_cells

    rng = np.random.default_rng(seed)
    grid = rng.integers(0, 4, size=(int(rng.integers(1, 20)), int(rng.integers(1, 20)))).astype(np.int8)
    labels, count = label_runs(grid)
    fast = [(label, ys.tolist(), xs.tolist()) for label, ys, xs in run_cells(labels, count)]
    slow = [(label, *(v.tolist() for v in np.nonzero(labels == label))) for label in range(count)]
    assert fast == [item for item in slow if item[1]]


def test_with_nothing_else_usable_the_leader_walks_the_map_even_under_a_loop() -> None:
    """A flagged loop leaves the walk to the probes; with no probe and no tactic, the walk is still taken
    rather than nothing (the harness would send random simple actions)."""
    fresh = {**WALK, "steps_since_new_state": 0}
    looping = {"flags": ["grinding loop: ..."], "feedback": {}}
    reply = decide(prediction_accuracy=0.3, exploration=fresh, critique=looping, tactics=[], probes=[])
    assert reply["source"] == "map-frontier" and reply["plan"] == WALK["actions"]
    assert decide(prediction_accuracy=0.3, exploration=fresh, critique=looping, tactics=[], probes=[],
                  fatal_actions=["ACTION1"])["plan"] == []


def test_while_the_model_does_not_fit_the_leader_resets_as_soon_as_nothing_untested_is_reachable() -> None:
    stuck = {"actions": [], "steps_since_new_state": 2, "reset_helps": True}
    reply = decide(prediction_accuracy=0.3, exploration=stuck, tactics=[], probes=[])
    assert reply["source"] == "map-frontier" and reply["plan"] == [{"action": "RESET"}]
    # a model that fits keeps its tactics until the map has seen nothing new for a while
    assert decide(prediction_accuracy=0.9, exploration=stuck)["source"] == "level_up"
    assert decide(prediction_accuracy=0.3, exploration={**stuck, "reset_helps": False},
                  tactics=[], probes=[])["plan"] == []
