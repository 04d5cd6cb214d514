"""Learn how pushed objects behave: tints (a block that shows another colour on a target) and the pushed unit.

Evidence comes from pushes: a mover steps into the cells of a small object, the object's cells are left, and
the cells one step further all show one colour `shown` where they showed one colour `under` before. When
`shown` is the object's own colour that is a plain push onto `under`; when it is a third colour (neither the
object's nor `under`'s) it is a tint. A tint is adopted when it fits over twice as many pushes onto `under`
as the plain push does. The object stays pushable whatever it shows, so every tinted colour is pushable by
the mover that tinted it (the block that turned green on a target can be pushed off it again).

The pushed unit is a one-colour region by default; where pushes against same-colour blocks side by side
show them moving one at a time (or not at all, one stopping the other), the single-cell reading is adopted:
both readings are run on every push where they differ and the one right on more of them wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from dreamteam.backends.symbolic.common.artifact_dyn import lib_try_move, lib_try_slide
from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition, primary_moves, touching
from dreamteam.backends.symbolic.worldmodel.model import MoveRule, TintRule

MAX_OBJECT = 16
"""Largest pushed object (in logical cells) read as a push: bigger regions are floors and walls."""


@dataclass(frozen=True, slots=True)
class _Push:
    """One observed push: `mover` pushed a `colour` object onto `under` cells that then showed `shown`."""

    mover: int
    colour: int
    under: int
    shown: int


def _pushes(t: Transition, mover: int, cells: frozenset[tuple[int, int]], dx: int, dy: int) -> list[_Push]:
    before, after = t.before.grid, t.after.grid
    rows, cols = before.shape
    out = []
    seen: set[tuple[int, int]] = set()
    for x, y in sorted(cells):
        fx, fy = x + dx, y + dy
        if (fx, fy) in cells or (fx, fy) in seen or not (0 <= fx < cols and 0 <= fy < rows):
            continue
        colour = int(before[fy, fx])
        if colour == mover:
            continue
        seed = np.zeros_like(before, dtype=bool)
        seed[fy, fx] = True
        body = touching(before == colour, seed)
        ys, xs = np.nonzero(body)
        seen |= set(zip(xs.tolist(), ys.tolist(), strict=True))
        if len(xs) > MAX_OBJECT:
            continue
        own = set(zip(xs.tolist(), ys.tolist(), strict=True))
        landing = {(bx + dx, by + dy) for bx, by in own}
        if any(not (0 <= lx < cols and 0 <= ly < rows) for lx, ly in landing):
            continue
        if any(int(after[by, bx]) == colour for bx, by in own - landing):
            continue
        unders = {int(before[ly, lx]) for lx, ly in landing - own}
        shown = {int(after[ly, lx]) for lx, ly in landing}
        if len(unders) != 1 or len(shown) != 1:
            continue
        under, now = unders.pop(), shown.pop()
        if now != under:
            out.append(_Push(mover, colour, under, now))
    return out


def observed_pushes(transitions: Sequence[Transition], cache: MotionCache) -> list[_Push]:
    """Every push the window shows, plain or tinted."""
    found = []
    for t in transitions:
        if not t.local or t.label == "ACTION6":
            continue
        found += cache.memo("pushes", t, None, partial(_pushes_in, t, cache))
    return found


def _pushes_in(t: Transition, cache: MotionCache) -> list[_Push]:
    motions = cache.get(t)
    found = []
    for mover, (dx, dy) in primary_moves(t, motions).items():
        found += _pushes(t, mover, motions[mover].cells, dx, dy)
    return found


def learn_tints(transitions: Sequence[Transition], cache: MotionCache) -> tuple[TintRule, ...]:
    """The adopted tints (colour, under) -> shown, with their evidence and the plain pushes against them."""
    pushes = observed_pushes(transitions, cache)
    plain = Counter((p.colour, p.under) for p in pushes if p.shown == p.colour)
    tinted = Counter((p.mover, p.colour, p.under, p.shown) for p in pushes if p.shown != p.colour)
    best: dict[tuple[int, int], tuple[int, int, int]] = {}
    for (mover, colour, under, shown), count in tinted.items():
        if count > best.get((colour, under), (0, 0, 0))[0]:
            best[(colour, under)] = (count, shown, mover)
    rules = []
    for (colour, under), (count, shown, mover) in sorted(best.items()):
        against = plain[(colour, under)]
        if count > 2 * against:
            rules.append(TintRule(colour, under, shown, mover, count, against))
    return tuple(rules)


def with_tinted_pushables(moves: Sequence[MoveRule], tints: Sequence[TintRule]) -> tuple[MoveRule, ...]:
    """Move rules whose mover tinted an object push that object in both its colours (and are not stopped
    by either)."""
    extra: dict[int, set[int]] = {}
    for tint in tints:
        extra.setdefault(tint.mover, set()).update((tint.colour, tint.shown))
    out = []
    for rule in moves:
        more = extra.get(rule.colour, set()) - {rule.colour}
        if not more:
            out.append(rule)
            continue
        kept = [(b, s) for b, s in zip(rule.blockers, rule.stops, strict=True) if b not in more]
        out.append(replace(rule, pushable=tuple(sorted(set(rule.pushable) | more)),
                           blockers=tuple(b for b, _ in kept), stops=tuple(s for _, s in kept)))
    return tuple(out)


def learn_single_pushes(transitions: Sequence[Transition], moves: Sequence[MoveRule]) -> tuple[MoveRule, ...]:
    """Move rules with the pushed unit decided by the window: single cells when that reading predicts more of
    the pushes where the two readings differ (evidence counted per mover colour, shared by its actions)."""
    fits: dict[int, list[int]] = {}
    by_action: dict[str, list[MoveRule]] = {}
    for rule in moves:
        if rule.pushable:
            by_action.setdefault(rule.action, []).append(rule)
    if not by_action:
        return tuple(moves)
    for t in transitions:
        if not t.local or t.label not in by_action:
            continue
        before = t.before.grid.tolist()
        after = t.after.grid
        for rule in by_action[t.label]:
            step = lib_try_slide if rule.slide else lib_try_move
            region, single = [list(r) for r in before], [list(r) for r in before]
            blockers, pushable = list(rule.blockers), list(rule.pushable)
            step(region, rule.colour, rule.dx, rule.dy, blockers, pushable, rule.vacated, [], False, rule.shape_table())
            step(single, rule.colour, rule.dx, rule.dy, blockers, pushable, rule.vacated, [], True, rule.shape_table())
            if region == single:
                continue
            cells = [(x, y) for y, row in enumerate(region) for x, v in enumerate(row) if v != single[y][x]]
            tally = fits.setdefault(rule.colour, [0, 0])
            tally[0] += all(single[y][x] == after[y, x] for x, y in cells)
            tally[1] += all(region[y][x] == after[y, x] for x, y in cells)
    out = []
    for rule in moves:
        single_right, region_right = fits.get(rule.colour, [0, 0])
        out.append(replace(rule, single=single_right > region_right, single_fits=(single_right, region_right))
                   if single_right or region_right else rule)
    return tuple(out)
