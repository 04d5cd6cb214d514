"""The symbolic simulator: synthesised dynamics.py compiles restricted and predicts held-out transitions."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from RestrictedPython import compile_restricted

from dreamteam.backends.symbolic import build
from dreamteam.backends.symbolic.common.artifact_dyn import lib_patrol_targets
from dreamteam.backends.symbolic.common.artifact_lib import lib_display, lib_parse
from dreamteam.backends.symbolic.common.artifacts import ArtifactCache
from dreamteam.backends.symbolic.common.evidence import decode_transitions
from dreamteam.backends.symbolic.common.families import FamilySwitches
from dreamteam.backends.symbolic.common.frames import DisplayCache
from dreamteam.backends.symbolic.planning.rollout import rollout_for
from dreamteam.backends.symbolic.worldmodel.learner import learn_touches
from dreamteam.backends.symbolic.worldmodel.model import MoveRule, PatrolRule, WorldRules
from dreamteam.backends.symbolic.worldmodel.patrols import _paired
from dreamteam.backends.symbolic.worldmodel.verify import correct, predictor_for
from dreamteam.codec import decode_grid, encode_grid

from .helpers import SEED_OBSERVABLE, ask, load, sandboxed
from .worlds import (
    CopyWorld,
    CoverWorld,
    DoorWorld,
    MazeWorld,
    PatrolWorld,
    PushWorld,
    TileWorld,
    TimerWorld,
    ToggleWorld,
    display,
    random_clicks,
    random_moves,
    record,
)

SEED_DYNAMICS = '''HYPOTHESES = []


def predict(z, h, a):
    """Nothing changes."""
    return z


def history(z, h, a):
    """History carried unchanged."""
    return h
'''


def learn(transitions: list[dict[str, Any]], surface: str = "") -> dict[str, Any]:
    """Ask the simulator for a patch over `transitions`."""
    return ask("simulator", {"transitions": transitions, "counterexamples": [], "feedback": ""}, surface=surface)


def held_out_hits(source: str, transitions: list[dict[str, Any]]) -> list[bool]:
    """Exec the source in plain Python and check render(predict(parse(before))) == after per transition."""
    namespace = load(source)
    decoded = decode_transitions(transitions, namespace["dyn_SCALE_HINTS"], DisplayCache())
    return correct(predictor_for(source, ArtifactCache()), decoded)


def predict_with_parse(namespace: dict[str, Any], parse: Any, render: Any, t: dict[str, Any]) -> bool:
    """The harness's check, through predict/history and a given observable."""
    z = parse(decode_grid(t["before"]).tolist())
    h = namespace["history"](z, t["history"], t["action"])
    return render(namespace["predict"](z, h, t["action"])) == decode_grid(t["after"]).tolist()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_maze_rules_are_learned_with_shuffled_action_meanings(seed: int) -> None:
    world = MazeWorld(seed=seed)
    transitions = [t for t in record(world, random_moves(seed + 10), 160) if not t["level_up"]]
    train, test = transitions[:100], transitions[100:]
    source = learn(train)["patch"]
    assert source is not None
    compile_restricted(source, "<dynamics>", "exec")
    assert all(held_out_hits(source, test))
    hypotheses = {h["name"]: h for h in load(source)["HYPOTHESES"]}
    for action, (dx, dy) in world.meanings.items():
        rule = hypotheses[f"move:{action}:colour{world.player}"]
        assert f"by ({dx}, {dy})" in rule["description"] and rule["evidence"] >= 1
    assert any(name.startswith("block:") and name.endswith(f"by{world.wall}") for name in hypotheses)
    counter = hypotheses[f"counter:colour{world.bar_colour}->colour{world.floor}"]
    assert "moved: 0 errors" in counter["description"] and counter["evidence"] >= 2


def pushes(world: PushWorld, transitions: list[dict[str, Any]]) -> int:
    """How many transitions moved a box."""
    return sum((decode_grid(t["before"]) == world.box).tolist() != (decode_grid(t["after"]) == world.box).tolist()
               for t in transitions)


