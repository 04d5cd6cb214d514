"""The learned world model as data, and a Python interpreter of it that matches the generated dynamics.py.

`step_rules` applies the rules in the same order as the `dyn_step` the code generator writes: RESET
restores the nearest remembered scene; otherwise movers move (cells they left show what they covered, pushed
objects show their tints), patrols step, a click recolours, then counters tick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dreamteam.backends.symbolic.common.artifact_dyn import (
    lib_click,
    lib_click_cell,
    lib_copy_grid,
    lib_memo_key,
    lib_nearest_scene,
    lib_patrol,
    lib_tick,
    lib_tint,
    lib_try_move,
    lib_try_slide,
)
from dreamteam.backends.symbolic.common.artifact_layer import lib_restore_covered

Box = tuple[int, int, int, int]
TICK_ORDERS = ("row-last", "row-first", "column-last", "column-first")


@dataclass(frozen=True, slots=True)
class MoveRule:
    """Action `action` moves every cell of `colour` by (dx, dy) unless a blocker is in the way."""

    action: str
    colour: int
    dx: int
    dy: int
    blockers: tuple[int, ...] = ()
    pushable: tuple[int, ...] = ()
    vacated: int = 0
    moved: int = 0
    blocked: int = 0
    unexplained: int = 0
    stops: tuple[int, ...] = ()
    edge_stops: int = 0
    slide: bool = False
    single: bool = False
    """Pushed objects are single cells (same-colour blocks side by side stay apart), not one-colour regions."""
    single_fits: tuple[int, int] = (0, 0)
    """Pushes the single-cell reading predicted right where the region reading did not, and the reverse."""
    shaped: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Colours the mover enters in some shapes and is stopped by in others, with the front shapes
    (`lib_front_shape`) that stop it."""
    shaped_stops: tuple[int, ...] = ()
    """Per `shaped` colour, the stops it explains."""

    def shape_table(self) -> dict[int, list[str]] | None:
        """`shaped` as the table `lib_move` takes (None when there is none)."""
        return {colour: list(shapes) for colour, shapes in self.shaped} or None


