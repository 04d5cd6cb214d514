"""The graph explorer on small synthetic games: goals reached, no wasted retests, BFS paths, deaths."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from dreamteam.agents.explorer import ExplorerAgent
from dreamteam.perception import HudSettings
from dreamteam.protocols import Agent
from dreamteam.types import CLICK, RESET, Action, GameInfo, Grid, Observation
from tests.agents.gridworlds import (
    CORRIDOR_MAZE,
    LAVA_ROOM,
    OPEN_ROOM,
    Comet,
    LampPuzzle,
    MarkedRoom,
    MazeWorld,
    PairClick,
    Pause,
    Played,
    RowFlip,
    TrapLine,
    play,
)

SIMPLE = frozenset({1, 2, 3, 4, 5})


def frame_key(obs: Observation) -> bytes:
    return obs.grid.tobytes()


def test_is_an_agent() -> None:
    assert isinstance(ExplorerAgent(0), Agent)


@pytest.mark.parametrize(
    ("levels", "budget"),
    [([OPEN_ROOM], None), ([CORRIDOR_MAZE], None), ([LAVA_ROOM], None), ([OPEN_ROOM, CORRIDOR_MAZE], None)],
)
def test_reaches_the_goal_of_every_maze(levels: list[list[str]], budget: int | None) -> None:
    env = MazeWorld(levels, budget=budget)
    _, last = play(env, ExplorerAgent(0), 2000)
    assert last.state == "WIN"


def test_solves_the_click_puzzle() -> None:
    env = LampPuzzle()
    _, last = play(env, ExplorerAgent(0), 2000)
    assert last.state == "WIN"


def test_never_retests_an_action_while_the_state_has_an_untested_one() -> None:
    env = MazeWorld([CORRIDOR_MAZE])
    history, last = play(env, ExplorerAgent(0, useless_after=10**9), 2000)
    assert last.state == "WIN"
    tried: dict[bytes, set[int]] = {}
    repeats = 0
    for step in history:
        seen = tried.setdefault(frame_key(step.obs), set())
        if step.action.id in seen:
            repeats += 1
            assert seen >= SIMPLE, f"retested {step.action.label()} with {sorted(SIMPLE - seen)} untested"
        seen.add(step.action.id)
    assert repeats > 20, "the maze should force the explorer to walk back through tested states"


def frontier_distance(
    start: bytes, edges: dict[bytes, dict[int, bytes]], tried: dict[bytes, set[int]]
) -> int | None:
    """BFS distance over observed moves from `start` to the nearest frame with untested actions."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node != start and tried.get(node, set()) != SIMPLE:
            return dist[node]
        for nxt in edges.get(node, {}).values():
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return None


def test_walks_shortest_known_paths_to_the_frontier() -> None:
    env = MazeWorld([CORRIDOR_MAZE])
    history, last = play(env, ExplorerAgent(0, useless_after=10**9), 2000)
    assert last.state == "WIN"
    edges: dict[bytes, dict[int, bytes]] = {}
    tried: dict[bytes, set[int]] = {}
    checked = 0
    for step, nxt in zip(history, history[1:], strict=False):
        here, there = frame_key(step.obs), frame_key(nxt.obs)
        if tried.get(here, set()) == SIMPLE:
            before = frontier_distance(here, edges, tried)
            assert before is not None
            assert frontier_distance(there, edges, tried) == before - 1 or before == 1
            checked += 1
        tried.setdefault(here, set()).add(step.action.id)
        if there != here:
            edges.setdefault(here, {})[step.action.id] = there
    assert checked > 20


def deaths_of(history: list[Played], env_levels: list[list[str]]) -> list[tuple[bytes, int]]:
    """(frame, action) pairs whose step ended in GAME_OVER, replayed through a fresh environment."""
    env = MazeWorld(env_levels)
    env.reset()
    out = []
    for step in history:
        assert np.array_equal(env.render(), step.obs.grid)
        obs = env.step(step.action)
        if obs.game_over:
            out.append((frame_key(step.obs), step.action.id))
            env.step(Action(RESET))
    return out


