"""Name the learned rules as HYPOTHESES entries (name, description, evidence, against, status)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from dreamteam.backends.symbolic.common.evidence import Transition
from dreamteam.backends.symbolic.worldmodel.layers import CoverEvidence
from dreamteam.backends.symbolic.worldmodel.model import ClickRule, Hypothesis, MoveRule, TickRule, WorldRules


def _colours(values: Sequence[int | str]) -> str:
    return ", ".join(str(v) for v in values)


def describe_move(rule: MoveRule) -> list[Hypothesis]:
    """The move itself, each blocker, each pushed colour and the edge of the grid."""
    c = rule.colour
    how = (f"slides every colour-{c} cell in steps of ({rule.dx}, {rule.dy}) until something stops it"
           if rule.slide else f"moves every colour-{c} cell by ({rule.dx}, {rule.dy}) logical cells")
    out = [Hypothesis(
        f"{'slide' if rule.slide else 'move'}:{rule.action}:colour{c}",
        f"{rule.action} {how}; the cells it leaves become colour {rule.vacated}",
        rule.moved, rule.unexplained,
    )]
    for blocker, count in zip(rule.blockers, rule.stops, strict=True):
        if not count:
            continue
        out.append(Hypothesis(f"block:{rule.action}:colour{c}:by{blocker}",
                              f"colour {blocker} in the way stops colour {c} moving on {rule.action}", count))
    for (blocker, shapes), count in zip(rule.shaped, rule.shaped_stops, strict=True):
        out.append(Hypothesis(
            f"block:{rule.action}:colour{c}:by{blocker}:shape:{'|'.join(s.replace(' ', ';') for s in shapes)}",
            f"colour {blocker} stops colour {c} moving on {rule.action} where it fills these cells of the "
            f"mover's landing box ({' | '.join(shapes)}); in other shapes colour {c} enters it", count))
    for pushed in rule.pushable:
        out.append(Hypothesis(f"push:colour{c}:colour{pushed}",
                              f"colour {c} pushes colour-{pushed} objects one step unless they are blocked",
                              rule.moved))
    if any(rule.single_fits):
        right, against = rule.single_fits
        out.append(Hypothesis(f"push-unit:colour{c}:cell",
                              f"colour {c} pushes one cell at a time: same-colour blocks side by side are separate "
                              f"objects and one stops another (the one-colour-region reading fit {against} pushes)",
                              right, against, "adopted" if rule.single else "competing" if right else "refuted"))
    if rule.edge_stops:
        out.append(Hypothesis(f"edge:{rule.action}:colour{c}",
                              f"colour {c} cannot leave the grid on {rule.action}", rule.edge_stops))
    return out


def describe_click(rule: ClickRule) -> list[Hypothesis]:
    """The adopted click unit (and its competitor), the colour cycle and where clicks work."""
    if not rule.colour_map:
        return [Hypothesis("click:no-effect", "clicks change nothing", rule.no_effects)]
    fits = dict(rule.unit_fits)
    cycle = "; ".join(f"{a} -> {b}" for a, b in rule.colour_map)
    offsets = ", ".join(f"({dx}, {dy})" for dx, dy in rule.offsets)
    where = f" inside logical box {list(rule.region)}" if rule.region else ""
    out = []
    for unit in (u for u in ("cell", "object", "tile") if u in fits or u == rule.unit):
        status = "adopted" if unit == rule.unit else ("refuted" if fits.get(unit, 0) == 0 else "competing")
        out.append(Hypothesis(
            f"click:recolour-{unit}",
            f"a click{where} recolours the clicked {unit} and the {unit}s at offsets {offsets} ({cycle})",
            fits.get(unit, 0), rule.against if unit == rule.unit else 0, status,
        ))
    return out


def describe_tick(rule: TickRule, hud: bool = False) -> list[Hypothesis]:
    """The counter, with the competing tick conditions and their errors (`hud`: in the margin, in pixels)."""
    when = {"always": "after every action", "moved": "whenever a mover moved",
            "changed": "whenever anything else changed",
            "actions": f"after {_colours(rule.actions)}"}[rule.condition]
    others = ", ".join(f"{name}: {errors} errors" for name, errors in rule.alternatives)
    where = "anywhere" if rule.region == (0, 0, 63, 63) else f"in logical box {list(rule.region)}"
    if hud:
        where = f"in the margin's pixel box {list(rule.region)}"
    return [Hypothesis(
        f"{'hud-counter' if hud else 'counter'}:colour{rule.source}->colour{rule.target}",
        f"{rule.count} colour-{rule.source} {'pixel' if hud else 'cell'}(s) {where} become colour "
        f"{rule.target} {when}, taken {rule.order} (conditions compared: {others})",
        rule.evidence, rule.errors,
    )]


def describe_covers(evidence: Sequence[CoverEvidence]) -> list[Hypothesis]:
    """Per covered colour: whether it reappears when a mover leaves it, with both counts."""
    out = []
    for e in evidence:
        out.append(Hypothesis(
            f"layer:colour{e.colour}:restored",
            f"a cell a mover leaves shows colour {e.colour} again where the level start showed it "
            f"(competing with the vacated colour, which fit {e.vacated} such cells)",
            e.restored, e.vacated, "adopted" if e.adopted else "competing" if e.restored else "refuted"))
    return out


def describe_noops(transitions: Sequence[Transition]) -> list[Hypothesis]:
    """Actions that never changed the frame in the window."""
    seen: dict[str, list[bool]] = defaultdict(list)
    for t in transitions:
        if t.local:
            seen[t.label].append(bool(t.changed().any()))
    return [Hypothesis(f"no-effect:{label}", f"{label} has not changed the frame yet", len(flags))
            for label, flags in sorted(seen.items()) if not any(flags) and label != "ACTION6"]


def describe(rules: WorldRules, transitions: Sequence[Transition]) -> list[Hypothesis]:
    """Every hypothesis of a learned rule set."""
    out = [h for m in rules.moves for h in describe_move(m)]
    if rules.click is not None:
        out += describe_click(rules.click)
    out += [h for t in rules.ticks for h in describe_tick(t)]
    out += [h for t in rules.hud_ticks for h in describe_tick(t, hud=True)]
    out += [Hypothesis(f"patrol:colour{p.colour}",
                       f"colour {p.colour} moves on its own, one cell per action whatever the action (seen under "
                       f"{p.actions} actions), along {len(p.routes)} learned route steps; the cell it leaves "
                       f"becomes colour {p.vacated}; sharing or swapping a cell with a mover is a touch",
                       p.evidence, p.against) for p in rules.patrols]
    out += [Hypothesis(f"tint:colour{t.colour}:on:colour{t.under}:as:colour{t.shown}",
                       f"a colour-{t.colour} object pushed onto colour {t.under} shows colour {t.shown} there (and "
                       f"the cell it leaves shows colour {t.under} again); plain pushes onto colour {t.under} "
                       f"compete", t.evidence, t.against) for t in rules.tints]
    for colour in rules.goals:
        ups = sum(1 for t in transitions if t.level_up)
        out.append(Hypothesis(f"goal:colour{colour}", f"a mover entering colour {colour} completes the level", ups))
    for colour in rules.fatal:
        deaths = sum(1 for t in transitions if t.game_over)
        out.append(Hypothesis(f"fatal:colour{colour}", f"a mover entering colour {colour} loses the level", deaths))
    if rules.scenes:
        resets = sum(1 for t in transitions if t.label == "RESET")
        out.append(Hypothesis("reset:nearest-level-start",
                              f"RESET shows the closest of {len(rules.scenes)} remembered level starts", resets))
    return out + describe_noops(transitions)
