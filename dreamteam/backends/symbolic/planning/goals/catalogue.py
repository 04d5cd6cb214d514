"""The goal catalogue: the goal families `goals.derive` runs (registered in `families.GOAL_FAMILIES`).

Each family is a prior about a kind of game, switchable by name; `touch` and `holding` live in
`goals.objects`. See docs/symbolic.md ("Rule and goal families") for what each one is for.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from dreamteam.backends.symbolic.common.frames import Array, colour_table
from dreamteam.backends.symbolic.planning.goals.checks import (
    Lapse,
    SubGoal,
    Test,
    _all_inside,
    _all_on,
    _collect_then_touch,
    _each_mover_on,
    _enters,
    _new_position,
    _one_more_on,
)
from dreamteam.backends.symbolic.planning.goals.derivation import GoalContext, GoalFamilyEntry
from dreamteam.backends.symbolic.planning.goals.distance import _distance_to
from dreamteam.backends.symbolic.planning.goals.gathering import Evidence, _directions
from dreamteam.backends.symbolic.planning.goals.grids import (
    MAX_TOUCH_CELLS,
    Tint,
    _aliases,
    _names,
    _on_cells,
)


def _together_goals(evidence: Evidence, start: Array, level: Array, movers_here: Collection[int],
                    present: Collection[int], tints: Sequence[Tint], walls: Collection[int] = ()) -> list[SubGoal]:
    """`together:colourK` for each colour K that every mover here has entered on its own, with no level-up
    on K seen yet, while K has a cell for each mover cell and the movers have never all stood on K at once
    (the conjunction of touches already made, which the single touches did not complete)."""
    if len(movers_here) < 2:
        return []
    group = frozenset(movers_here)
    needed = int(colour_table(group)[start].sum())
    goals = []
    for colour in sorted(set(present) - evidence.level_up_entered):
        if not all((m, colour) in evidence.pairs for m in group):
            continue
        under = _on_cells(start, colour, level, tints)
        if int(under.sum()) < needed or any(_all_inside(cells, under) for cells in evidence.visited):
            continue
        goals.append(SubGoal(f"together:colour{colour}",
                             f"every mover ({_names(group)}) on colour {colour} at once (each entered it "
                             f"alone, which did not complete the level)", 3,
                             _each_mover_on(start, colour, group, level, tints),
                             _distance_to(start, colour, group, level, tints, walls=walls)))
    return goals



def _goal_colours(evidence: Evidence, floor: Array, tints: Sequence[Tint]) -> list[int]:
    """Colours entered right before a level-up that the level start shows (or a tint stands on), sorted."""
    return sorted(evidence.level_up_entered & ({int(c) for c in np.unique(floor)} | {u for _, u, _ in tints}))


def _each_group(evidence: Evidence, start: Array, colour: int, movers_here: Collection[int],
                tints: Sequence[Tint]) -> frozenset[int] | None:
    """The colours that entered K right before a level-up (with their tints), when they show at least two cells
    here and some mover here is not one of them (one to push them); else None."""
    who = _aliases({m for m, c in evidence.level_up_pairs if c == colour}, tints)
    cells = int(colour_table(who)[start].sum())
    return who if who and cells >= 2 and not set(movers_here) <= who else None


def _all_on_goals(evidence: Evidence, start: Array, floor: Array, movers_here: Collection[int],
                  tints: Sequence[Tint], walls: Collection[int] = ()) -> list[SubGoal]:
    """`repeat-level-up-all` (every mover here that moves on its own on K) and `repeat-level-up-each` (every
    object of the colours that entered K before a level-up on K) for each colour K entered right before a
    level-up."""
    goals = []
    walkers = set(movers_here) - _aliases(evidence.pushed, tints)  # (pushed blocks have their own goal)
    for colour in _goal_colours(evidence, floor, tints):
        if len(walkers) >= 2:
            goals.append(SubGoal(f"repeat-level-up-all:colour{colour}",
                                 f"every mover ({_names(walkers)}) on colour {colour} at once", 1,
                                 _each_mover_on(start, colour, walkers, floor, tints),
                                 _distance_to(start, colour, frozenset(walkers), floor, tints, walls=walls)))
        who = _each_group(evidence, start, colour, movers_here, tints)
        if who is not None:
            goals.append(SubGoal(f"repeat-level-up-each:colour{colour}",
                                 f"every object of {_names(who)} on colour {colour} at once", 1,
                                 _all_on(start, colour, [who], floor, tints),
                                 _distance_to(start, colour, who, floor, tints, set(movers_here) - who, walls,
                                              who <= _aliases(evidence.pushed, tints))))
    return goals


def _cover_goals(evidence: Evidence, start: Array, floor: Array, movers_here: Collection[int],
                 tints: Sequence[Tint], walls: Collection[int] = ()) -> list[SubGoal]:
    """`cover:colourK` for each colour K a pushed object shows a tint on (it was seen standing on K: a block
    on its target), with no level-up on K seen yet, while K has a cell for each cell of those objects, they
    show at least two cells, K is no floor (at most `MAX_TOUCH_CELLS` cells, and at most half of the objects
    stand on it now or stood on it when the level began: the floor a block on a target leaves for is no goal):
    every such object on K at once. A guess made before any level-up (the
    first level may already ask for several); once a level-up on K is seen, `repeat-level-up-each` takes
    over. Only while some mover here is not in the group (one to push them)."""
    goals = []
    for colour in sorted({u for c, u, _ in tints if c in evidence.movers} - evidence.level_up_entered):
        who = _aliases({c for c, u, _ in tints if u == colour and c in evidence.movers}, tints) - {colour}
        cells = int(colour_table(who)[start].sum())
        under = _on_cells(start, colour, floor, tints)
        room, on = int(under.sum()), int((colour_table(who)[start] & under).sum())
        if cells < 2 or not set(movers_here) - who or not cells <= room <= MAX_TOUCH_CELLS or 2 * on > cells:
            continue
        if floor.shape == start.shape:
            began = int((colour_table(who)[floor] & _on_cells(floor, colour, floor, tints)).sum())
            if 2 * began > int(colour_table(who)[floor].sum()):
                continue  # most of them stood on K when the level began: K is where they rest, not a goal
        goals.append(SubGoal(f"cover:colour{colour}",
                             f"every object of {_names(who)} on colour {colour} at once (each shows a tint "
                             "there; no level-up seen yet)", 2,
                             _all_on(start, colour, [who], floor, tints),
                             _distance_to(start, colour, frozenset(who), floor, tints, set(movers_here) - who,
                                          walls, who <= _aliases(evidence.pushed, tints))))
    return goals


def uniform_goals(start: Array, clicks: Sequence[tuple[tuple[int, int], Array]]) -> list[SubGoal]:
    """With clicks that recolour cells: make every clickable cell one colour (a guess, tried last).

    One sub-goal per colour the clickable cells show now; e.g. a lights-out board wants all tiles lit.
    """
    if not clicks:
        return []
    mask = np.logical_or.reduce([changed for _, changed in clicks])
    colours = sorted(int(c) for c in np.unique(start[mask]))
    if len(colours) < 2:
        return []

    def same(colour: int) -> Test:
        return lambda grid, events: grid.shape == start.shape and bool((grid[mask] == colour).all())

    return [SubGoal(f"uniform:colour{c}", f"make every clickable cell colour {c}", 3, same(c)) for c in colours]


def _level_up(context: GoalContext) -> list[SubGoal]:
    return [SubGoal("level_up", "a rollout predicts the level is completed", 0,
                    lambda grid, events: "level_up" in events)]


def _all_on_family(c: GoalContext) -> list[SubGoal]:
    if c.floor is None:
        return []
    return _all_on_goals(c.evidence, c.start, c.floor, c.movers_here, c.tints, c.walls)


def _cover_family(c: GoalContext) -> list[SubGoal]:
    if c.floor is None:
        return []
    return _cover_goals(c.evidence, c.start, c.floor, c.movers_here, c.tints, c.walls)


def _repeat_level_up(c: GoalContext) -> list[SubGoal]:
    """`repeat-level-up-after` and `repeat-level-up` per colour entered right before a level-up."""
    evidence, start, level, tints = c.evidence, c.start, c.level, c.tints
    several = ({str(k) for k in _goal_colours(evidence, c.floor, tints)
                if _each_group(evidence, start, k, c.movers_here, tints) is not None} if c.floor is not None else set())
    gone = {k for k in evidence.collected if (level == k).any()}
    goals = []
    for colour in sorted(set(c.present) & evidence.level_up_entered):
        who = frozenset(m for m, k in evidence.level_up_pairs if k == colour and m in c.movers_here)
        if who and gone:
            goals.append(_after_goal(evidence, start, level, colour, who, gone, tints))
        if who:
            alone = all((m, colour) in evidence.unrewarded for m in who)  # seen entering it with no level-up
            goals.append(SubGoal(f"repeat-level-up:colour{colour}",
                                 f"make {_names(who)} enter colour {colour}, as right before a level-up",
                                 2 if str(colour) in several or gone or alone else 1,
                                 _enters(start, colour, who, tints) if str(colour) not in several
                                 else _one_more_on(start, colour, who, level, tints)))
    return goals


def _after_goal(evidence: Evidence, start: Array, level: Array, colour: int, who: frozenset[int],
                gone: Collection[int], tints: Sequence[Tint]) -> SubGoal:
    """`repeat-level-up-after:colourK`: take what was collected before every level-up, then enter K."""
    names = " and ".join(f"colour {k}" for k in sorted(gone))
    lasts = [n for k, n in evidence.lasts if k in gone]
    lapse = (Lapse(level, frozenset(gone), min(lasts), evidence.held, frozenset(evidence.movers))
             if lasts else None)
    return SubGoal(f"repeat-level-up-after:colour{colour}",
                   f"take {names} off the level (as before every level-up), then move "
                   f"{_names(who)} into or against colour {colour}"
                   + (f" within {min(lasts)} actions (it comes back after that)" if lasts else ""),
                   1, _collect_then_touch(start, level, gone, colour, who, _directions(evidence, who), tints),
                   lapse=lapse)


def _enter(c: GoalContext) -> list[SubGoal]:
    """`enter:colourK` for each colour some mover here has never entered (rarest first, walls left out)."""
    evidence, start = c.evidence, c.start
    counts = np.bincount(start.ravel().astype(np.intp) & 15, minlength=16)
    goals = []
    for colour in sorted(set(c.present) - evidence.level_up_entered, key=lambda k: (counts[k], k)):
        who = frozenset(m for m in c.movers_here if (m, colour) not in evidence.pairs)
        if who and colour not in c.walls:
            goals.append(SubGoal(f"enter:colour{colour}",
                                 f"make {_names(who)} enter colour {colour} (never touched by it yet)",
                                 3, _enters(start, colour, who, c.tints)))
    return goals


def _together_family(c: GoalContext) -> list[SubGoal]:
    return _together_goals(c.evidence, c.start, c.level, c.movers_here, c.present, c.tints, c.walls)


def _frontier(c: GoalContext) -> list[SubGoal]:
    return [SubGoal("frontier", "bring a mover to a position it has never occupied", 4,
                    _new_position(c.evidence, c.start))]


LEVEL_UP = GoalFamilyEntry("level_up", "a rollout predicts the level is completed (the game's own signal)",
                           "every game", _level_up, needs_movers=False)
ALL_ON = GoalFamilyEntry(
    "all-on", "repeat-level-up-all / -each: every mover, or every object of the colours that entered K right "
    "before a level-up, on K at once", "several avatars on their goals; several blocks on targets", _all_on_family)
COVER = GoalFamilyEntry(
    "cover", "every pushed object that shows a tint on a small colour K on K at once, before any level-up on K",
    "block pushing whose first level already asks for several blocks on targets", _cover_family)
REPEAT_LEVEL_UP = GoalFamilyEntry(
    "repeat-level-up", "a mover enters the colour it entered right before a level-up (-after: once what was "
    "collected before every level-up is taken, with a Lapse when it comes back)",
    "reach-the-exit games; keys, sparks and doors; levels that repeat their goal", _repeat_level_up)
ENTER = GoalFamilyEntry("enter", "a mover enters a colour it has never entered (rarest first, not walls)",
                        "keyboard games with unexplained colours: exits, switches, hazards", _enter)
TOGETHER = GoalFamilyEntry(
    "together", "every mover on colour K at once, where each entered K alone with no level-up",
    "several avatars that must occupy their goals together, before the first level-up", _together_family)
FRONTIER = GoalFamilyEntry("frontier", "a mover stands where no mover has stood (explore)", "every game with movers",
                           _frontier)
UNIFORM = GoalFamilyEntry("uniform", "every clickable cell one colour (one sub-goal per colour shown; tried last)",
                          "lights-out and other click boards", lambda c: uniform_goals(c.start, c.clicks),
                          needs_movers=False, stage="clicks")