def test_never_repeats_an_action_that_killed() -> None:
    env = MazeWorld([LAVA_ROOM])
    history, last = play(env, ExplorerAgent(0, death_retries=0), 2000)
    assert last.state == "WIN"
    deaths = deaths_of(history, [LAVA_ROOM])
    assert deaths, "the lava room should kill at least once"
    assert len(deaths) == len(set(deaths))


def test_a_move_budget_is_masked_and_its_deaths_are_not_blamed_on_moves() -> None:
    env = MazeWorld([CORRIDOR_MAZE], budget=40)
    agent = ExplorerAgent(0, death_retries=0)
    history, last = play(env, agent, 3000)
    assert last.state == "WIN"
    assert sum(1 for step in history if step.obs.last_action == Action(RESET)) >= 2, "the budget ran out"
    first = agent.levels[0]
    assert first.mask[0:2, 0:40].all()
    assert not first.mask[4:, :].any()
    assert not first.graph.deaths
    assert len(first.graph) <= 60, "states are positions, not positions times budget"


def test_two_levels_get_two_graphs_and_the_first_remembers_its_exit() -> None:
    env = MazeWorld([OPEN_ROOM, CORRIDOR_MAZE])
    agent = ExplorerAgent(0)
    _, last = play(env, agent, 3000)
    assert last.state == "WIN"
    assert set(agent.levels) == {0, 1}
    exit_edge = agent.levels[0].exit
    assert exit_edge is not None and exit_edge[1].id in (2, 4), "the last move into the goal"


def test_resets_out_of_a_dead_end_only_when_allowed() -> None:
    history, last = play(TrapLine(), ExplorerAgent(0), 100)
    assert last.state == "WIN"
    assert any(step.action.id == RESET for step in history)
    history, last = play(TrapLine(), ExplorerAgent(0, reset_when_stuck=False), 100)
    assert last.state != "WIN"
    assert all(step.action.id != RESET for step in history)


def _frame(mark: int) -> Grid:
    grid = np.zeros((64, 64), dtype=np.int8)
    grid[8 * mark : 8 * mark + 8, 8:16] = 3
    return grid


def test_never_asks_for_a_reset_at_the_level_start_even_when_its_frame_changed() -> None:
    """Right after a RESET the state is the level's start whatever its frame shows (a game may not draw its
    first frame again): another RESET would restart the whole game, which the harness refuses (and ends the
    session after a few refusals), so the map does not call for one there, and the start a RESET returns to
    next is the one seen last."""
    agent = ExplorerAgent(0)
    agent.begin(GameInfo("redrawn", "redrawn", (0,)), 100)
    first = agent.act(Observation(_frame(0), (_frame(0),), "NOT_FINISHED", 0, 1, (1, 2, 3), 0, None))
    assert first is not None and first.id != RESET
    agent.act(Observation(_frame(1), (_frame(1),), "NOT_FINISHED", 0, 1, (1, 2, 3), 1, first))
    assert agent.map.reset_helps()  # away from the start, whose other actions are untested: a RESET helps
    again = agent.act(Observation(_frame(2), (_frame(2),), "NOT_FINISHED", 0, 1, (1, 2, 3), 2, Action(RESET)))
    assert again is not None and again.id != RESET
    assert not agent.map.reset_helps()
    assert np.array_equal(agent.map.memory.start_grid, _frame(2))


def test_answers_a_game_over_frame_with_reset() -> None:
    env = MazeWorld([LAVA_ROOM])
    agent = ExplorerAgent(0)
    agent.begin(env.info, 10)
    obs = env.reset()
    for action in (4, 4):
        agent.act(obs)
        obs = env.step(Action(action))
    assert obs.game_over
    assert agent.act(obs) == Action(RESET)


@pytest.mark.parametrize("make", [lambda: MazeWorld([LAVA_ROOM]), LampPuzzle])
def test_same_seed_same_actions(make: object) -> None:
    runs = [play(make(), ExplorerAgent(7), 300)[0] for _ in range(2)]  # type: ignore[operator]
    assert [s.action for s in runs[0]] == [s.action for s in runs[1]]
    agent = ExplorerAgent(7)
    again = [play(make(), agent, 300)[0] for _ in range(2)]  # type: ignore[operator]
    assert [s.action for s in again[0]] == [s.action for s in again[1]], "begin() starts afresh"