@pytest.mark.parametrize("seed", [7, 9])
def test_pushing_boxes(seed: int) -> None:
    world = PushWorld(seed=seed)
    transitions = record(world, random_moves(seed), 300)
    assert pushes(world, transitions[:240]) >= 2
    source = learn(transitions[:240])["patch"]
    assert source is not None
    assert all(held_out_hits(source, transitions[240:]))
    names = [h["name"] for h in load(source)["HYPOTHESES"]]
    assert f"push:colour{world.player}:colour{world.box}" in names


def uncovers(world: CoverWorld, transitions: list[dict[str, Any]]) -> int:
    """How many transitions showed a target square again."""
    return sum(int((decode_grid(t["after"]) == world.target).sum() > (decode_grid(t["before"]) == world.target).sum())
               for t in transitions)


@pytest.mark.parametrize("seed", [5, 10])
def test_covered_targets_reappear_and_coins_do_not(seed: int) -> None:
    world = CoverWorld(seed=seed)
    transitions = record(world, random_moves(seed), 300)
    assert uncovers(world, transitions[:220]) >= 3 and uncovers(world, transitions[220:]) >= 1
    source = learn(transitions[:220])["patch"]
    assert source is not None
    compile_restricted(source, "<dynamics>", "exec")
    assert all(held_out_hits(source, transitions[220:]))
    hypotheses = {h["name"]: h for h in load(source)["HYPOTHESES"]}
    restored = hypotheses[f"layer:colour{world.target}:restored"]
    assert restored["status"] == "adopted" and restored["evidence"] > restored["against"]
    coin = hypotheses.get(f"layer:colour{world.coin}:restored")
    assert coin is None or coin["status"] != "adopted"
    assert "dyn_restore_covered(" in source
    assert "dyn_restore_covered" in sandboxed(source, "simulator")


def test_sliding_until_blocked() -> None:
    world = PushWorld(seed=6, slide=True)
    transitions = record(world, random_moves(6), 200)
    source = learn(transitions[:150])["patch"]
    assert source is not None
    assert all(held_out_hits(source, transitions[150:]))
    names = [h["name"] for h in load(source)["HYPOTHESES"]]
    assert sum(name.startswith("slide:") for name in names) >= 3


def test_toggle_board_click_rule() -> None:
    world = ToggleWorld(seed=4)
    transitions = record(world, random_clicks(5), 90)
    source = learn(transitions[:60])["patch"]
    assert source is not None
    compile_restricted(source, "<dynamics>", "exec")
    assert all(held_out_hits(source, transitions[60:]))
    adopted = [h for h in load(source)["HYPOTHESES"] if h["name"] == "click:recolour-cell"][0]
    assert adopted["status"] == "adopted"
    assert all(f"({dx}, {dy})" in adopted["description"] for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)))


def test_a_row_pattern_is_learned_although_the_board_edge_clips_it() -> None:
    """A click changes its cell and the left and right neighbours; on a 3-wide board most clicks lose one
    side at the edge, so each side offset shows in fewer than half of all clicks."""
    world = ToggleWorld(seed=2, size=3, pattern=((-1, 0), (0, 0), (1, 0)))

    def mostly_left_column(w: Any, i: int) -> dict[str, Any]:
        # three clicks on the left column (no left neighbour on the board) for each one in the middle
        return w.click_at(1 if i % 4 else 2, 1 + i % 3)

    transitions = record(world, mostly_left_column, 60)
    source = learn(transitions[:40])["patch"]
    assert source is not None
    adopted = [h for h in load(source)["HYPOTHESES"] if h["name"] == "click:recolour-cell"][0]
    assert "(-1, 0), (0, 0), (1, 0)" in adopted["description"]
    assert all(held_out_hits(source, transitions[40:]))


