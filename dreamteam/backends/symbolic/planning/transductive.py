"""The symbolic Transductive Explorer: proposes probes where the team knows least.

Request context (task "propose", surface = probes.json):
    frame, transitions, available_actions, tested ({action label: count}), wrong_regions (boxes
    [x0, y0, x1, y1] in display pixels, or dicts with those keys / a "bbox"), feedback
Reply: {"probes": [{"actions", "expected_effect", "target_hypothesis"}], "notes"}.

Order: (1) available actions never tried; (2) one click per class of object (same colour and shape)
never clicked; (3) the frontier: walk the known path to the nearest state with an untested action and
try it; (4) actions whose outcomes in the window disagree (sometimes a change, sometimes not, or
different changes); (5) a click or an action aimed at each region the model never predicted right.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dreamteam.backends.symbolic.common.base import list_of
from dreamteam.backends.symbolic.common.evidence import MotionCache, Transition
from dreamteam.backends.symbolic.common.frames import DisplayCache, LogicalFrame, scale_hints
from dreamteam.backends.symbolic.planning.goals import object_class as grid_object_class
from dreamteam.backends.symbolic.planning.inductive import LogicalCache, clicks_available, simple_actions
from dreamteam.perception import label_runs, run_cells
from dreamteam.protocols import RoleRequest

MAX_PROBES = 12
MAX_CLICK_PROBES = 6


def probe(actions: Sequence[dict[str, Any]], effect: str, hypothesis: str) -> dict[str, Any]:
    """A probe in the reply schema's shape."""
    return {"actions": [dict(a) for a in actions], "expected_effect": effect, "target_hypothesis": hypothesis}


def object_class(frame: LogicalFrame, cx: int, cy: int, labels: Any = None) -> tuple[int, bytes, tuple[int, ...]]:
    """(colour, shape bytes, shape size) of the object under a logical cell (`labels`: the frame's runs)."""
    if labels is None:
        labels, _ = label_runs(frame.grid)
    return grid_object_class(frame.grid, labels, cx, cy)