def test_map_frontier_walks_known_edges_to_an_untested_action() -> None:
    from dreamteam.agents.exploration_map import ExplorationMap

    env = MazeWorld([CORRIDOR_MAZE])
    world_map = ExplorationMap()
    obs = env.reset()
    walks = 0
    for step in range(40):
        world_map.observe(obs)
        frontier = world_map.frontier()
        assert frontier, f"the corridor maze still has untested actions at step {step}"
        here = world_map.memory.graph.untested(world_map.key)
        if here:
            assert frontier == [here[0]]
        else:
            # every action but the last follows a recorded edge; the last is untested where the walk ends
            walks += 1
            key = world_map.key
            for action in frontier[:-1]:
                key = world_map.memory.graph.edges[key][action]
            assert frontier[-1] in world_map.memory.graph.untested(key)
        action = frontier[0]
        world_map.sent(obs.grid, action)
        obs = env.step(action)
        if obs.game_over or obs.levels_completed:
            break
    assert walks > 0, "the corridor maze has dead ends: some steps must walk back over known edges"
    assert world_map.new_states >= 5


def test_map_counts_steps_without_a_new_state() -> None:
    from dreamteam.agents.exploration_map import ExplorationMap

    env = MazeWorld([OPEN_ROOM])
    world_map = ExplorationMap()
    obs = env.reset()
    world_map.observe(obs)
    assert world_map.new_states == 1 and world_map.steps_since_new == 0
    for action in (Action(5), Action(5), Action(5)):  # ACTION5 does nothing: the same state again
        world_map.sent(obs.grid, action)
        obs = env.step(action)
        world_map.observe(obs)
    assert world_map.new_states == 1 and world_map.steps_since_new == 3
    for aid in (1, 2, 3, 4):
        world_map.sent(obs.grid, Action(aid))
        after = env.step(Action(aid))
        world_map.observe(after)
        if not np.array_equal(after.grid, obs.grid):
            break
        obs = after
    assert world_map.new_states == 2 and world_map.steps_since_new == 0


def test_the_teams_map_tries_a_new_states_simple_actions_in_a_seeded_random_order() -> None:
    from dreamteam.agents.exploration_map import ExplorationMap, ExplorerOptions

    def first_order(seed: int, shuffle: bool) -> list[int]:
        world_map = ExplorationMap(ExplorerOptions(shuffle=shuffle), seed=seed)
        world_map.observe(MazeWorld([OPEN_ROOM]).reset())
        return [a.id for a in world_map.memory.graph.untested(world_map.key)]

    assert first_order(0, shuffle=False) == [1, 2, 3, 4, 5]  # the explorer baseline keeps the id order
    orders = {tuple(first_order(seed, shuffle=True)) for seed in range(8)}
    assert len(orders) > 1 and all(sorted(o) == [1, 2, 3, 4, 5] for o in orders)
    assert first_order(3, shuffle=True) == first_order(3, shuffle=True)


@pytest.mark.parametrize(("momentum", "low", "high"), [(0.0, 0.0, 0.45), (0.75, 0.7, 1.0)])
def test_momentum_makes_a_new_state_try_first_the_move_that_led_to_it(momentum: float, low: float,
                                                                       high: float) -> None:
    """Five moves, so a shuffled order puts the move first one time in five; momentum 0.75 most of the time."""
    from dreamteam.agents.exploration_map import ExplorationMap, ExplorerOptions

    repeats = total = 0
    for seed in range(40):
        env = MazeWorld([OPEN_ROOM])
        world_map = ExplorationMap(ExplorerOptions(shuffle=True, momentum=momentum), seed=seed)
        obs = env.reset()
        world_map.observe(obs)
        for _ in range(6):
            action = world_map.choose()
            assert action is not None
            world_map.sent(obs.grid, action)
            after = env.step(action)
            known = len(world_map.memory.graph)
            world_map.observe(after)
            if len(world_map.memory.graph) > known and action.id in (1, 2, 3, 4):  # a move into a new state
                total += 1
                repeats += world_map.memory.graph.untested(world_map.key)[0] == action
            obs = after
    assert total > 40 and low <= repeats / total <= high


