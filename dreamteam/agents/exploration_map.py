"""The explorer's map of a game: per-level state graphs fed with observed steps, and the choice of the next
exploring action (untested here, else a BFS path to the nearest state with untested actions).

The `explorer` agent plays with it alone; the team keeps one as its record of visited states and asks it
for the nearest untested action when its own sub-goals stop finding anything new.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from dreamteam.agents.click_targets import rank_click_targets
from dreamteam.agents.exploration_graph import ExplorationGraph, StateKey
from dreamteam.agents.level_memory import LevelMemory, Step
from dreamteam.perception import HudSettings, detect_hud_from_pairs, detect_scale, segment
from dreamteam.perception.click_marks import ClickMarkTracker
from dreamteam.types import CLICK, RESET, Action, Grid, Observation

HUD_WINDOW = 64
BLIND_AFTER = 3
BLIND_ODDS = 3
"""Clicks are taken as blind once in `BLIND_AFTER` states, and in `BLIND_ODDS` times as many states as not, the
clicks tested there all led to one next state (a state keyed by its frame can hide a counter, so the same
click from it now and then leads elsewhere)."""
IDLE_KIND_AFTER = 3
"""With `balance_kinds`, an action kind tried this often without ever changing the frame comes last."""
DEFAULT_HUD_CHECKS = (6, 12, 24, 48, 96, 192, 384, 768)


@dataclass(frozen=True, slots=True)
class ExplorerOptions:
    """Tunable knobs of the explorer (the keyword arguments of `ExplorerAgent`)."""

    max_click_targets: int = 16
    useless_after: int = 24
    death_retries: int = 2
    reset_when_stuck: bool = True
    hud_checks: tuple[int, ...] = DEFAULT_HUD_CHECKS
    hud: HudSettings = field(default_factory=HudSettings)
    shuffle: bool = False
    """Try a new state's simple actions in a seeded random order rather than by id (stochastic tie-breaking:
    with a fixed order, a state space where every step looks new walks the first action forever)."""
    click_enclosed: bool = False
    """Also click regions of the background colour enclosed by other colours (see `rank_click_targets`)."""
    idle_colour_after: int = 0
    """When positive: untested clicks on a colour clicked this often without any change anywhere come last
    (each object is still clicked once the fresh ones are used up)."""
    sample_cells: bool = False
    """Click each segment at a cell drawn (seeded) anew for every new state rather than at its cell nearest
    the centroid (see `rank_click_targets`): over many states every part of an object gets clicked."""
    momentum: float = 0.0
    """With `shuffle`: the chance that a new state tries first the simple action that led to it (a sweep in
    one direction, as a fixed order makes, where a per-state shuffle would zigzag). In a game with clicks
    `balance_kinds` reorders the kinds afterwards, so this acts where no click is available."""
    stall_wait: int = 0
    """When positive: a state where every action tried so far left the frame as it was (a sink: no way out
    seen, nothing killed) is waited in, repeating its actions, until this many of them changed nothing,
    before the map walks elsewhere or resets the level. Games pause before a level-up (the frame holds
    still for a number of actions, then the next level starts): a map that leaves or resets once the
    sink's actions are tested throws the solved level away, where a random agent keeps pressing."""
    finer_clicks: bool = False
    """Once nothing untested is reachable (and a RESET would not help), give the current state and every
    state reachable from it more clicks: game cells not clicked there yet, one per segment in turn (the
    background's regions too), up to `max_click_targets` per state at a time. Each object once, then finer:
    where the part of an object clicked matters (two cells of one block clicked in turn), one cell per object
    never finds it."""
    click_marks: bool = False
    """Learn the game's click mark (a cross or ring drawn at the clicked pixel that fades after some frames,
    see `dreamteam.perception.click_marks`) and key states by frames with recent clicks' marks removed: with
    the mark in the key, every click looks like a move to a new state."""
    blind_clicks: bool = False
    """Learn that the game's clicks ignore where they land (in states with two or more clicks tested, they
    nearly always changed the frame to one next state, see `BLIND_AFTER`), and then click once per state:
    every further click there is the same action again. Where a click is a plain "act" or "confirm", one
    click per object in every state multiplies the states' untested actions by the objects on screen."""
    balance_kinds: bool = False
    """Order a new state's candidates by how often each was tried so far in the level, in any state: action
    kinds least tried first (ties in seeded random order), clicks by how often their cell was clicked. Where
    nearly every frame is a new state (an animation, a timer or a trail keeps changing it), a fixed order
    would spend the steps on the first kinds and never click; this spreads them as a random agent does,
    with clicks still on objects."""