@dataclass(frozen=True, slots=True)
class ClickRule:
    """A click recolours the clicked cell or object, and those at `offsets`, through `colour_map`."""

    colour_map: tuple[tuple[int, int], ...]
    unit: str = "cell"
    offsets: tuple[tuple[int, int], ...] = ((0, 0),)
    region: Box | None = None
    effects: int = 0
    no_effects: int = 0
    against: int = 0
    unit_fits: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class TickRule:
    """A counter: `count` cells of `source` in `region` become `target` when `condition` holds."""

    source: int
    target: int
    region: Box
    order: str
    count: int = 1
    condition: str = "always"
    actions: tuple[str, ...] = ()
    evidence: int = 0
    errors: int = 0
    alternatives: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PatrolRule:
    """Cells of `colour` move on their own, one step per action whatever the action, along learned routes.

    `routes` maps "came-from cell>cell" to the next cell, `starts` maps a cell alone to its next cell when
    every visit went the same way (a patrol's ends, a ring's cells); the cell a patroller leaves takes
    `vacated`.
    """

    colour: int
    routes: tuple[tuple[str, tuple[int, int]], ...]
    starts: tuple[tuple[str, tuple[int, int]], ...]
    vacated: int
    evidence: int = 0
    against: int = 0
    actions: int = 0

    def tables(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """(routes, starts) as the dicts dynamics.py holds."""
        return {k: list(v) for k, v in self.routes}, {k: list(v) for k, v in self.starts}


@dataclass(frozen=True, slots=True)
class TintRule:
    """A pushed `colour` object landing on `under` cells shows `shown` there (a block on a target)."""

    colour: int
    under: int
    shown: int
    mover: int
    evidence: int = 0
    against: int = 0


@dataclass(frozen=True, slots=True)
class Scene:
    """A remembered frame (a level start): geometry, logical grid as hex rows, fill and residual pixels, and
    `under`: (x, y, colour) for cells a mover covered at the start, with the colour seen there once it left."""

    geometry: tuple[int, ...]
    grid: tuple[str, ...]
    fill: int
    residual: tuple[tuple[int, int, int], ...] = ()
    under: tuple[tuple[int, int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The dict form stored in dynamics.py ("under" only when something was seen under a mover)."""
        out: dict[str, Any] = {"geometry": list(self.geometry), "grid": list(self.grid), "fill": self.fill,
                               "residual": [list(p) for p in self.residual]}
        if self.under:
            out["under"] = [list(p) for p in self.under]
        return out


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """One named rule with its evidence (and counter-evidence) in the regression window."""

    name: str
    description: str
    evidence: int
    against: int = 0
    status: str = "adopted"

    def to_json(self) -> dict[str, Any]:
        """The HYPOTHESES entry."""
        return {"name": self.name, "description": self.description, "evidence": self.evidence,
                "against": self.against, "status": self.status}


@dataclass(frozen=True, slots=True)
class WorldRules:
    """Everything the simulator learned from one regression window."""

    hints: tuple[tuple[int, ...], ...] = ()
    moves: tuple[MoveRule, ...] = ()
    click: ClickRule | None = None
    ticks: tuple[TickRule, ...] = ()
    hud_ticks: tuple[TickRule, ...] = ()
    """Counters in the margin (a HUD strip beside the cells), in display pixels: ticked on the predicted frame."""
    goals: tuple[int, ...] = ()
    fatal: tuple[int, ...] = ()
    scenes: tuple[Scene, ...] = ()
    memo: tuple[tuple[str, Scene], ...] = ()
    restored: tuple[int, ...] = ()
    patrols: tuple[PatrolRule, ...] = ()
    tints: tuple[TintRule, ...] = ()
    hypotheses: tuple[Hypothesis, ...] = field(default=())

    def mover_colours(self) -> list[int]:
        """Every colour a move rule moves or pushes, sorted."""
        return sorted({m.colour for m in self.moves} | {p for m in self.moves for p in m.pushable})

    def tint_tables(self) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
        """(colour -> under -> shown, shown -> under) as the dicts dynamics.py holds."""
        table: dict[int, dict[int, int]] = {}
        unders: dict[int, int] = {}
        for tint in self.tints:
            table.setdefault(tint.colour, {})[tint.under] = tint.shown
            unders.setdefault(tint.shown, tint.under)
        return table, unders

    def movers(self, action: str) -> list[MoveRule]:
        """The move rules of one action, in colour order."""
        return [m for m in self.moves if m.action == action]


def tick_due(rule: TickRule, action: str, moved: bool, changed: bool) -> bool:
    """Whether a counter ticks after this action."""
    if rule.condition == "moved":
        return moved
    if rule.condition == "changed":
        return changed
    if rule.condition == "actions":
        return action in rule.actions
    return True


def touch_events(entered: Sequence[int], goals: Sequence[int], fatal: Sequence[int],
                 passing: Sequence[Sequence[int]] = ()) -> list[str]:
    """Events raised by the colours a mover entered, then "passed:M:K" for each colour K a sliding mover M
    ran over (`lib_try_slide`'s `passing`)."""
    events = []
    if any(c in goals for c in entered):
        events.append("level_up")
    if any(c in fatal for c in entered):
        events.append("game_over")
    events += [f"passed:{pair[0]}:{pair[1]}" for pair in passing]
    return events


def apply_moves(rules: WorldRules, grid: list[list[int]], action: str,
                passing: list[list[int]] | None = None) -> tuple[bool, list[int]]:
    """Run the action's movers in place; (any moved, colours entered). Slides note what they ran over in
    `passing` when it is given."""
    moved, entered = False, list[int]()
    for rule in rules.movers(action):
        args = (grid, rule.colour, rule.dx, rule.dy, list(rule.blockers), list(rule.pushable), rule.vacated,
                entered, rule.single, rule.shape_table())
        moved = (lib_try_slide(*args, passing) if rule.slide else lib_try_move(*args)) or moved
    return moved, entered


def apply_patrols(rules: WorldRules, grid: list[list[int]], out: list[list[int]], changes: Sequence[Any],
                  entered: list[int], guess: bool = True) -> None:
    """Every patrol takes its step in `out` (after the action's movers moved), noting touches in `entered`
    (without `guess`, a patroller on no learned route step stays: `lib_patrol_targets`)."""
    movers = rules.mover_colours()
    for patrol in rules.patrols:
        routes, starts = patrol.tables()
        lib_patrol(grid, out, list(changes), patrol.colour, routes, starts, patrol.vacated, movers, entered, guess)


def step_rules(
    rules: WorldRules, grid: list[list[int]], action: Mapping[str, Any], geometry: Sequence[int],
    changes: Sequence[Any] = (),
) -> dict[str, Any]:
    """One predicted step on a logical grid: {"grid", "events", "moved"} or {"scene", "events"}.

    `changes` ([[x, y, colour before]] between the previous frame and `grid`) tells patrols where they came from.
    """
    name = str(action.get("action", "")).upper()
    if rules.memo:
        remembered = dict(rules.memo).get(lib_memo_key(grid, action))
        if remembered is not None:
            return {"scene": remembered.to_json(), "events": []}
    if name == "RESET":
        scene = lib_nearest_scene(grid, [s.to_json() for s in rules.scenes])
        if scene is not None:
            return {"scene": scene, "events": []}
    out = lib_copy_grid(grid)
    passing: list[list[int]] = []
    moved, entered = apply_moves(rules, out, name, passing)
    if moved and rules.restored:
        lib_restore_covered(grid, out, [s.to_json() for s in rules.scenes], rules.mover_colours(),
                            list(rules.restored))
    if moved and rules.tints:
        table, unders = rules.tint_tables()
        lib_tint(grid, out, table, unders, rules.mover_colours())
    apply_patrols(rules, grid, out, changes, entered)
    clicked = False
    if name == "ACTION6" and rules.click is not None:
        click = rules.click
        cell = lib_click_cell(action, geometry, out)
        region = list(click.region) if click.region else None
        offsets = [list(o) for o in click.offsets]
        clicked = lib_click(out, cell, dict(click.colour_map), click.unit, offsets, region)
    changed = moved or clicked
    for tick in rules.ticks:
        if tick_due(tick, name, moved, changed):
            lib_tick(out, list(tick.region), tick.source, tick.target, tick.order, tick.count)
    return {"grid": out, "events": touch_events(entered, rules.goals, rules.fatal, passing), "moved": moved}