@pytest.mark.parametrize("idle_after", [0, 2])
def test_clicks_on_a_colour_that_never_changed_anything_come_last(idle_after: int) -> None:
    from dreamteam.agents.exploration_map import ExplorationMap, ExplorerOptions

    env = LampPuzzle()
    world_map = ExplorationMap(ExplorerOptions(idle_colour_after=idle_after), seed=0)
    obs = env.reset()
    world_map.observe(obs)
    ranked = world_map.memory.graph.untested(world_map.key)
    colours = [int(obs.grid[a.y, a.x]) for a in ranked if a.x is not None and a.y is not None]
    assert colours[:5] == [7, 7, 2, 2, 2]  # the two decoys, then the lamps, rank first
    for action in ranked[:4]:  # both decoys and two lamps clicked: nothing happens
        world_map.sent(obs.grid, action)
        obs = env.step(action)
        world_map.observe(obs)
    chosen = world_map.frontier()[0]
    assert chosen.x is not None and chosen.y is not None
    # the explorer clicks the third lamp next; with idle colours last, a button (colour 12) comes first
    assert int(obs.grid[chosen.y, chosen.x]) == (12 if idle_after else 2)
    assert ranked[4] in world_map.memory.graph.untested(world_map.key)  # the lamp is still untested, just later


@pytest.mark.parametrize("balance", [False, True])
def test_where_every_frame_is_new_balanced_kinds_still_click(balance: bool) -> None:
    env = Comet()
    agent = ExplorerAgent(0, shuffle=True, click_enclosed=True, idle_colour_after=3, balance_kinds=balance)
    history, last = play(env, agent, 60)
    clicks = [p.action for p in history if p.action.is_click]
    if not balance:
        # a fixed order (simple actions first) spends every step on the arrows: each frame is a new state
        assert clicks == [] and last.state != "WIN"
    else:
        # kinds least tried first: a click within the first five steps, then the comet's colour is known
        # to have been clicked, so the button (another colour) is clicked next
        assert last.state == "WIN" and len(history) <= 15, [p.action.label() for p in history]


def test_balanced_kinds_keep_a_seeded_order() -> None:
    from dreamteam.agents.exploration_map import ExplorationMap, ExplorerOptions

    def first_order(seed: int) -> list[str]:
        world_map = ExplorationMap(ExplorerOptions(balance_kinds=True), seed=seed)
        world_map.observe(Comet().reset())
        return [a.label() for a in world_map.memory.graph.untested(world_map.key)]

    assert first_order(1) == first_order(1)
    assert len({tuple(first_order(seed)) for seed in range(8)}) > 1


def test_balanced_kinds_put_a_kind_that_never_changes_anything_last() -> None:
    from dreamteam.agents.exploration_map import IDLE_KIND_AFTER

    env = LampPuzzle(arrows=True)  # the arrows do nothing; the lamps' states repeat
    history, _ = play(env, ExplorerAgent(0, shuffle=True, balance_kinds=True), 60)
    arrows = [p.action.id for p in history if not p.action.is_click]
    # each arrow is tried until it has failed IDLE_KIND_AFTER times, then only clicks are left to try first
    assert all(arrows.count(aid) <= IDLE_KIND_AFTER for aid in (1, 2, 3, 4)), arrows
    assert len(history) - len(arrows) >= 60 - 4 * IDLE_KIND_AFTER


@pytest.mark.parametrize("wait", [0, 8])
def test_waits_in_a_still_frame_before_leaving_or_resetting(wait: int) -> None:
    """The level is solved by the first action and the game holds its frame for six actions: a map that
    waits plays them out; one that does not resets once both actions have changed nothing."""
    history, last = play(Pause(hold=6), ExplorerAgent(0, stall_wait=wait), 200)
    actions = [p.action.id for p in history]
    assert last.state == "WIN"
    if wait:
        assert RESET not in actions and len(actions) == 7, actions
    else:
        assert RESET in actions and len(actions) > 7, actions


def test_a_wait_is_limited_and_then_the_map_moves_on() -> None:
    """A hold longer than the wait: the map spends `stall_wait` unchanged frames there (its two untested
    actions among them), then resets to explore."""
    history, _ = play(Pause(hold=1000), ExplorerAgent(0, stall_wait=5), 30)
    actions = [p.action.id for p in history]
    assert actions[0] == 1 and RESET not in actions[:6] and actions[6] == RESET, actions