def test_a_click_on_a_joined_tile_reaches_the_tiles_around_each_of_its_cells() -> None:
    """Spaced board (tiles two logical cells apart), two tiles joined across a gap, the clicked tile itself
    does not flip: neither cell nor first-cell offsets explain the clicks; the tile unit does, with exactly
    the four neighbour offsets in logical cells."""
    world = TileWorld(seed=3)
    transitions = record(world, random_clicks(4), 160)
    source = learn(transitions[:120])["patch"]
    assert source is not None
    adopted = [h for h in load(source)["HYPOTHESES"] if h["status"] == "adopted" and h["name"].startswith("click:")]
    assert [h["name"] for h in adopted] == ["click:recolour-tile"]
    assert "offsets (-2, 0), (0, -2), (0, 2), (2, 0) (" in adopted[0]["description"]
    assert all(held_out_hits(source, transitions[120:]))


def test_copy_canvas_clicks_only_work_on_the_canvas() -> None:
    world = CopyWorld(seed=1, size=4, scale=5)
    transitions = [t for t in record(world, random_clicks(2), 120) if not t["level_up"]]
    source = learn(transitions[:80])["patch"]
    assert source is not None
    assert all(held_out_hits(source, transitions[80:]))


def test_a_quiet_click_on_another_levels_board_does_not_shrink_this_canvas() -> None:
    # level A: a canvas-coloured mark below its canvas does nothing when clicked; on level B's layout the
    # same logical cell lies inside B's canvas, which must still be clickable everywhere
    first = CopyWorld(seed=3, size=3, scale=6)
    first.grid[4, 6] = first.cycle[0]
    level_a = [first.step(first.click_at(x, y), i) for i, (x, y) in enumerate([(5, 1), (6, 4), (7, 2), (6, 4)])]
    second = CopyWorld(seed=4, size=4, scale=5)
    clicks = [(6, 1), (1, 1), (7, 1), (6, 2), (2, 3), (7, 2)]
    level_b = [second.step(second.click_at(x, y), 10 + i) for i, (x, y) in enumerate(clicks)]
    assert not any(t["level_up"] for t in level_a + level_b)
    source = learn(level_a + level_b)["patch"]
    assert source is not None
    far_corner = [second.step(second.click_at(x, y), 20 + i) for i, (x, y) in enumerate([(9, 4), (8, 3)])]
    assert all(held_out_hits(source, far_corner))


def test_the_level_being_played_decides_the_click_pattern_when_levels_share_a_layout() -> None:
    # two levels drawn at the same size and scale: the first flips a plus around the clicked cell, the
    # second only the clicked row; after the level-up the second level's own clicks must decide
    first = ToggleWorld(seed=5, size=5)
    rng = random.Random(1)
    level_a = [first.step(first.click_at(rng.randrange(1, 6), rng.randrange(1, 6)), i) for i in range(14)]
    second = ToggleWorld(seed=6, size=5, pattern=((-1, 0), (0, 0), (1, 0)))
    level_up = dict(first.step(first.click_at(0, 0), 14), after=encode_grid(second.frame()), level_up=True)
    clicks = [(2, 2), (3, 3), (2, 4), (3, 1)]
    level_b = [second.step(second.click_at(x, y), 15 + i) for i, (x, y) in enumerate(clicks)]
    assert not any(t["level_up"] for t in level_a + level_b)
    source = learn([*level_a, level_up, *level_b])["patch"]
    assert source is not None
    held_out = [second.step(second.click_at(x, y), 20 + i) for i, (x, y) in enumerate([(3, 2), (2, 3), (4, 4)])]
    assert all(held_out_hits(source, held_out))


