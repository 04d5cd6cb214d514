"""Write `WorldRules` out as a readable dynamics.py: HYPOTHESES, data tables, and a generated `dyn_step`.

The generated `dyn_step` lists the learned rules action by action, in the order `model.step_rules`
applies them, so the learner can check its own interpretation against the code it proposes.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from dreamteam.backends.symbolic.common.embed import helper_source, literal
from dreamteam.backends.symbolic.worldmodel.model import PatrolRule, TickRule, WorldRules

HELPERS = ("lib_geometry", "lib_downsample", "lib_paint_cells", "lib_paint_changed", "lib_display", "lib_rebuild", "lib_copy_grid",
           "lib_try_move", "lib_try_slide", "lib_click", "lib_click_cell", "lib_tick", "lib_nearest_scene", "lib_scene_rows",
           "lib_memo_index", "lib_memo_lookup", "lib_restore_covered")
PATROL_HELPERS = ("lib_hex", "lib_changes", "lib_patrol")
TINT_HELPERS = ("lib_tint",)

ENTRY_POINTS = '''

def dyn_next_rows(rows, h, a):
    """The predicted display frame and events after action a, from the display frame rows."""
    geometry = dyn_geometry(rows, dyn_SCALE_HINTS)
    grid = dyn_downsample(rows, geometry)
    result = dyn_step(grid, h, a, geometry)
    if "scene" in result:
        out = dyn_scene_rows(result["scene"], len(rows[0]), len(rows))
    else:
        out = [list(row) for row in rows]
        dyn_paint_changed(out, grid, result["grid"], geometry)
    return {"rows": out, "events": result["events"]}


def predict(z, h, a):
    """Predict the state after action a, in the format of z (an unknown format comes back unchanged)."""
    rows = dyn_display(z)
    if rows is None:
        return z
    following = dyn_next_rows(rows, h, a)
    return dyn_rebuild(z, following["rows"], dyn_SCALE_HINTS, following["events"])


def history(z, h, a):
    """No hidden state has been learned yet: the history is carried unchanged."""
    return h
'''


PATROL_HISTORY = '''

def dyn_history_rows(rows, h):
    """The history for a step from its display frame: the logical grid (the next step's "last") and the
    cells that changed since the previous one ("changes": where moving things came from)."""
    grid = dyn_downsample(rows, dyn_geometry(rows, dyn_SCALE_HINTS))
    return {"last": dyn_hex(grid), "changes": dyn_changes(h.get("last"), grid)}


def history(z, h, a):
    """The last logical grid and what changed since the one before (patrols step from where they came from)."""
    rows = dyn_display(z)
    return h if rows is None else dyn_history_rows(rows, h)
'''
"""With patrols the history keeps the last logical grid (replacing the plain `history` above)."""


def entry_points(rules: WorldRules) -> str:
    """predict and history: with patrols, history keeps the last logical grid and what changed since; with
    counters in the margin, the predicted frame ticks them after the cells are painted."""
    points = ENTRY_POINTS
    if rules.hud_ticks:
        paint = '        dyn_paint_changed(out, grid, result["grid"], geometry)\n'
        lines = ['        moved = result["moved"]', '        changed = result["changed"]', '        name = a.get("action")']
        for rule in rules.hud_ticks:
            lines.append(f"        # hud-counter:colour{rule.source}->colour{rule.target}")
            lines.append(f"        if {_tick_guard(rule)}:")
            lines.append(f"            dyn_tick(out, {list(rule.region)}, {rule.source}, {rule.target}, "
                         f"{rule.order!r}, {rule.count})")
        points = points.replace(paint, paint + "\n".join(lines) + "\n")
    if not rules.patrols:
        return points
    plain = points[: points.index("\n\ndef history(z, h, a):")] + "\n"
    return plain + PATROL_HISTORY


def _memo_literal(memo: dict[str, Any]) -> str:
    """The remembered exceptions as a dict literal with each scene on the lines under its key: pprint would
    align a scene's rows after its key (a whole grid long), thousands of spaces per row on big grids."""
    if not memo:
        return "{}"
    entries = [f"    {key!r}:\n        {textwrap.indent(literal(scene), ' ' * 8).lstrip()}," for key, scene in memo.items()]
    return "{\n" + "\n".join(entries) + "\n}"


def _tables(rules: WorldRules) -> list[str]:
    memo = {key: scene.to_json() for key, scene in rules.memo}
    click_map = dict(rules.click.colour_map) if rules.click is not None else {}
    tints, unders = rules.tint_tables()
    return [
        f"dyn_SCALE_HINTS = {literal([list(h) for h in rules.hints])}",
        f"dyn_GOALS = {literal(list(rules.goals))}",
        f"dyn_FATAL = {literal(list(rules.fatal))}",
        f"dyn_CLICK_MAP = {literal(click_map)}",
        f"dyn_SCENES = {literal([s.to_json() for s in rules.scenes])}",
        f"dyn_MEMO = {_memo_literal(memo)}",
        f"dyn_COUNTERS = {literal([[*t.region, t.source, t.target] for t in rules.ticks])}",
        f"dyn_MOVER_COLOURS = {literal(rules.mover_colours())}",
        f"dyn_RESTORED = {literal(list(rules.restored))}",
        f"dyn_PATROLS = {literal([_patrol_table(p) for p in rules.patrols])}",
        f"dyn_TINTS = {literal(tints)}",
        f"dyn_TINT_UNDERS = {literal(unders)}",
    ]


def _patrol_table(patrol: PatrolRule) -> dict[str, Any]:
    routes, starts = patrol.tables()
    return {"colour": patrol.colour, "vacated": patrol.vacated, "routes": routes, "starts": starts}


def _patrol_lines(rules: WorldRules) -> list[str]:
    lines = []
    for i, patrol in enumerate(rules.patrols):
        lines.append(f"    # patrol:colour{patrol.colour}")
        lines.append(f"    dyn_patrol(grid, out, h.get('changes') or [], {patrol.colour}, dyn_PATROLS[{i}]['routes'], "
                     f"dyn_PATROLS[{i}]['starts'], {patrol.vacated}, dyn_MOVER_COLOURS, entered)")
    return lines


def _move_lines(rules: WorldRules) -> list[str]:
    lines: list[str] = []
    actions = sorted({m.action for m in rules.moves})
    for i, action in enumerate(actions):
        lines.append(f"    {'if' if i == 0 else 'elif'} name == {action!r}:")
        for m in rules.movers(action):
            kind, helper = ("slide", "dyn_try_slide") if m.slide else ("move", "dyn_try_move")
            lines.append(f"        # {kind}:{action}:colour{m.colour}")
            shapes = m.shape_table()
            extra = f", {m.single}, {shapes!r}" if shapes else ", True" if m.single else ""
            passing = ", passing=passing" if m.slide else ""
            lines.append(f"        moved = {helper}(out, {m.colour}, {m.dx}, {m.dy}, {list(m.blockers)}, "
                         f"{list(m.pushable)}, {m.vacated}, entered{extra}{passing}) or moved")
    return lines


def _restore_lines(rules: WorldRules) -> list[str]:
    if not rules.restored:
        return []
    return [
        "    # layer:covered-cells-restored",
        "    if moved:",
        "        dyn_restore_covered(grid, out, dyn_SCENES, dyn_MOVER_COLOURS, dyn_RESTORED)",
    ]


def _tint_lines(rules: WorldRules) -> list[str]:
    if not rules.tints:
        return []
    names = ", ".join(f"tint:colour{t.colour}:on:colour{t.under}:as:colour{t.shown}" for t in rules.tints)
    return [
        f"    # {names}",
        "    if moved:",
        "        dyn_tint(grid, out, dyn_TINTS, dyn_TINT_UNDERS, dyn_MOVER_COLOURS)",
    ]


def _click_lines(rules: WorldRules) -> list[str]:
    click = rules.click
    if click is None or not click.colour_map:
        return []
    region = list(click.region) if click.region else None
    offsets = [list(o) for o in click.offsets]
    return [
        '    if name == "ACTION6":',
        f"        # click:recolour-{click.unit}",
        f"        clicked = dyn_click(out, dyn_click_cell(a, geometry, out), dyn_CLICK_MAP, {click.unit!r}, "
        f"{offsets}, {region})",
    ]


def _tick_guard(rule: TickRule) -> str:
    return {"always": "True", "moved": "moved", "changed": "changed",
            "actions": f"name in {list(rule.actions)}"}[rule.condition]


def _tick_lines(rules: WorldRules) -> list[str]:
    lines = []
    for rule in rules.ticks:
        lines.append(f"    # counter:colour{rule.source}->colour{rule.target}")
        lines.append(f"    if {_tick_guard(rule)}:")
        lines.append(f"        dyn_tick(out, {list(rule.region)}, {rule.source}, {rule.target}, {rule.order!r}, "
                     f"{rule.count})")
    return lines


def step_source(rules: WorldRules) -> str:
    """The generated `dyn_step(grid, h, a, geometry)` (slides note what they run over only when there are any)."""
    slides = any(m.slide for m in rules.moves)
    lines = [
        "def dyn_step(grid, h, a, geometry):",
        '    """One step on the logical grid: the learned rules, in order. Returns {"grid", "events", "moved"}',
        '    or {"scene", "events"} when the whole frame is replaced."""',
        '    name = a.get("action")',
        "    if dyn_MEMO:",
        "        remembered = dyn_memo_lookup(dyn_MEMO_INDEX, grid, a)",
        "        if remembered is not None:",
        '            return {"scene": remembered, "events": []}',
        '    if name == "RESET" and dyn_SCENES:',
        '        return {"scene": dyn_nearest_scene(grid, dyn_SCENES), "events": []}',
        "    out = dyn_copy_grid(grid)",
        "    entered = []",
        *(["    passing = []"] if slides else []),
        "    moved = False",
        "    clicked = False",
    ]
    lines += _move_lines(rules) + _restore_lines(rules) + _tint_lines(rules) + _patrol_lines(rules) + _click_lines(rules)
    lines.append("    changed = moved or clicked")
    lines += _tick_lines(rules)
    lines += [
        "    events = []",
        "    if any(c in dyn_GOALS for c in entered):",
        '        events.append("level_up")',
        "    if any(c in dyn_FATAL for c in entered):",
        '        events.append("game_over")',
        *(["    for pair in passing:",
           '        events.append("passed:" + str(pair[0]) + ":" + str(pair[1]))'] if slides else []),
        '    return {"grid": out, "events": events, "moved": moved, "changed": changed}',
    ]
    return "\n".join(lines) + "\n"


def hypotheses_source(rules: WorldRules, extra: Sequence[dict[str, Any]] = ()) -> str:
    """The HYPOTHESES assignment, one hypothesis per line."""
    items = [h.to_json() for h in rules.hypotheses] + list(extra)
    if not items:
        return "HYPOTHESES = []\n"
    body = "".join(f"    {item!r},\n" for item in items)
    return f"HYPOTHESES = [\n{body}]\n"


def dynamics_source(rules: WorldRules, transitions: int, extra: Sequence[dict[str, Any]] = ()) -> str:
    """The whole dynamics.py for a rule set learned from `transitions` transitions."""
    header = (
        f'"""Dynamics surface written by the symbolic simulator from {transitions} transitions.\n\n'
        "predict(z, h, a) turns z (a logical-grid state or an object-list state) into its display frame, finds\n"
        "the logical grid with dyn_SCALE_HINTS, applies dyn_step (the learned rules, action by action) and\n"
        "returns a state in the format of z. Events a move triggers are listed in the state's \"events\".\n"
        '"""\n'
    )
    parts = [header, hypotheses_source(rules, extra), "\n".join(_tables(rules)) + "\n",
             step_source(rules), helper_source(HELPERS + (PATROL_HELPERS if rules.patrols else ())
                                                + (TINT_HELPERS if rules.tints else ()), "dyn_"),
             "dyn_MEMO_INDEX = dyn_memo_index(dyn_MEMO)\n"]
    return "\n\n".join(p.rstrip("\n") + "\n" for p in parts).rstrip("\n") + "\n" + entry_points(rules)


def code_part(source: str) -> str:
    """The source without its docstring header and HYPOTHESES (to compare rule changes, not counts)."""
    start = source.find("\ndyn_SCALE_HINTS")
    return source[start:] if start >= 0 else source