@pytest.mark.parametrize("finer", [False, True])
def test_finer_clicks_find_a_pair_of_cells_within_one_object(finer: bool) -> None:
    history, last = play(PairClick(), ExplorerAgent(0, finer_clicks=finer), 300)
    if finer:
        assert last.state == "WIN", [p.action.label() for p in history]
    else:  # one cell per object: the block is clicked at the same cell twice, never at a pair
        assert last.state != "WIN"
        assert len({p.action.label() for p in history}) <= 4


@pytest.mark.parametrize("marks", [False, True])
def test_click_marks_keep_a_click_from_looking_like_a_new_state(marks: bool) -> None:
    """Clicks do nothing but draw a fading cross: keyed with the cross, each click is a new state and the
    map never gets across the room; with the learned mark removed it walks to the goal."""
    agent = ExplorerAgent(0, click_marks=marks)
    _, last = play(MarkedRoom(), agent, 1000)
    if marks:
        assert last.state == "WIN"
        assert agent.map.marks.mark is not None and agent.map.marks.mark.duration == 8
        assert len(agent.map.memory.graph) <= 64 + 40  # the room's cells, and states keyed before the mark was known
    else:
        assert last.state != "WIN" and len(agent.map.memory.graph) > 200


def test_the_map_hands_out_the_frame_it_keys() -> None:
    """Once the mark is known, the frame observed last comes back from `as_keyed` without its cross (the
    team hashes that frame for the Critic's loop checks); any other frame comes back as it is."""
    agent = ExplorerAgent(0, click_marks=True)
    env = MarkedRoom()
    agent.begin(env.info, 200)
    obs = env.reset()
    for x, y in ((40, 12), (12, 44), (52, 52), (28, 28), (44, 36)):
        for action in [Action(CLICK, x, y)] + [Action(4), Action(3)] * 4 + [Action(2), Action(1)] * 4:
            agent.map.observe(obs)
            agent.map.sent(obs.grid, action)
            obs = env.step(action)
    assert agent.map.marks.mark is not None
    obs = env.step(Action(CLICK, 20, 20))
    agent.map.observe(obs)
    assert (obs.grid == 10).any() and not (agent.map.as_keyed(obs.grid) == 10).any()
    other = obs.grid.copy()
    other[0, 0] = 3
    assert agent.map.as_keyed(other) is other


@pytest.mark.parametrize("blind", [False, True])
def test_clicks_learned_to_ignore_where_they_land_are_tried_once_per_state(blind: bool) -> None:
    """RowFlip's click flips the picked row wherever it lands: one click per object in every state spends the
    budget on twelve decoys; once clicks are learned to be blind each state gets one."""
    agent = ExplorerAgent(0, blind_clicks=blind, hud=HudSettings(thin_bars=True))
    history, last = play(RowFlip(goal=(True, True, True, False)), agent, 300)
    assert agent.map.blind is blind
    assert (last.state == "WIN") is blind, len(history)
    if blind:
        assert all(sum(a.id == CLICK for a in actions) <= 1 + sum(a.id == CLICK for a in agent.map.memory.graph.edges[key])
                   for key, actions in agent.map.memory.graph.candidates.items())


def test_clicks_that_depend_on_where_they_land_are_not_taken_as_blind() -> None:
    agent = ExplorerAgent(0, blind_clicks=True)
    _, last = play(LampPuzzle(), agent, 500)
    assert last.state == "WIN" and not agent.map.blind and agent.map.click_verdicts
    assert not any(agent.map.click_verdicts.values())


@pytest.mark.parametrize("thin", [False, True])
def test_a_one_pixel_budget_bar_that_only_flips_use_up_is_masked_with_thin_bars(thin: bool) -> None:
    agent = ExplorerAgent(0, hud=HudSettings(thin_bars=thin))
    play(RowFlip(goal=(True, True, True, True)), agent, 200)
    mask = agent.map.memory.mask
    assert bool(mask[62, 8:48].all()) is thin
    assert int(mask.sum()) == (40 if thin else 0), "only the bar"