def click_probes(frame: LogicalFrame, transitions: Sequence[Transition]) -> list[dict[str, Any]]:
    """One click per object class never clicked, largest classes last (small objects are likelier buttons)."""
    tried = set()
    for t in transitions:
        cell = t.click_cell()
        if cell is not None:
            tried.add(object_class(t.before, *cell))
    labels, count = label_runs(frame.grid)
    firsts: dict[tuple[int, bytes, tuple[int, ...]], tuple[int, int, int]] = {}
    for label, ys, xs in run_cells(labels, count):
        y0, y1, x0, x1 = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
        crop = labels[y0 : y1 + 1, x0 : x1 + 1] == label
        cls = (int(frame.grid[ys[0], xs[0]]), crop.tobytes(), crop.shape)
        if cls not in tried and cls not in firsts:
            firsts[cls] = (len(xs), int(xs[len(xs) // 2]), int(ys[len(ys) // 2]))
    out = []
    for cls, (size, cx, cy) in sorted(firsts.items(), key=lambda item: item[1][0])[:MAX_CLICK_PROBES]:
        x, y = frame.to_display(cx, cy)
        out.append(probe([{"action": "ACTION6", "x": min(x, 63), "y": min(y, 63)}],
                         f"see whether clicking a colour-{cls[0]} object ({size} cells) changes anything",
                         f"clicks on colour-{cls[0]} objects have an effect"))
    return out


def outcome(t: Transition, cache: MotionCache) -> tuple[Any, ...]:
    """A coarse signature of what a transition did: which colours moved by how much, or changed."""
    if not t.local:
        return ("scene",)
    if not t.changed().any():
        return ("none",)
    return tuple(sorted((c, m.kind, m.dx, m.dy) for c, m in cache.get(t).items() if m.kind != "static"))


DISAGREE_SAMPLES = 8
"""An action taken this often in the window is not probed again for its varying outcome: more samples of
the same would not separate the rules (something else varies it, e.g. an object moving on its own), and
probing it forever is a grinding loop."""


def disagreeing(transitions: Sequence[Transition], cache: MotionCache) -> list[str]:
    """Simple actions whose visible effects in the window differ (doing nothing is not a disagreement),
    least sampled first, leaving out those sampled `DISAGREE_SAMPLES` times already."""
    seen: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    taken: dict[str, int] = defaultdict(int)
    for t in transitions:
        taken[t.label] += 1
        if t.label not in ("ACTION6", "RESET") and not t.game_over and outcome(t, cache) != ("none",):
            seen[t.label].add(outcome(t, cache))
    varied = [label for label, outcomes in seen.items() if len(outcomes) > 1 and taken[label] < DISAGREE_SAMPLES]
    return sorted(varied, key=lambda label: (taken[label], label))


def ineffective_here(transitions: Sequence[Transition], frame: LogicalFrame, available: Sequence[str]) -> list[str]:
    """Actions that never changed anything so far, not yet tried from this frame (a new context may differ)."""
    effects: dict[str, bool] = defaultdict(bool)
    tried_here = set()
    for t in transitions:
        effects[t.label] |= not t.local or bool(t.changed().any())
        if np.array_equal(t.before.display, frame.display):
            tried_here.add(t.label)
    return [name for name in available if name in effects and not effects[name] and name not in tried_here]


def fatal_here(transitions: Sequence[Transition], frame: LogicalFrame) -> set[str]:
    """Labels of actions that lost the level when taken from exactly this frame."""
    return {_label(t.action) for t in transitions if t.game_over and np.array_equal(t.before.display, frame.display)}


def idle_here(transitions: Sequence[Transition], frame: LogicalFrame) -> set[str]:
    """Labels of actions already taken from exactly this frame without changing it (retrying teaches nothing)."""
    return {_label(t.action) for t in transitions
            if np.array_equal(t.before.display, frame.display) and np.array_equal(t.before.display, t.after.display)}


def region_box(item: Any) -> tuple[int, int, int, int] | None:
    """A wrong region as (x0, y0, x1, y1), from a list or a dict."""
    if isinstance(item, Mapping):
        item = item.get("bbox", [item.get(k) for k in ("x0", "y0", "x1", "y1")])
    if isinstance(item, list | tuple) and len(item) == 4 and all(isinstance(v, int) for v in item):
        return int(item[0]), int(item[1]), int(item[2]), int(item[3])
    return None


def region_probes(regions: Sequence[Any], clicks: bool, transitions: Sequence[Transition]) -> list[dict[str, Any]]:
    """A click at the centre of each wrong region, or the action that last changed something there."""
    out = []
    for item in regions:
        box = region_box(item)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        if clicks:
            action = {"action": "ACTION6", "x": max(0, min(63, (x0 + x1) // 2)), "y": max(0, min(63, (y0 + y1) // 2))}
        else:
            hits = [t for t in transitions if t.label not in ("RESET", "ACTION6")
                    and (t.before.display[y0 : y1 + 1, x0 : x1 + 1] != t.after.display[y0 : y1 + 1, x0 : x1 + 1]).any()]
            if not hits:
                continue
            action = {"action": hits[-1].label}
        out.append(probe([action], f"observe the region {list(box)} again",
                         f"the model's rule for region {list(box)} is wrong"))
    return out


def frontier_probes(frontier: Any) -> list[dict[str, Any]]:
    """The walk to the nearest untested action of a known state, as one probe (none without a frontier)."""
    actions = frontier.get("actions") if isinstance(frontier, Mapping) else None
    if not isinstance(actions, list) or not actions or not all(isinstance(a, Mapping) for a in actions):
        return []
    walk = f"walk {len(actions) - 1} known steps, then " if len(actions) > 1 else ""
    return [probe(actions, f"{walk}try {_label(actions[-1])}, never tried in that state",
                  "an untested action of a known state has an effect")]


def _label(action: Mapping[str, Any]) -> str:
    name = str(action.get("action", "")).upper()
    return f"ACTION6@({action.get('x')},{action.get('y')})" if name == "ACTION6" else name


class TransductiveAnswerer:
    """Frontier probes: untested actions, unclicked object classes, ambiguous actions, wrong regions."""

    def __init__(self) -> None:
        self.displays = DisplayCache(size=256)
        self.motions = MotionCache(size=512)
        self.logicals = LogicalCache()

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Reply content for one "propose" request."""
        ctx = request.context
        available = list_of(ctx, "available_actions")
        tested = ctx.get("tested")
        tried = {str(label).split("@")[0].upper() for label, n in tested.items() if n} \
            if isinstance(tested, Mapping) else set()
        raw = list_of(ctx, "transitions")[-60:]
        hints = scale_hints([self.displays.get(t["after"]) for t in raw[-20:] if "after" in t])
        transitions = self.logicals.decode(raw, hints, self.displays)
        tried |= {t.label for t in transitions}
        simple = simple_actions(available)
        probes = [probe([{"action": name}], f"first look at what {name} does",
                        f"{name} has an effect") for name in simple if name not in tried]
        frame = self.logicals.frame(self.displays.get(ctx["frame"]), hints) if "frame" in ctx else None
        if clicks_available(available) and frame is not None:
            probes += click_probes(frame, transitions)
        probes += frontier_probes(ctx.get("frontier"))
        if frame is not None:
            probes += [probe([{"action": name}], f"{name} from a new position: it has done nothing so far",
                             f"{name} has an effect somewhere") for name in ineffective_here(transitions, frame, simple)]
        probes += [probe([{"action": name}], f"{name} again, where its outcome so far has varied",
                         f"one rule explains every outcome of {name}") for name in disagreeing(transitions, self.motions)]
        probes += region_probes(list_of(ctx, "wrong_regions"), clicks_available(available), transitions)
        avoid = (fatal_here(transitions, frame) | idle_here(transitions, frame)) if frame is not None else set()
        probes = [p for p in probes if _label(p["actions"][0]) not in avoid]
        untested = sum(1 for p in probes if p["target_hypothesis"].endswith("an effect"))
        return {"probes": probes[:MAX_PROBES],
                "notes": f"{len(probes)} probes ({untested} on untested actions or object classes)"}