@dataclass(frozen=True, slots=True)
class Pending:
    """The action sent last, waiting for its outcome: frame and state it was taken in."""

    grid: Grid
    key: StateKey
    action: Action


class ExplorationMap:
    """Per-level state graphs (masked-frame hashes, observed edges, deaths) and the explorer's choice rule."""

    def __init__(self, options: ExplorerOptions | None = None, seed: int = 0) -> None:
        self.options = options or ExplorerOptions()
        self.seed = seed
        self._reset_memory()

    def _reset_memory(self) -> None:
        self._rng = random.Random(self.seed)
        self.levels: dict[int, LevelMemory] = {}
        self.level = -1
        self._pending: Pending | None = None
        self._plan: list[tuple[StateKey, Action]] = []
        self.kind_tries: dict[int, int] = {}
        self.kind_changes: dict[int, int] = {}
        self.colour_clicks: dict[int, list[int]] = {}
        """Clicks per colour clicked: [tries, changes]."""
        self.level_kind_tries: Counter[int] = Counter()
        """Tries per action kind in the current level (see `balance_kinds`)."""
        self.level_label_tries: Counter[str] = Counter()
        """Tries per action label (a click's label names its cell) in the current level."""
        self.idle_tries: Counter[StateKey] = Counter()
        """Actions per state of the current level that left its frame unchanged (see `stall_wait`)."""
        self.refined_out: set[StateKey] = set()
        """States of the current level with no cell left for `finer_clicks`."""
        self._available: tuple[int, ...] = ()
        self.key: StateKey = ""
        self.new_states = 0
        self.steps_since_new = 0
        self.at_level_start = True
        self.click_verdicts: dict[tuple[int, StateKey], bool] = {}
        """Per (level, state) with two or more clicks tested: whether they all led to the same changed frame."""
        self.blind = False
        """Whether the game's clicks are learned to ignore where they land (see `blind_clicks`)."""
        self.marks = ClickMarkTracker()
        """The game's click mark, learned across levels (see `click_marks`)."""
        self._seen_raw: Grid | None = None
        self._seen: Grid | None = None
        """The last frame observed, as received and as keyed (its click marks removed)."""

    @property
    def memory(self) -> LevelMemory:
        """The memory of the level being played."""
        return self.levels[self.level]

    def observe(self, obs: Observation) -> bool:
        """Record what the last sent action did and enter the frame's state; True when the game is over."""
        if obs.game_over:
            self.marks.interrupt()
            self._record_death()
            return True
        after_reset = obs.last_action is not None and obs.last_action.id == RESET
        # Right after a RESET or a level-up the state is the level's start, whatever its frame shows (a game
        # may not restore the first frame exactly): a RESET now would restart the whole game, not the level.
        self.at_level_start = obs.last_action is None or after_reset or obs.levels_completed != self.level
        self._available = obs.available_actions
        if self._pending is not None and self._pending.action.id == RESET:
            self._pending = None  # our own RESET out of a dead end (honoured or refused): no edge, no death
        if after_reset:
            self._record_death()
        grid = self._unmarked(obs, after_reset)
        self._enter_level(obs, grid)
        if after_reset:
            self.memory.start_grid = grid.copy()  # the start a RESET returns to is the one seen last
        known = len(self.memory.graph)
        key = self._enter_state(grid)
        if self._pending is not None:
            key = self._record_step(self._pending, grid, key)
        if len(self.memory.graph) > known:
            self.new_states += 1
            self.steps_since_new = 0
        else:
            self.steps_since_new += 1
        self.key = key
        return False

    def _unmarked(self, obs: Observation, after_reset: bool) -> Grid:
        """The observed frame as the map keys it: with recent clicks' marks removed under `click_marks`."""
        grid = obs.grid
        if self.options.click_marks:
            if after_reset or obs.last_action is None or obs.levels_completed != self.level:
                self.marks.interrupt()  # a new chain of frames: nothing of the last frame shows through
            known = self.marks.mark
            grid = self.marks.frame(obs.grid, obs.last_action)
            if known is None and self.marks.mark is not None:
                # Every click "changed the frame" while its mark was taken for an answer of the game.
                self.colour_clicks = {}
                self.kind_tries.pop(CLICK, None)
                self.kind_changes.pop(CLICK, None)
        self._seen_raw, self._seen = obs.grid, grid
        return grid

    def as_keyed(self, grid: Grid) -> Grid:
        """`grid` as the map keys it, when it is the frame observed last (its click marks removed)."""
        seen, raw = self._seen, self._seen_raw
        if seen is not None and raw is not None and (grid is raw or np.array_equal(grid, raw)):
            return seen
        return grid

    def sent(self, grid: Grid, action: Action | None) -> None:
        """Remember the action sent from `grid` (the state entered last), to record its outcome next."""
        self._pending = None if action is None else Pending(self.as_keyed(grid).copy(), self.key, action)

    def choose(self) -> Action | None:
        """The explorer's next action from the current state."""
        return self._choose(self.key)

    def reset_helps(self) -> bool:
        """Whether nothing untested is reachable from here but the level's start still has some (a RESET
        is then the only way to new states, e.g. after an irreversible move)."""
        return self.options.reset_when_stuck and self._wait(self.key) is None and self._start_has_frontier(self.key)

    def frontier(self) -> list[Action]:
        """The nearest untested action: [it] when the current state has one, else the known path to the
        nearest state with untested actions followed by that state's best untested action; [] when none."""
        graph = self.memory.graph
        here = self._untested_here(self.key)
        if here is not None:
            return [here]
        path = graph.path_to_frontier(self.key, self._useful)
        if not path:
            wait = self._wait(self.key)
            if wait is not None:
                return [wait]
            if self.reset_helps() or not self._refine_reachable(self.key):
                return []
            here = self._untested_here(self.key)
            if here is not None:
                return [here]
            path = graph.path_to_frontier(self.key, self._useful)
            if not path:
                return []
        last = graph.untested(path[-1][1], self._useful)
        return [a for a, _ in path] + last[:1]

    def _enter_level(self, obs: Observation, grid: Grid) -> None:
        """Switch level memory when levels_completed changes; remember the edge that solved the level."""
        if obs.levels_completed == self.level:
            return
        known = self.level in self.levels
        if self._pending is not None and known and obs.levels_completed > self.level:
            self.memory.exit = (self._pending.grid, self._pending.action)
        self.level = obs.levels_completed
        self.level_kind_tries, self.level_label_tries, self.idle_tries = Counter(), Counter(), Counter()
        self.refined_out = set()
        if self.level not in self.levels:
            # No HUD mask carried over: a new level may place (or scale) its status bar differently.
            self.levels[self.level] = LevelMemory(np.zeros(grid.shape, dtype=bool), detect_scale(grid))
        if self.memory.start_grid is None:
            self.memory.start_grid = grid.copy()
        self._pending = None
        self._plan = []

    def _enter_state(self, grid: Grid) -> StateKey:
        """Key the frame and register it as a state with its ranked candidate actions."""
        mem = self.memory
        key = mem.key(grid)
        if key not in mem.graph:
            mem.graph.add_state(key, self._candidates(grid, mem))
            mem.state_grids[key] = grid.copy()
        return key

    def _candidates(self, grid: Grid, mem: LevelMemory) -> tuple[Action, ...]:
        """Simple actions by id, then one click per salient segment."""
        simple = tuple(Action(a) for a in sorted(set(self._available)) if a not in (RESET, CLICK))
        if self.options.shuffle:
            simple = tuple(self._rng.sample(simple, len(simple)))
            last = self._pending.action if self._pending is not None else None
            if (self.options.momentum > 0 and last is not None and last in simple
                    and self._rng.random() < self.options.momentum):
                simple = (last, *(a for a in simple if a != last))
        if CLICK not in self._available:
            return simple
        clicks = tuple(t.action for t in rank_click_targets(grid, mem.mask, mem.scale, self.options.max_click_targets,
                                                            self.options.click_enclosed,
                                                            self._rng if self.options.sample_cells else None))
        ranked = self._balanced(grid, simple, clicks) if self.options.balance_kinds else simple + clicks
        return self._one_click(ranked) if self.blind else ranked

    @staticmethod
    def _one_click(actions: tuple[Action, ...], keep: frozenset[Action] = frozenset()) -> tuple[Action, ...]:
        """The actions with only their first click (and the clicks in `keep`)."""
        first = next((a for a in actions if a.id == CLICK), None)
        return tuple(a for a in actions if a.id != CLICK or a == first or a in keep)

    def _balanced(self, grid: Grid, simple: tuple[Action, ...], clicks: tuple[Action, ...]) -> tuple[Action, ...]:
        """Simple actions and the first click by how often their kind was tried in the level (least first,
        seeded random ties; a kind that never changed anything in IDLE_KIND_AFTER tries last), then the other
        clicks; clicks ordered by how often their colour, then their cell, was clicked (an object that moves
        is still the same object)."""

        def click_tries(a: Action) -> tuple[int, int]:
            colour = int(grid[a.y, a.x]) if a.x is not None and a.y is not None else -1
            return self.colour_clicks.get(colour, [0, 0])[0], self.level_label_tries[a.label()]

        clicks = tuple(sorted(clicks, key=click_tries))  # stable: rank order on ties
        heads = list(simple) + list(clicks[:1])
        jitter = {a.label(): self._rng.random() for a in heads}

        def idle(a: Action) -> bool:
            return self._kind_idle(a.id, IDLE_KIND_AFTER)

        ordered = sorted(heads, key=lambda a: (self.level_kind_tries[a.id], jitter[a.label()]))
        active, idle_heads = [a for a in ordered if not idle(a)], [a for a in ordered if idle(a)]
        if clicks and idle(clicks[0]):
            return tuple(active + idle_heads) + clicks[1:]
        return tuple(active) + clicks[1:] + tuple(idle_heads)

    def _record_step(self, pending: Pending, grid: Grid, key: StateKey) -> StateKey:
        """Add the finished step to the level's evidence and graph; maybe refresh the HUD mask."""
        self._pending = None
        mem = self.memory
        mem.steps.append(Step(pending.grid, pending.action, grid.copy()))
        mem.graph.record(pending.key, pending.action, key)
        if key == pending.key:
            self.idle_tries[key] += 1
        self._count_kind(pending.action, changed=key != pending.key)
        self._count_colour(pending, changed=key != pending.key)
        if pending.action.id == CLICK and self.options.blind_clicks:
            self._click_verdict(pending.key)
            self._settle_blind()
        checks = self.options.hud_checks
        if mem.hud_checks_done < len(checks) and len(mem.steps) >= checks[mem.hud_checks_done]:
            mem.hud_checks_done += 1
            if self._refresh_hud(mem):
                return mem.key(grid)
        return key

    def _click_verdict(self, key: StateKey) -> None:
        """Record whether the clicks tested in `key` (two or more, not all no-ops) led to one next state."""
        clicks = [nxt for a, nxt in self.memory.graph.edges.get(key, {}).items() if a.id == CLICK]
        outcomes = set(clicks)
        if len(clicks) >= 2 and outcomes != {key}:
            self.click_verdicts[(self.level, key)] = len(outcomes) == 1

    def _settle_blind(self) -> None:
        """Learn or unlearn that clicks are blind from the verdicts: the current level's states then keep one
        click each (or get their clicks back)."""
        agree = sum(self.click_verdicts.values())
        blind = agree >= BLIND_AFTER and agree >= BLIND_ODDS * (len(self.click_verdicts) - agree)
        if blind == self.blind:
            return
        self.blind = blind
        graph = self.memory.graph
        for state, actions in list(graph.candidates.items()):
            if blind:
                graph.candidates[state] = self._one_click(actions, frozenset(graph.edges.get(state, {})))
            elif (grid := self.memory.state_grids.get(state)) is not None:
                graph.add_candidates(state, self._candidates(grid, self.memory))

    def _record_death(self) -> None:
        """Mark the pending edge as one that ended the game."""
        pending, self._pending = self._pending, None
        self._plan = []
        if pending is None or self.level not in self.levels:
            return
        mem = self.memory
        mem.steps.append(Step(pending.grid, pending.action, None))
        if not mem.bar_used_up(pending.grid):
            mem.graph.record_death(pending.key, pending.action)
        self._count_kind(pending.action, changed=True)

    def _count_kind(self, action: Action, changed: bool) -> None:
        self.kind_tries[action.id] = self.kind_tries.get(action.id, 0) + 1
        self.level_kind_tries[action.id] += 1
        self.level_label_tries[action.label()] += 1
        self.kind_changes[action.id] = self.kind_changes.get(action.id, 0) + int(changed)

    def _count_colour(self, pending: Pending, changed: bool) -> None:
        """Count a click's outcome under the colour it landed on."""
        x, y = pending.action.x, pending.action.y
        if pending.action.id != CLICK or x is None or y is None:
            return
        rows, cols = pending.grid.shape
        if 0 <= y < rows and 0 <= x < cols:
            tally = self.colour_clicks.setdefault(int(pending.grid[y, x]), [0, 0])
            tally[0] += 1
            tally[1] += int(changed)

    def _idle_colour(self, key: StateKey, action: Action) -> bool:
        """Whether `action` clicks a colour seen `idle_colour_after` times to change nothing (in state `key`)."""
        limit = self.options.idle_colour_after
        grid = self.memory.state_grids.get(key)
        if limit <= 0 or action.id != CLICK or action.x is None or action.y is None or grid is None:
            return False
        rows, cols = grid.shape
        if not (0 <= action.y < rows and 0 <= action.x < cols):
            return False
        tries, changes = self.colour_clicks.get(int(grid[action.y, action.x]), (0, 0))
        return tries >= limit and changes == 0

    def _useful(self, action: Action) -> bool:
        """False for an action kind tried many times (across levels) without ever changing anything."""
        return not self._kind_idle(action.id, self.options.useless_after)

    def _kind_idle(self, kind: int, after: int) -> bool:
        """Whether the action kind was tried at least `after` times (across levels) and never changed anything."""
        return self.kind_tries.get(kind, 0) >= after and not self.kind_changes.get(kind, 0)

    def _refresh_hud(self, mem: LevelMemory) -> bool:
        """Re-detect the HUD on recent steps; on a new mask rebuild the graph. True if it changed."""
        recent = [s for s in mem.steps[-HUD_WINDOW:] if s.after is not None]
        pairs = [(s.before, s.after) for s in recent if s.after is not None]
        clicks = [
            (s.action.x, s.action.y) if s.action.x is not None and s.action.y is not None else None
            for s in recent
        ]
        found = detect_hud_from_pairs(pairs, [s.action.id for s in recent], self.options.hud, clicks)
        merged = mem.mask | found
        if np.array_equal(merged, mem.mask):
            return False
        mem.mask = merged
        self._rebuild(mem)
        return True

    def _rebuild(self, mem: LevelMemory) -> None:
        """Re-key every recorded state and step under the level's current mask."""
        grids = list(mem.state_grids.values())
        mem.graph = ExplorationGraph(death_limit=mem.graph.death_limit)
        mem.state_grids = {}
        for grid in grids:
            self._enter_state(grid)
        for step in mem.steps:
            before_key = self._enter_state(step.before)
            if step.after is None:
                if not mem.bar_used_up(step.before):
                    mem.graph.record_death(before_key, step.action)
            else:
                mem.graph.record(before_key, step.action, self._enter_state(step.after))
        self._plan = []
        if self.options.blind_clicks:  # the verdicts were keyed by the old mask's states
            self.click_verdicts = {k: v for k, v in self.click_verdicts.items() if k[0] != self.level}
            for key in mem.graph.candidates:
                self._click_verdict(key)
            self._settle_blind()

    def _choose(self, key: StateKey) -> Action | None:
        """Known exit, else planned path, else untested here, else BFS to the frontier, else random."""
        graph = self.memory.graph
        for chooser in (self._to_exit, self._follow_plan, self._untested_here, self._to_frontier, self._wait):
            action = chooser(key)
            if action is not None:
                return action
        if self.options.reset_when_stuck and self._start_has_frontier(key):
            self._plan = []
            return Action(RESET)
        while graph.deaths and graph.death_limit <= self.options.death_retries:
            graph.death_limit += 1  # Everything reachable is tested: give edges that killed once another try.
            action = self._untested_here(key) or self._to_frontier(key)
            if action is not None:
                return action
        if self._refine_reachable(key) and (action := self._untested_here(key) or self._to_frontier(key)) is not None:
            return action
        return self._random_action(key)

    def _start_has_frontier(self, key: StateKey) -> bool:
        """Whether untested actions are still reachable from the level's start (and we are elsewhere)."""
        mem = self.memory
        if mem.start_grid is None or self.at_level_start:
            return False
        start = mem.key(mem.start_grid)
        if start == key or start not in mem.graph:
            return False
        return bool(
            mem.graph.untested(start, self._useful) or mem.graph.path_to_frontier(start, self._useful)
        )

    def _untested_here(self, key: StateKey) -> Action | None:
        """The best untested action of this state."""
        untested = self.memory.graph.untested(key, self._useful)
        fresh = [a for a in untested if not self._idle_colour(key, a)]
        return (fresh or untested)[0] if untested else None

    def _to_frontier(self, key: StateKey) -> Action | None:
        """First action of the shortest known path to a state with untested actions (the rest is planned)."""
        path = self.memory.graph.path_to_frontier(key, self._useful)
        if not path:
            return None
        self._plan = [(path[i - 1][1], path[i][0]) for i in range(1, len(path))]
        return path[0][0]

    def _wait(self, key: StateKey) -> Action | None:
        """In a sink (every tested action of `key` left it unchanged, none killed), the next action to repeat
        while fewer than `stall_wait` changed nothing here; None elsewhere or once the wait is used up."""
        graph, limit = self.memory.graph, self.options.stall_wait
        if limit <= 0 or self.idle_tries[key] >= limit or key not in graph:
            return None
        edges = graph.edges.get(key, {})
        if not edges or any(nxt != key for nxt in edges.values()) or any(k == key for k, _ in graph.deaths):
            return None
        tried = list(edges)
        return tried[self.idle_tries[key] % len(tried)]

    def _refine_reachable(self, key: StateKey) -> bool:
        """Refine `key` and every state reachable from it over known edges (see `_refine`); True when any got
        new clicks. A state with no cell left to click is remembered and skipped from then on."""
        graph = self.memory.graph
        reachable, queue = {key}, [key]
        while queue:
            for _, nxt in graph.live_edges(queue.pop()):
                if nxt not in reachable:
                    reachable.add(nxt)
                    queue.append(nxt)
        added = False
        for state in sorted(reachable - self.refined_out):
            if self._refine(state):
                added = True
            else:
                self.refined_out.add(state)
        return added

    def _refine(self, key: StateKey) -> bool:
        """With `finer_clicks`, add clicks on cells of this state not clicked here yet (see the option); True
        when some were added. Cells are game cells at the level's detected scale, then halves of them once
        each has been clicked (a scale read from a sparse frame can span several game cells), down to pixels."""
        mem = self.memory
        grid = mem.state_grids.get(key)
        if not self.options.finer_clicks or CLICK not in self._available or grid is None or self.blind:
            return False
        known = mem.graph.candidates.get(key, ())
        clicked = [(a.x, a.y) for a in known if a.id == CLICK and a.x is not None and a.y is not None]
        labels = segment(grid).labels
        pitch, x0, y0 = max(1, mem.scale.scale), mem.scale.x_offset, mem.scale.y_offset
        groups = self._unclicked(grid, labels, mem.mask, pitch, x0, y0, clicked)
        while not groups and pitch > 1:
            pitch //= 2
            groups = self._unclicked(grid, labels, mem.mask, pitch, x0, y0, clicked)
        queues = [self._rng.sample(cells, len(cells)) for cells in groups.values()]
        self._rng.shuffle(queues)
        added: list[Action] = []
        while queues and len(added) < self.options.max_click_targets:
            queue = queues.pop(0)
            x, y = queue.pop()
            added.append(Action(CLICK, x=x, y=y))
            if queue:
                queues.append(queue)
        mem.graph.add_candidates(key, tuple(added))
        return bool(added)

    @staticmethod
    def _unclicked(grid: Grid, labels: np.ndarray, mask: np.ndarray, pitch: int, x0: int, y0: int,
                   clicked: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
        """Centres of the `pitch`-sized cells (from x0, y0) with no click yet and an unmasked centre, by the
        segment label there."""
        rows, cols = grid.shape
        done = {((x - x0) // pitch, (y - y0) // pitch) for x, y in clicked}
        groups: dict[int, list[tuple[int, int]]] = {}
        half = pitch // 2
        for cy in range((rows - y0) // pitch):
            for cx in range((cols - x0) // pitch):
                x, y = x0 + cx * pitch + half, y0 + cy * pitch + half
                if (cx, cy) not in done and not mask[y, x]:
                    groups.setdefault(int(labels[y, x]), []).append((x, y))
        return groups

    def _to_exit(self, key: StateKey) -> Action | None:
        """When this level was solved before, walk back to the solving edge and take it."""
        mem = self.memory
        if mem.exit is None:
            return None
        exit_key, exit_action = mem.key(mem.exit[0]), mem.exit[1]
        if key == exit_key:
            return exit_action
        path = mem.graph.shortest_path(key, lambda node: node == exit_key)
        return path[0][0] if path else None

    def _follow_plan(self, key: StateKey) -> Action | None:
        """Next action of the current BFS plan, if we stand where the plan expects and nothing is untested here."""
        if not self._plan or self._plan[0][0] != key or self.memory.graph.untested(key, self._useful):
            self._plan = []
            return None
        return self._plan.pop(0)[1]

    def _random_action(self, key: StateKey) -> Action | None:
        """A seeded random candidate, preferring edges not known to kill; None if there is nothing at all."""
        graph = self.memory.graph
        candidates = list(graph.candidates.get(key, ()))
        alive = [a for a in candidates if not graph.is_dead(key, a)]
        pool = alive or candidates
        return pool[self._rng.randrange(len(pool))] if pool else None