def test_a_quiet_click_on_the_previous_level_does_not_shrink_this_levels_canvas() -> None:
    # same layout on both levels; on the first, one canvas cell is locked (a click there does nothing),
    # on the level being played every canvas cell works: the locked cell says nothing about this level
    class Locked(CopyWorld):
        def apply(self, action: dict[str, Any]) -> bool:
            ox, oy = self.offset()
            if ((action["x"] - ox) // self.scale, (action["y"] - oy) // self.scale) == (5, 1):
                return False
            return super().apply(action)

    first = Locked(seed=3, size=3, scale=6)
    level_a = [first.step(first.click_at(x, y), i) for i, (x, y) in enumerate([(6, 1), (5, 1), (7, 2), (5, 1)])]
    second = CopyWorld(seed=4, size=3, scale=6)
    level_up = dict(first.step(first.click_at(6, 3), 4), after=encode_grid(second.frame()), level_up=True)
    clicks = [(6, 2), (7, 3), (6, 3)]
    level_b = [second.step(second.click_at(x, y), 5 + i) for i, (x, y) in enumerate(clicks)]
    assert not any(t["level_up"] for t in level_a + level_b)
    source = learn([*level_a, level_up, *level_b])["patch"]
    assert source is not None
    held_out = [second.step(second.click_at(x, y), 10 + i) for i, (x, y) in enumerate([(5, 1), (7, 1)])]
    assert all(held_out_hits(source, held_out))


def test_timer_bar_shrinks_every_step_whatever_the_action() -> None:
    world = TimerWorld()
    transitions = record(world, random_moves(3, ("ACTION1", "ACTION2", "ACTION5")), 11)
    source = learn(transitions[:7])["patch"]
    assert source is not None
    assert all(held_out_hits(source, transitions[7:]))
    counter = [h for h in load(source)["HYPOTHESES"] if h["name"].startswith("counter:")][0]
    assert "after every action" in counter["description"] and "row-first" in counter["description"]


def test_unchanged_rules_give_no_patch_and_no_gain_is_not_proposed() -> None:
    transitions = record(MazeWorld(seed=5), random_moves(6), 60)
    source = learn(transitions)["patch"]
    again = learn(transitions, surface=source)
    assert again["patch"] is None and "unchanged" in again["notes"]
    assert "entities:" in again["notes"]


def test_a_glitch_the_current_model_predicts_is_kept_as_an_exception() -> None:
    world = MazeWorld(seed=7, bar=False)
    transitions = record(world, random_moves(8), 60)
    moved = next(i for i, t in enumerate(transitions) if t["before"] != t["after"])
    glitch = dict(transitions[moved], after=transitions[moved]["before"], step=1000)
    reply = learn([*transitions, glitch], surface=SEED_DYNAMICS)
    source = reply["patch"]
    assert source is not None and "remembered exceptions" in reply["notes"]
    assert held_out_hits(source, [glitch]) == [True]


def test_predict_runs_in_the_sandbox_with_both_state_formats() -> None:
    world = MazeWorld(seed=9)
    transitions = [t for t in record(world, random_moves(9), 120) if not t["level_up"]]
    source = learn(transitions[:90])["patch"]
    namespace = sandboxed(source, "simulator")
    seed_observable = load(SEED_OBSERVABLE.read_text())
    for t in transitions[90:100]:
        assert predict_with_parse(namespace, seed_observable["parse"], seed_observable["render"], t)
        assert predict_with_parse(namespace, lambda f: lib_parse(f, [], {}), lib_display, t)


def test_unknown_state_format_is_returned_unchanged() -> None:
    transitions = record(MazeWorld(seed=2), random_moves(2), 30)
    namespace = load(learn(transitions)["patch"])
    z = {"something": "else"}
    assert namespace["predict"](z, {}, {"action": "ACTION1"}) == z


def test_no_transitions_no_patch() -> None:
    reply = learn([])
    assert reply["patch"] is None


def test_a_sentry_walking_on_its_own_is_learned_as_a_patrol_that_knows_where_it_came_from() -> None:
    """The sentry moves whatever the action, and in the middle of its corridor both directions occur from
    the same cell: only the cell it came from (the history's last grid) tells the next one. It is learned
    from consecutive transitions recorded before any dynamics kept a history."""
    world = PatrolWorld(seed=5)
    transitions = record(world, random_moves(6), 90)
    source = learn([{**t, "history": {}} for t in transitions[:60]])["patch"]
    assert source is not None
    names = {h["name"]: h for h in load(source)["HYPOTHESES"]}
    assert f"patrol:colour{world.sentry}" in names
    assert not any(n.startswith("move:") and n.endswith(f":colour{world.sentry}") for n in names)
    assert all(held_out_hits(source, transitions[60:]))
    forgetful = [{**t, "history": {}} for t in transitions[60:]]
    assert not all(held_out_hits(source, forgetful)), "without the last grid the middle cells are ambiguous"


def test_a_rollout_carries_where_the_patrol_came_from_over_several_steps() -> None:
    world = PatrolWorld(seed=5)
    transitions = record(world, random_moves(6), 60)
    source = learn(transitions)["patch"]
    assert source is not None
    rollout = rollout_for(source, "", ArtifactCache())
    assert rollout is not None
    frame, last = world.frame(), world.last
    state = rollout.start(frame, {"last": encode_grid(last)})
    for action in ({"action": "ACTION1"}, {"action": "ACTION2"}, {"action": "ACTION1"}, {"action": "ACTION3"},
                   {"action": "ACTION4"}, {"action": "ACTION2"}):
        stepped = rollout.step(state, action)
        assert stepped is not None
        state = stepped[0]
        world.apply(action)
        assert np.array_equal(rollout.grid(state), world.grid)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_colour_entered_in_one_shape_and_stopping_in_another_blocks_by_shape(seed: int) -> None:
    world = DoorWorld(seed=seed)
    transitions = record(world, random_moves(seed + 40), 260)
    train, test = transitions[:200], transitions[200:]
    source = learn(train)["patch"]
    assert source is not None
    names = [h["name"] for h in load(source)["HYPOTHESES"]]
    assert any(f":by{world.door}:shape:" in name for name in names), names
    stops = [t for t in test if t["before"] == t["after"]]
    assert stops and all(held_out_hits(source, stops))


def test_remembered_exceptions_on_a_big_grid_keep_dynamics_under_the_sandbox_size_limit() -> None:
    # 80 transitions of a 60x60 logical grid, every one broken by the new rules: remembering all of them
    # would make a dynamics.py the sandbox refuses to compile (and the world model would stop learning)
    from dreamteam.backends.symbolic.worldmodel.learner import learn as learn_rules
    from dreamteam.backends.symbolic.worldmodel.simulator import SimulatorAnswerer
    from dreamteam.sandbox.policy import MAX_SOURCE_CHARS

    raw = record(MazeWorld(seed=7, size=60, bar=False, scale=1), random_moves(8), 80)
    transitions = decode_transitions(raw, [], DisplayCache())
    simulator = SimulatorAnswerer()
    rules = learn_rules(transitions, simulator.motions, [])
    remembered, source, _ = simulator._remember(rules, transitions, transitions, [False] * len(transitions))
    assert 10 <= len(remembered.memo) < len(transitions)
    assert len(source) < MAX_SOURCE_CHARS
    assert compile_restricted(source, "<dynamics>", "exec") is not None


def test_side_by_side_patrollers_are_told_apart_when_one_steps_where_the_other_was() -> None:
    """The upper patroller steps left, the lower one up into the cell it left: the lower one has only one
    way to go, which leaves the upper one its only other option."""
    assert _paired([(5, 5), (5, 6)], [(4, 5), (5, 5)]) == {(5, 6): (5, 5), (5, 5): (4, 5)}
    assert _paired([(5, 5)], [(4, 5), (6, 5)]) == {}, "two ways to go and nothing to decide between them"


def test_a_patroller_off_every_learned_step_keeps_going_and_turns_back_at_anything_but_floor() -> None:
    floor, wall, sentry, player = 0, 5, 7, 2
    grid = [[floor] * 6 for _ in range(3)]
    grid[1][3] = sentry
    came_from_left = [[2, 1, sentry]]
    assert lib_patrol_targets(grid, came_from_left, sentry, {}, {}, floor) == [[[3, 1], [4, 1]]]
    grid[1][4] = wall
    assert lib_patrol_targets(grid, came_from_left, sentry, {}, {}, floor) == [[[3, 1], [2, 1]]]
    grid[1][4] = player
    assert lib_patrol_targets(grid, came_from_left, sentry, {}, {}, floor, {player}) == [[[3, 1], [4, 1]]]
    learned = {"2,1>3,1": [3, 0]}
    assert lib_patrol_targets(grid, came_from_left, sentry, learned, {}, floor) == [[[3, 1], [3, 0]]]
    # two cells it may have come from: the one with a learned step decides
    both = [[2, 1, sentry], [3, 2, sentry]]
    assert lib_patrol_targets(grid, both, sentry, learned, {}, floor) == [[[3, 1], [3, 0]]]
    assert lib_patrol_targets(grid, both, sentry, {}, {}, floor) == [], "nothing learned, nothing to go on"


def test_a_reset_after_a_loss_is_no_evidence_that_touching_the_patroller_is_safe() -> None:
    """The RESET after a loss starts from the frame of the loss, where a patroller's next step lands on the
    player: that predicted touch happened in no game and must not make the patroller's colour safe."""
    wall, floor, player, sentry = 3, 5, 9, 12

    def frame(px: int, sx: int) -> str:
        grid = np.full((16, 16), wall, dtype=np.int8)
        grid[1, 1:15] = floor
        grid[1, px], grid[1, sx] = player, sentry
        return encode_grid(display(grid, 4, 0))

    def entry(step: int, action: str, before: str, after: str, game_over: bool = False) -> dict[str, Any]:
        return {"step": step, "level": 0, "action": {"action": action}, "before": before, "after": after,
                "frames": 1, "history": {}, "level_up": False, "game_over": game_over, "pinned": False,
                "pin_reason": ""}

    rules = WorldRules(hints=((4, 0, 0),), moves=(MoveRule("ACTION4", player, 1, 0, (wall,), vacated=floor),
                                                  MoveRule("ACTION3", player, -1, 0, (wall,), vacated=floor)),
                       patrols=(PatrolRule(sentry, (), (("2,1", (3, 1)), ("3,1", (2, 1))), floor),))
    raw = [entry(0, "ACTION3", frame(9, 3), frame(8, 2)),
           entry(1, "ACTION4", frame(2, 3), frame(3, 2), game_over=True),  # walked into the sentry
           entry(2, "RESET", frame(3, 2), frame(9, 3))]
    transitions = decode_transitions(raw, [[4, 0, 0]], DisplayCache())
    assert learn_touches(transitions, rules)[1] == (sentry,)
    assert learn_touches(transitions[:2], rules)[1] == (sentry,)


def _noise(steps: int, level_up_at: int = -1) -> list[dict[str, Any]]:
    """Transitions between unrelated random frames: no rule kind fits them."""
    rng = np.random.default_rng(7)
    frames = [display(rng.integers(0, 10, size=(8, 8)).astype(np.int8), 8, 0) for _ in range(steps + 1)]
    return [{"step": i, "action": {"action": "ACTION1"}, "before": encode_grid(frames[i]),
             "after": encode_grid(frames[i + 1]), "level_up": i == level_up_at, "game_over": False}
            for i in range(steps)]


def test_the_simulator_backs_off_while_its_rules_fit_under_half_the_window() -> None:
    model = build("simulator")
    noise = _noise(14, level_up_at=13)
    first = ask("simulator", {"transitions": noise[:8], "counterexamples": []}, model=model)
    assert "learning again" not in first["notes"]
    skipped = ask("simulator", {"transitions": noise[:9], "counterexamples": []}, model=model)
    assert skipped["patch"] is None and "learning again after 2 newer transitions" in skipped["notes"]
    again = ask("simulator", {"transitions": noise[:10], "counterexamples": []}, model=model)
    assert "learning again" not in again["notes"]  # two newer transitions: it learns, and waits 4 next
    assert "after 4" in ask("simulator", {"transitions": noise[:11], "counterexamples": []}, model=model)["notes"]
    # a level-up among the newer transitions makes it learn at once
    assert "learning again" not in ask("simulator", {"transitions": noise[:14], "counterexamples": []},
                                       model=model)["notes"]


def _still(steps: int, size: int) -> list[dict[str, Any]]:
    """Transitions where nothing changes, each on its own random size x size logical board shown one pixel a
    cell."""
    rng = np.random.default_rng(3)
    boards = [encode_grid(rng.integers(0, 10, size=(size, size)).astype(np.int8)) for _ in range(steps)]
    return [{"step": i, "action": {"action": "ACTION1"}, "before": board, "after": board, "level_up": False,
             "game_over": False} for i, board in enumerate(boards)]


@pytest.mark.parametrize(("size", "waits"), [(64, True), (8, False)])
def test_a_costly_learning_that_finds_nothing_new_makes_the_simulator_wait(size: int, waits: bool) -> None:
    """On a large board (60 transitions of 64x64 cells, over `COSTLY_WORK`) a learning whose rules equal the
    current ones doubles the wait before the next; on a small board the Simulator learns after every call."""
    model = build("simulator")
    still = _still(63, size)
    surface = ask("simulator", {"transitions": still[:60], "counterexamples": []}, model=model)["patch"]
    assert surface is not None
    unchanged = ask("simulator", {"transitions": still[:61], "counterexamples": []}, surface=surface, model=model)
    assert unchanged["patch"] is None and "rules unchanged" in unchanged["notes"]
    following = ask("simulator", {"transitions": still[:62], "counterexamples": []}, surface=surface, model=model)
    if waits:
        assert "the last costly learning found nothing new: learning again after 2" in following["notes"]
    else:
        assert "rules unchanged" in following["notes"]


class _MarginHudMaze(MazeWorld):
    """A maze of 10x10 cells, 6 pixels each, inside a 2-pixel margin whose top row shows fixed HUD dots (the
    frame's colour boundaries then have a gcd of 1)."""

    def frame(self) -> np.ndarray:
        out = super().frame()
        out[1, 1::3] = 8
        return out


def test_a_grid_inside_a_margin_with_a_hud_is_learned_cell_by_cell() -> None:
    world = _MarginHudMaze(seed=2, size=10, bar=False, scale=6)
    transitions = record(world, random_moves(2), 80)
    source = learn(transitions[:60])["patch"]
    assert source is not None
    namespace = load(source)
    assert namespace["dyn_SCALE_HINTS"][0] == [6, 2, 2]
    names = {h["name"] for h in namespace["HYPOTHESES"]}
    assert {f"move:ACTION{i}:colour{world.player}" for i in range(1, 5)} <= names
    assert all(held_out_hits(source, transitions[60:]))  # the margin is kept, the cells predicted


class _StripHudMaze(MazeWorld):
    """A maze of 7x7 cells, 8 pixels each, drawn from the frame's top-left corner; the strip of pixels below it
    shows HUD dots one pixel wide, so no grid fits the whole frame nor a box inside a margin."""

    def frame(self) -> np.ndarray:
        out = np.full((64, 64), self.floor, dtype=np.int8)
        out[:56, :56] = np.repeat(np.repeat(self.grid, 8, axis=0), 8, axis=1)
        out[58, 2:40:3] = 8
        out[61, 5] = 8
        return out


def test_a_board_above_a_hud_strip_is_learned_cell_by_cell() -> None:
    world = _StripHudMaze(seed=3, size=7, bar=False, scale=8)
    transitions = record(world, random_moves(3), 80)
    source = learn(transitions[:60])["patch"]
    assert source is not None
    namespace = load(source)
    assert namespace["dyn_SCALE_HINTS"][0] == [8, 0, 0, 8, 7]  # the band's 8 columns and 7 rows, not the strip
    names = {h["name"] for h in namespace["HYPOTHESES"]}
    assert {f"move:ACTION{i}:colour{world.player}" for i in range(1, 5)} <= names
    assert all(held_out_hits(source, transitions[60:]))  # the strip is kept, the cells predicted


class _StripBarMaze(_StripHudMaze):
    """`_StripHudMaze` whose strip also shows a bar two pixels tall that loses one pixel column per move
    (a move counter drawn one pixel wide: the cell rules keep the margin as it was)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bar_length = 50

    def apply(self, action: dict[str, Any]) -> bool:
        before = self.pos
        reached = super().apply(action)
        if self.pos != before:
            self.bar_length -= 1
        return reached

    def frame(self) -> np.ndarray:
        out = super().frame()
        out[62:64, 4 : 4 + self.bar_length] = 12
        return out


def test_a_counter_in_the_hud_strip_is_learned_in_pixels() -> None:
    """The bar below the board shrinks by one pixel column whenever the player moves: the hud family learns
    a counter in the margin (colour 12 to the floor, two pixels, column order from the end, when a mover
    moved), so the predicted frames match the whole display, strip included; without it they do not."""
    world = _StripBarMaze(seed=3, size=7, bar=False, scale=8)
    transitions = record(world, random_moves(4), 80)
    source = learn(transitions[:60])["patch"]
    assert source is not None
    names = {h["name"] for h in load(source)["HYPOTHESES"]}
    assert f"hud-counter:colour12->colour{world.floor}" in names
    assert all(held_out_hits(source, transitions[60:]))
    model = build("simulator", families=FamilySwitches(frozenset({"hud"})))
    without = ask("simulator", {"transitions": transitions[:60], "counterexamples": [], "feedback": ""},
                  model=model)["patch"]
    assert without is not None and not all(held_out_hits(without, transitions[60:]))


class _CountsActions:
    """A world mixin that counts the actions applied so far (`actions`)."""

    actions = 0

    def apply(self, action: dict[str, Any]) -> bool:
        self.actions += 1
        return bool(super().apply(action))  # type: ignore[misc]


class _StripFlashMaze(_CountsActions, _StripHudMaze):
    """`_StripHudMaze` whose strip flashes a pixel on two moves only (a click flash, an animation)."""

    def frame(self) -> np.ndarray:
        out = super().frame()
        if self.actions in (7, 19):
            out[60, 40:44] = 12
        return out


def test_a_flash_in_the_hud_strip_is_no_counter() -> None:
    world = _StripFlashMaze(seed=3, size=7, bar=False, scale=8)
    source = learn(record(world, random_moves(5), 60))["patch"]
    assert source is not None
    assert not [h for h in load(source)["HYPOTHESES"] if h["name"].startswith("hud-counter")]


class _StrayPixelMaze(_CountsActions, MazeWorld):
    """A maze whose top-left wall cell shows one stray pixel from the 30th action on (a HUD dot drawn over a
    cell: the frames still fit the grid but for a few stray lines)."""

    def frame(self) -> np.ndarray:
        out = super().frame()
        if self.actions >= 30:
            ox, oy = self.offset()
            out[oy + 1, ox + 1] = 8
        return out


def test_a_prediction_keeps_the_pixels_of_the_cells_the_rules_did_not_change() -> None:
    """The frame fits its grid but for one stray pixel (a dot over a wall cell); predictions repaint only the
    cells the rules changed, so the dot stays and every held-out prediction matches the whole frame."""
    world = _StrayPixelMaze(seed=4, size=10, bar=False, scale=4)
    transitions = record(world, random_moves(6), 80)
    source = learn(transitions[:60])["patch"]
    assert source is not None
    assert load(source)["dyn_SCALE_HINTS"][0][0] == 4
    assert all(held_out_hits(source, transitions[60:]))
