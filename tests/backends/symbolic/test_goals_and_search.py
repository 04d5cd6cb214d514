"""Sub-goals for several objects at once, tints in goal tests, the guided search, and level resets in rollouts."""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

import numpy as np

from dreamteam.backends.symbolic.common.artifacts import ArtifactCache
from dreamteam.backends.symbolic.planning.goals import Evidence, derive
from dreamteam.backends.symbolic.planning.rollout import LogicalRollout, rollout_for
from dreamteam.backends.symbolic.planning.search import SearchLimits, best_first, breadth_first

from .test_simulator import learn
from .worlds import MazeWorld, random_moves, record

FLOOR, WALL, PLAYER, BOX, TARGET, TINTED = 5, 3, 9, 12, 6, 7
ROOM = [
    "3333333",
    "3555553",
    "35c5c53",
    "3555553",
    "3569653",
    "3333333",
]
MOVES = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}


def grid_of(rows: list[str]) -> np.ndarray:
    return np.array([[int(c, 16) for c in row] for row in rows], dtype=np.int8)


class Room:
    """A hand-written rollout: the player pushes single boxes; a box on a target shows TINTED."""

    geometry = (1, 0, 0)

    def __init__(self, rows: list[str]) -> None:
        self.targets = {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if int(c, 16) == TARGET}

    def start(self, frame: np.ndarray, history: Any = None) -> Any:
        return tuple(tuple(int(v) for v in row) for row in frame)

    def step(self, state: Any, action: dict[str, Any]) -> tuple[Any, list[str]] | None:
        grid = [list(row) for row in state]
        (px, py), = [(x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == PLAYER]
        dx, dy = MOVES[action["action"]]
        x, y = px + dx, py + dy
        if grid[y][x] in (BOX, TINTED):
            if grid[y + dy][x + dx] not in (FLOOR, TARGET):
                return state, []
            grid[y + dy][x + dx] = TINTED if (x + dx, y + dy) in self.targets else BOX
        elif grid[y][x] not in (FLOOR, TARGET):
            return state, []
        grid[py][px] = TARGET if (px, py) in self.targets else FLOOR
        grid[y][x] = PLAYER
        return tuple(tuple(row) for row in grid), []

    def key(self, state: Any) -> Hashable:
        return state

    def grid(self, state: Any) -> np.ndarray:
        return np.array(state, dtype=np.int8)


EVIDENCE = Evidence(frozenset({PLAYER, BOX, TINTED}), (), frozenset(), frozenset({(PLAYER, FLOOR)}),
                    frozenset({(BOX, TARGET)}))
TINTS = ((BOX, TARGET, TINTED), (TINTED, FLOOR, BOX))


def test_all_boxes_on_targets_is_the_level_completing_goal_and_one_box_no_longer_is() -> None:
    start = grid_of(ROOM)
    goals = {g.name: g for g in derive(EVIDENCE, start, start, TINTS)}
    each = goals[f"repeat-level-up-each:colour{TARGET}"]
    assert each.priority == 1 and goals[f"repeat-level-up:colour{TARGET}"].priority == 2
    one = start.copy()
    one[2, 2], one[4, 2] = FLOOR, TINTED
    both = one.copy()
    both[2, 4], both[4, 4] = FLOOR, TINTED
    assert not each.test(start, []) and not each.test(one, []) and each.test(both, [])
    assert each.estimate is not None
    assert each.estimate(both) == 0 and 0 < each.estimate(one) < each.estimate(start)
    assert goals[f"repeat-level-up:colour{TARGET}"].test(one, [])


def test_the_guided_search_places_every_box_and_the_plan_works() -> None:
    room = Room(ROOM)
    start = room.start(grid_of(ROOM))
    each = next(g for g in derive(EVIDENCE, room.grid(start), room.grid(start), TINTS) if "each" in g.name)
    actions = [{"action": name} for name in MOVES]
    plan, expanded = best_first(room, start, actions, each, SearchLimits(nodes=20_000, depth=60, seconds=30.0))
    assert plan is not None and expanded > 0
    state = start
    for action in plan:
        result = room.step(state, action)
        assert result is not None
        state = result[0]
    assert each.test(room.grid(state), [])
    shortest, _ = breadth_first(room, start, actions, [each], SearchLimits(nodes=200_000, depth=60, seconds=30.0))
    assert len(plan) <= 2 * len(shortest[each.name])


def test_a_rollout_resets_to_the_remembered_level_start_which_is_no_goal_by_itself() -> None:
    world = MazeWorld(seed=3, bar=False)
    first = world.frame()
    transitions = record(world, random_moves(3), 60)
    source = learn(transitions)["patch"]
    rollout = rollout_for(source, "", ArtifactCache())
    assert isinstance(rollout, LogicalRollout)
    here = rollout.start(world.frame())
    back = rollout.step(here, {"action": "RESET"})
    assert back is not None and back[0] == rollout.start(first)
    at_start = derive(Evidence(frozenset({world.player}), (), frozenset({frozenset()})), rollout.grid(here))
    frontier = [g for g in at_start if g.name == "frontier"]
    found, _ = breadth_first(rollout, here, [{"action": "RESET"}], frontier, SearchLimits())
    assert found == {}


def test_a_dynamics_that_only_remembers_a_new_level_start_counts_as_new_knowledge() -> None:
    from dreamteam.backends.symbolic.worldmodel.model import Scene, WorldRules
    from dreamteam.backends.symbolic.worldmodel.simulator import new_scene

    old = Scene((4, 0, 0), ("5555", "5965"), 5)
    surface = f"dyn_SCENES = {[old.to_json()]!r}\n"
    assert not new_scene(surface, WorldRules(scenes=(old,)))
    assert new_scene(surface, WorldRules(scenes=(old, Scene((4, 0, 0), ("5555", "5595"), 5))))
    assert new_scene(surface, WorldRules(scenes=(Scene((4, 0, 0), ("5555", "5965"), 5, under=((1, 1, 6),)),)))
    assert new_scene("HYPOTHESES = []\n", WorldRules(scenes=(old,)))


def test_recall_keeps_a_level_s_positions_and_touches_beyond_the_window_and_forgets_them_on_a_new_level() -> None:
    from dreamteam.backends.symbolic.planning.goals import Recall

    def window(cells: list[tuple[int, int]], pairs: set[tuple[int, int]]) -> Evidence:
        return Evidence(frozenset({PLAYER}), (), frozenset(frozenset({c}) for c in cells), frozenset(pairs))

    start = grid_of(ROOM)
    recall = Recall()
    recall.merge(window([(1, 1), (2, 1)], {(PLAYER, BOX)}), level=-1)
    later = recall.merge(window([(3, 3)], set()), level=-1)
    assert later.visited == {frozenset({(1, 1)}), frozenset({(2, 1)}), frozenset({(3, 3)})}
    assert later.pairs == {(PLAYER, BOX)}
    names = [g.name for g in derive(later, start)]
    assert f"enter:colour{BOX}" not in names and f"enter:colour{TARGET}" in names
    frontier = next(g for g in derive(later, start) if g.name == "frontier")
    moved = np.where(start == PLAYER, FLOOR, start)
    moved[1, 2] = PLAYER  # the player alone at (2, 1): seen before the window, not new
    assert not frontier.test(moved, [])
    moved[1, 2], moved[1, 3] = FLOOR, PLAYER
    assert frontier.test(moved, [])
    fresh = recall.merge(window([(3, 3)], set()), level=40)  # a level-up at step 40: a new level
    assert fresh.visited == {frozenset({(3, 3)})} and fresh.pairs == frozenset()
    assert f"enter:colour{BOX}" in [g.name for g in derive(fresh, start)]


def test_a_small_object_in_the_colour_of_a_door_that_stopped_the_player_gets_a_touch_goal() -> None:
    # a closed door (2x2, colour D) stopped the player; a key drawn in D as one cell was never touched: the
    # colour-level model would call it blocking too, so only a goal on its class sends the player to try it
    from dreamteam.backends.symbolic.common.evidence import decode_transitions
    from dreamteam.backends.symbolic.common.frames import DisplayCache
    from dreamteam.backends.symbolic.planning.goals import Recall, gather
    from dreamteam.codec import encode_grid

    door = 13
    rows = ["3333333333",
            "3555dd5553",
            "3555dd5553",
            "3559555d53",
            "3555555553",
            "3333333333"]
    start = grid_of(rows)
    moved = start.copy()
    moved[3, 3], moved[3, 4] = FLOOR, PLAYER

    def raw(before: np.ndarray, after: np.ndarray, action: str, step: int) -> dict[str, Any]:
        return {"step": step, "action": {"action": action}, "before": encode_grid(np.kron(before, np.ones((4, 4), np.int8))),
                "after": encode_grid(np.kron(after, np.ones((4, 4), np.int8))), "level_up": False}

    back = start.copy()
    transitions = decode_transitions([raw(start, moved, "ACTION4", 0), raw(moved, back, "ACTION3", 1),
                                      raw(back, moved, "ACTION4", 2), raw(moved, moved, "ACTION1", 3)],
                                     [[4, 0, 0]], DisplayCache())
    assert len(transitions) == 4
    plain = gather(transitions)
    assert PLAYER in plain.movers and ("ACTION1", PLAYER, 0, -1) not in plain.shifts  # never seen moving up
    shifts = (*plain.shifts, ("ACTION1", PLAYER, 0, -1))
    evidence = Recall().merge(replace(plain, shifts=shifts), -1, transitions)
    assert evidence.stoppers == {door}
    now = transitions[-1].after.grid
    goals = {g.name: g for g in derive(evidence, now)}
    touch = [name for name in goals if name.startswith("touch:")]
    assert touch == [f"touch:colour{door}:shape:1"]
    test = goals[touch[0]].test
    at_key = np.where(now == PLAYER, FLOOR, now)
    at_key[3, 6] = PLAYER  # left of the key (x=7, y=3)
    assert not test(at_key, [])
    assert test(at_key, ["by:ACTION4"])  # moving right, into or against the key
    assert not test(now, ["by:ACTION4"])  # moving right from (4, 3): floor ahead
    on_key = np.where(now == PLAYER, FLOOR, now)
    on_key[3, 7] = PLAYER
    assert test(on_key, [])
    pillar = now.copy()
    pillar[2, 7] = WALL  # a one-cell piece of wall: its colour also draws the border, so it is no object
    walls = replace(evidence, stoppers=evidence.stoppers | {WALL})
    assert [g.name for g in derive(walls, pillar) if g.name.startswith("touch:")] == touch


def test_before_any_level_up_a_stopper_gets_a_goal_to_run_into_it_while_holding_what_a_mover_took() -> None:
    # a door (D) stopped the player; the player once walked over a spark (S): nothing says the door opens only
    # to a carrier, so the explorer wants to take the spark and run into the door, once
    door, spark = 13, 8
    rows = ["3333333333",
            "3555555553",
            "3595585553",
            "3555555553",
            "33333d3333"]
    start = grid_of(rows)
    shifts = tuple((label, PLAYER, dx, dy) for label, (dx, dy) in MOVES.items())
    evidence = Evidence(frozenset({PLAYER}), shifts, frozenset(), frozenset({(PLAYER, spark)}),
                        stoppers=frozenset({door, WALL}))
    goals = {g.name: g for g in derive(evidence, start)}
    assert f"holding:colour{spark}:colour{door}" in goals
    assert not any(name.startswith("holding:") and name.endswith(f"colour{WALL}") for name in goals)  # not small
    test = goals[f"holding:colour{spark}:colour{door}"].test
    below_door = np.where(start == PLAYER, FLOOR, start)
    below_door[3, 5] = PLAYER
    assert not test(below_door, ["by:ACTION2"])  # the spark is still on the level
    carried = below_door.copy()
    carried[2, 5] = FLOOR
    assert test(carried, ["by:ACTION2"]) and not test(carried, ["by:ACTION1"])
    tried = replace(evidence, tried_holding=frozenset({(door, spark)}))
    assert not any(g.name.startswith("holding:") for g in derive(tried, start))
    after_level_up = replace(evidence, level_up_pairs=frozenset({(PLAYER, door)}))
    assert not any(g.name.startswith("holding:") for g in derive(after_level_up, start))


def test_a_slide_over_a_colour_counts_as_entering_it_in_the_model_the_evidence_and_the_search() -> None:
    # on ice the player slides over a spark (S) and ends beyond it: the final grid no longer shows the touch,
    # so the world model raises "passed:P:S", the evidence counts it as entered, and the search finds it
    from dreamteam.backends.symbolic.common.evidence import decode_transitions
    from dreamteam.backends.symbolic.common.frames import DisplayCache
    from dreamteam.backends.symbolic.planning.goals import gather
    from dreamteam.backends.symbolic.worldmodel.codegen import dynamics_source
    from dreamteam.backends.symbolic.worldmodel.model import MoveRule, WorldRules, step_rules
    from dreamteam.codec import encode_grid

    spark = 10
    rows = ["3333333",
            "3555553",
            "3595a53",
            "3555553",
            "3333333"]
    start = grid_of(rows)
    slides = tuple(MoveRule(label, PLAYER, dx, dy, blockers=(WALL,), vacated=FLOOR, slide=True)
                   for label, (dx, dy) in MOVES.items())
    rules = WorldRules(hints=((1, 0, 0),), moves=slides)
    right = step_rules(rules, start.tolist(), {"action": "ACTION4"}, (1, 0, 0))
    assert right["grid"][2][5] == PLAYER and right["grid"][2][4] == FLOOR  # ran over the spark, took it along
    assert f"passed:{PLAYER}:{spark}" in right["events"]
    assert not any(e.startswith("passed:") for e in step_rules(rules, start.tolist(), {"action": "ACTION1"},
                                                               (1, 0, 0))["events"])  # only floor on the way
    rollout = rollout_for(dynamics_source(rules, 0), "", ArtifactCache())
    assert isinstance(rollout, LogicalRollout)
    state = rollout.start(start)
    generated = rollout.step(state, {"action": "ACTION4"})
    assert generated is not None and generated[1] == right["events"]  # the artifact agrees with the learner

    evidence = Evidence(frozenset({PLAYER}), tuple((label, PLAYER, dx, dy) for label, (dx, dy) in MOVES.items()),
                        frozenset(), frozenset({(PLAYER, FLOOR)}))
    goals = {g.name: g for g in derive(evidence, start)}
    found, _ = breadth_first(rollout, state, [{"action": a} for a in MOVES], [goals[f"enter:colour{spark}"]],
                             SearchLimits(nodes=100, depth=3, seconds=5.0))
    assert found[f"enter:colour{spark}"] == [{"action": "ACTION4"}]

    def raw(before: np.ndarray, after: np.ndarray, action: str, step: int) -> dict[str, Any]:
        return {"step": step, "action": {"action": action}, "before": encode_grid(np.kron(before, np.ones((4, 4), np.int8))),
                "after": encode_grid(np.kron(after, np.ones((4, 4), np.int8))), "level_up": False}

    after = np.array(right["grid"], dtype=np.int8)
    left = np.array(step_rules(rules, after.tolist(), {"action": "ACTION3"}, (1, 0, 0))["grid"], dtype=np.int8)
    transitions = decode_transitions([raw(start, after, "ACTION4", 0), raw(after, left, "ACTION3", 1),
                                      raw(left, left, "ACTION3", 2)], [[4, 0, 0]], DisplayCache())
    assert len(transitions) == 3
    slid = gather(transitions, known=frozenset({PLAYER}))
    assert (PLAYER, spark) not in slid.pairs  # moves of one length each way: not yet known to slide
    longer = decode_transitions([raw(start, after, "ACTION4", 0), raw(after, left, "ACTION3", 1),
                                 raw(left, left, "ACTION3", 2), raw(left, after, "ACTION4", 3)],
                                [[4, 0, 0]], DisplayCache())
    slid = gather(longer, known=frozenset({PLAYER}))
    assert ("ACTION4", PLAYER) in slid.slides and (PLAYER, spark) in slid.pairs


def _decoded(items: list[tuple[np.ndarray, np.ndarray, str, int, bool]]) -> list[Any]:
    """Transitions from (before, after, action, step, level_up) logical grids drawn at scale 4."""
    from dreamteam.backends.symbolic.common.evidence import decode_transitions
    from dreamteam.backends.symbolic.common.frames import DisplayCache
    from dreamteam.codec import encode_grid

    def up(grid: np.ndarray) -> str:
        return encode_grid(np.kron(grid, np.ones((4, 4), np.int8)))

    raw = [{"step": step, "action": {"action": action}, "before": up(before), "after": up(after), "level_up": level_up}
           for before, after, action, step, level_up in items]
    out = decode_transitions(raw, [[4, 0, 0]], DisplayCache())
    assert len(out) == len(items)
    return out


def _moved(grid: np.ndarray, colour: int, x: int, y: int) -> np.ndarray:
    """`grid` with the one cell of `colour` moved to (x, y) (floor left behind)."""
    out = np.where(grid == colour, FLOOR, grid)
    out[y, x] = colour
    return out


SPARK_ROOM = ["3333333333",
              "3955555553",
              "3555535553",
              "3555555a53",
              "3333333333"]
SPARK = 10


def test_a_thing_that_vanishes_and_comes_back_elsewhere_is_no_mover_and_how_long_it_lasts_is_measured() -> None:
    # the player takes a spark (it vanishes, a corner cell lights up in its colour) that comes back three
    # actions later, twice on the same action: that is no jump rule of the spark, and the recall measures how
    # long the spark lasts once taken, so a holding goal plans within it
    from dreamteam.backends.symbolic.common.evidence import MotionCache
    from dreamteam.backends.symbolic.planning.goals import Recall, gather
    from dreamteam.backends.symbolic.worldmodel.movers import learn_moves

    start = grid_of(SPARK_ROOM)

    def frame(x: int, y: int, taken: bool) -> np.ndarray:
        grid = _moved(start, PLAYER, x, y)
        if taken:
            grid[3, 7] = PLAYER if (x, y) == (7, 3) else FLOOR
            grid[4, 0] = SPARK
        return grid

    walk = [(1, 1, False, ""), (2, 1, False, "ACTION4"), (2, 3, False, "ACTION2"), (7, 3, True, "ACTION4"),
            (7, 1, True, "ACTION1"), (5, 1, True, "ACTION3"), (5, 2, False, "ACTION2"), (1, 2, False, "ACTION3"),
            (1, 1, False, "ACTION1")]
    items: list[tuple[np.ndarray, np.ndarray, str, int, bool]] = []
    for _ in range(2):
        for (x0, y0, held0, _), (x, y, held, action) in itertools.pairwise(walk):
            items.append((frame(x0, y0, held0), frame(x, y, held), action, len(items), False))
    transitions = _decoded(items)
    cache = MotionCache()
    assert not any(rule.colour == SPARK for rule in learn_moves(transitions, cache))
    evidence = Recall().merge(gather(transitions, cache, known=frozenset({PLAYER})), -1, transitions, start)
    assert dict(evidence.lasts).get(SPARK) == 3


def test_what_was_collected_before_a_level_up_is_read_against_a_level_start_older_than_the_window() -> None:
    # the player took a spark long ago, then walked to the exit: the window no longer holds the level's first
    # frame, but the remembered level start still shows that the spark was collected before the level-up
    from dreamteam.backends.symbolic.planning.goals import LevelStarts, gather

    exit_ = 14
    start = grid_of(SPARK_ROOM)
    start[1, 8] = exit_
    taken = _moved(start, PLAYER, 7, 3)
    walk = [_moved(np.where(start == SPARK, FLOOR, start), PLAYER, x, 3) for x in (6, 5, 6, 7, 8)]
    early = _decoded([(start, taken, "ACTION4", 0, False)])
    late = _decoded([(a, b, "ACTION4" if b[3].tolist().index(PLAYER) > a[3].tolist().index(PLAYER) else "ACTION3",
                      80 + i, False) for i, (a, b) in enumerate(itertools.pairwise(walk))]
                    + [(walk[-1], grid_of(SPARK_ROOM), "ACTION1", 84, True)])
    starts = LevelStarts()
    starts.note(early)
    starts.note(late)
    assert starts.of(84) is not None and np.array_equal(starts.of(84), start)
    assert SPARK not in gather(late, known=frozenset({PLAYER})).collected  # the window alone cannot tell
    assert SPARK in gather(late, known=frozenset({PLAYER}), start_of=starts.of).collected


def _slid(grid: np.ndarray, x: int, y: int, dx: int, dy: int) -> np.ndarray:
    """`grid` after the player at (x, y) slid along (dx, dy) over floor and sparks (taken) until a wall."""
    out = grid.copy()
    out[y, x] = FLOOR
    while out[y + dy, x + dx] in (FLOOR, SPARK):
        x, y = x + dx, y + dy
        out[y, x] = FLOOR
    out[y, x] = PLAYER
    return out


def test_a_spark_the_completing_slide_passed_over_on_its_way_into_the_door_is_taken_not_the_goal() -> None:
    # on ice, the player slid up over a spark into the door and completed the level (the next level's grid
    # does not show where the slide ended); ACTION1 was seen once before, one length only, but the player
    # slides on the other actions, so ACTION1 slides too: the completing step ran over the spark and into
    # the door. On the next level a slide takes the spark (it vanishes): the spark is what every level-up
    # had taken, the door what it ran into, and the sub-goal is "take the spark, then run into the door"
    from dreamteam.backends.symbolic.planning.goals import gather

    door = 14
    level_a = grid_of(["3e33333333", "3555555553", "3a55555553", "3955553553", "3555555553", "3555555553",
                       "3555555553", "3333333333"])
    level_b = grid_of(["333333e333", "3555555553", "395a555553", "3555555553", "3555555553", "3555555553",
                       "3333333333"])
    items: list[tuple[np.ndarray, np.ndarray, str, int, bool]] = []
    grid = level_a
    for action, (dx, dy) in [("ACTION4", (1, 0)), ("ACTION2", (0, 1)), ("ACTION1", (0, -1)), ("ACTION4", (1, 0)),
                             ("ACTION2", (0, 1)), ("ACTION3", (-1, 0))]:
        y, x = (int(v[0]) for v in np.nonzero(grid == PLAYER))
        after = _slid(grid, x, y, dx, dy)
        items.append((grid, after, action, len(items), False))
        grid = after
    assert grid[6, 1] == PLAYER and grid[2, 1] == SPARK  # below the spark, the door above it
    items.append((grid, level_b, "ACTION1", len(items), True))
    taken = _slid(level_b, 1, 2, 1, 0)
    assert not (taken == SPARK).any()
    items.append((level_b, taken, "ACTION4", len(items), False))
    evidence = gather(_decoded(items), known=frozenset({PLAYER}))
    assert ("ACTION1", PLAYER) in evidence.slides
    assert {(PLAYER, SPARK), (PLAYER, door)} <= evidence.level_up_pairs
    assert evidence.collected == frozenset({SPARK})
    goals = {g.name: g for g in derive(evidence, taken, level_b)}
    after = goals[f"repeat-level-up-after:colour{door}"]
    below_door = np.where(taken == PLAYER, FLOOR, taken)
    below_door[1, 6] = PLAYER
    assert after.test(below_door, ["by:ACTION1"]) and not after.test(below_door, ["by:ACTION3"])
    held_not = level_b.copy()
    held_not[2, 1], held_not[1, 6] = FLOOR, PLAYER
    assert not after.test(held_not, ["by:ACTION1"])  # the spark is still there
    # without seeing the spark vanish, what the completing slide ran over might have been the goal
    unseen = gather(_decoded(items[:-1]), known=frozenset({PLAYER}))
    assert SPARK not in unseen.collected and (PLAYER, SPARK) in unseen.level_up_pairs


def test_walls_are_no_goals_and_a_goal_entered_without_a_level_up_is_not_enough_alone() -> None:
    # two avatars; one of them was blocked by a wall in the step that completed the level, and the other was
    # seen stepping onto the goal colour before without completing anything
    two = 12
    start = grid_of(["333333333", "395555553", "355553553", "3555555e3", "35c555553", "355555553", "333333333"])
    evidence = Evidence(frozenset({PLAYER, two}), (), frozenset(), frozenset({(PLAYER, FLOOR), (two, FLOOR),
                                                                               (PLAYER, 14), (two, 14)}),
                        frozenset({(PLAYER, 14), (two, WALL)}), stoppers=frozenset({WALL}),
                        unrewarded=frozenset({(PLAYER, 14)}))
    goals = {g.name: g for g in derive(evidence, start, start)}
    assert f"repeat-level-up:colour{WALL}" not in goals and f"enter:colour{WALL}" not in goals
    assert goals["repeat-level-up:colour14"].priority == 2
    assert goals["repeat-level-up-all:colour14"].priority == 1
    assert goals["repeat-level-up-all:colour14"].estimate is not None
    rewarded = replace(evidence, unrewarded=frozenset())
    assert {g.name: g for g in derive(rewarded, start, start)}["repeat-level-up:colour14"].priority == 1
    open_walls = replace(evidence, stoppers=frozenset())  # nothing says the border stops anyone
    assert f"repeat-level-up:colour{WALL}" in {g.name for g in derive(open_walls, start, start)}


def test_the_estimate_walks_around_walls() -> None:
    from dreamteam.backends.symbolic.planning.goals.distance import _distance_to, walk_fields

    rows = ["3333333",
            "3955553",
            "3333353",
            "3e55553",
            "3333333"]
    start = grid_of(rows)
    ys, xs = np.nonzero(start == 14)
    field = walk_fields(start != WALL, ys, xs)[0]
    assert field[1, 1] == 10 and field[3, 1] == 0 and np.isinf(field[0, 0])
    around = _distance_to(start, 14, frozenset({PLAYER}), start, (), walls={WALL})
    straight = _distance_to(start, 14, frozenset({PLAYER}), start, ())
    assert around(start) == 10 and straight(start) == 2  # Manhattan would go through the wall


def test_before_any_level_up_every_block_on_the_colour_it_shows_a_tint_on_is_a_goal_and_its_search_skips_corners() -> None:
    """Blocks show a tint on targets: before any level-up, all of them on targets at once is worth a search
    (a first level may ask for several). The floor, which a block on a target shows its plain colour on, is
    no such goal. A block pushed into a corner off the targets can never leave it: the estimate says so."""
    rows = ["333333333",
            "355555553",
            "3555c5c53",
            "355555553",
            "355569653",
            "333333333"]
    start = grid_of(rows)
    first = Evidence(frozenset({PLAYER, BOX, TINTED}), (), frozenset(), frozenset({(PLAYER, FLOOR)}),
                     stoppers=frozenset({WALL}), pushed=frozenset({BOX, TINTED}))
    goals = {g.name: g for g in derive(first, start, start, TINTS)}
    cover = goals[f"cover:colour{TARGET}"]
    assert cover.priority == 2 and f"cover:colour{FLOOR}" not in goals
    both = start.copy()
    both[2, 4], both[4, 4], both[2, 6], both[4, 6] = FLOOR, TINTED, FLOOR, TINTED
    assert not cover.test(start, []) and cover.test(both, [])
    assert cover.estimate is not None and cover.estimate(both) == 0
    assert np.isfinite(cover.estimate(start))
    cornered = start.copy()
    cornered[2, 4], cornered[1, 1] = FLOOR, BOX
    assert cover.estimate(cornered) == np.inf
    room = Room(rows)
    plan, _ = best_first(room, room.start(start), [{"action": name} for name in MOVES], cover,
                         SearchLimits(nodes=20_000, depth=60, seconds=30.0))
    assert plan is not None
    # walkers in a corner are not stuck: without `pushed` the same estimate stays finite
    walking = {g.name: g for g in derive(replace(first, pushed=frozenset()), start, start, TINTS)}
    estimate = walking[f"cover:colour{TARGET}"].estimate
    assert estimate is not None and np.isfinite(estimate(cornered))
    # after a level-up on the targets the repeated goal takes over, and one block entering asks for progress
    later = replace(first, level_up_pairs=frozenset({(BOX, TARGET)}))
    goals = {g.name: g for g in derive(later, start, start, TINTS)}
    assert f"cover:colour{TARGET}" not in goals and f"repeat-level-up-each:colour{TARGET}" in goals
    assert f"repeat-level-up-all:colour{TARGET}" not in goals, "only one mover walks: the player"
    # A on its target, B one push away from the other
    ready = start.copy()
    ready[2, 4], ready[4, 4], ready[2, 6], ready[3, 6], ready[4, 5], ready[2, 6] = FLOOR, TINTED, FLOOR, BOX, FLOOR, PLAYER
    one = {g.name: g for g in derive(later, ready, start, TINTS)}[f"repeat-level-up:colour{TARGET}"]
    pushed_on = ready.copy()
    pushed_on[4, 6], pushed_on[3, 6], pushed_on[2, 6] = TINTED, PLAYER, FLOOR
    assert one.test(pushed_on, []) and not one.test(ready, [])
    swapped = pushed_on.copy()
    swapped[4, 4], swapped[3, 4] = TARGET, BOX
    assert not one.test(swapped, []), "B on its target while A left its own is no progress"


def test_the_floor_blocks_began_on_is_no_cover_goal_once_one_block_stands_on_a_target() -> None:
    # blocks show their plain colour on the floor (the tint learned backwards: a tinted block on the floor
    # shows BOX): with one of two blocks on its target, at most half of them stand on the floor now, but
    # both began the level there, so "every block on the floor" is no goal
    start = grid_of(["3333333", "35c5c53", "3555553", "3569653", "3333333"])
    first = Evidence(frozenset({PLAYER, BOX, TINTED}), (), frozenset(), frozenset({(PLAYER, FLOOR)}),
                     stoppers=frozenset({WALL}), pushed=frozenset({BOX, TINTED}))
    one_on = start.copy()
    one_on[1, 2], one_on[3, 2], one_on[3, 3], one_on[2, 2] = FLOOR, TINTED, FLOOR, PLAYER
    names = {g.name for g in derive(first, one_on, start, TINTS)}
    assert f"cover:colour{TARGET}" in names and f"cover:colour{FLOOR}" not in names


class _Counter:
    """A rollout whose states count up on ACTION1 and whose RESET depends on the state, as a world model's
    does when it resets to the level start nearest the grid: from 3 it "resets" to 10."""

    geometry = (1, 0, 0)

    def start(self, frame: np.ndarray, history: Any = None) -> int:
        return 0

    def step(self, state: int, action: dict[str, Any]) -> tuple[int, list[str]] | None:
        if action["action"] == "RESET":
            return (10 if state == 3 else 0), []
        return state + 1, []

    def key(self, state: int) -> Hashable:
        return state

    def grid(self, state: int) -> np.ndarray:
        return np.array([[state]], dtype=np.int8)


def test_searches_reset_only_first() -> None:
    # the game resets to the level's start whatever came before: a plan that resets after its first step
    # follows the world model's guess, not the game; the searches try a RESET from their start only
    from dreamteam.backends.symbolic.planning.goals import SubGoal

    ten = SubGoal("ten", "reach 10", 1, lambda grid, events: int(grid[0, 0]) == 10, lambda grid: abs(10 - int(grid[0, 0])))
    actions = [{"action": "ACTION1"}, {"action": "RESET"}]
    found, _ = breadth_first(_Counter(), 0, actions, [ten], SearchLimits(nodes=1_000, depth=20, seconds=5.0))
    assert found["ten"] == [{"action": "ACTION1"}] * 10
    plan, _ = best_first(_Counter(), 0, actions, ten, SearchLimits(nodes=1_000, depth=20, seconds=5.0))
    assert plan == [{"action": "ACTION1"}] * 10
