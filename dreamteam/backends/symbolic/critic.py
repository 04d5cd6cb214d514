"""The symbolic Critic: audits the recent trajectory and routes feedback to the surface responsible.

Request context (task "audit", surface = critique.json):
    recent_actions (labels or action dicts, oldest first), recent_hashes (frame hashes, oldest first; the
    last is the frame after the last action), deaths, level_steps, prediction_accuracy, proposals
    ({"tactics": [...], "probes": [...]})
Reply: {"flags": [...], "feedback": {role: text}, "notes"}.

Checks: a grinding loop (the frame hashes repeat with a period while the level does not change), few
distinct states over many steps, repeated deaths, low prediction accuracy (a broken hypothesis), RESET
spam, actions that never change the frame, a long level without a plan, and tactics that reuse
no-effect actions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from dreamteam.backends.symbolic.common.base import list_of
from dreamteam.protocols import RoleRequest

LOOP_WINDOW = 40
MIN_REPEATS = 2
LOW_ACCURACY = 0.5
STALL_STEPS = 150


def label(action: Any) -> str:
    """An action's label (clicks keep their coordinates)."""
    if isinstance(action, Mapping):
        name = str(action.get("action", "")).upper()
        return f"{name}@({action.get('x')},{action.get('y')})" if name == "ACTION6" else name
    return str(action).upper()


def cycle_period(hashes: Sequence[str], level_steps: int) -> int:
    """The shortest period p with which the last hashes repeat at least twice within the level (0 if none)."""
    recent = list(hashes[-min(LOOP_WINDOW, max(level_steps, 0) + 1) :])
    for period in range(1, len(recent) // (MIN_REPEATS + 1) + 1):
        span = period * (MIN_REPEATS + 1)
        tail = recent[-span:]
        if len(tail) == span and all(tail[i] == tail[i + period] for i in range(span - period)):
            return period
    return 0


def no_effect_actions(actions: Sequence[Any], hashes: Sequence[str], tries: int = 3) -> list[str]:
    """Labels whose every recent use left the frame hash unchanged (at least `tries` uses)."""
    changed: dict[str, list[bool]] = defaultdict(list)
    pairs = min(len(actions), len(hashes) - 1)
    for k in range(1, pairs + 1):
        changed[label(actions[-k])].append(hashes[-k] != hashes[-k - 1])
    return sorted(name for name, flags in changed.items() if len(flags) >= tries and not any(flags))


def _check_loop(ctx: Mapping[str, Any], flags: list[str], feedback: dict[str, list[str]]) -> None:
    hashes = [str(h) for h in list_of(ctx, "recent_hashes")]
    steps = int(ctx.get("level_steps") or len(hashes))
    period = cycle_period(hashes, steps)
    window = hashes[-min(len(hashes), steps, LOOP_WINDOW):]
    if period:
        flags.append(f"grinding loop: the last {period * (MIN_REPEATS + 1)} frames cycle with period {period}")
        feedback["inductive"].append(f"plans cycle through {period} states without progress; prefer novel states")
        feedback["leader"].append("break the loop: run a probe or a different tactic")
    elif len(window) >= 20 and len(set(window)) <= len(window) // 5:
        flags.append(f"grinding loop: only {len(set(window))} distinct frames in the last {len(window)} steps")
        feedback["inductive"].append("the trajectory keeps revisiting a few states; aim at the frontier")
        feedback["leader"].append("few new states lately: probe instead of repeating tactics")


def _check_health(ctx: Mapping[str, Any], flags: list[str], feedback: dict[str, list[str]]) -> None:
    deaths = int(ctx.get("deaths") or 0)
    if deaths >= 2:
        flags.append(f"repeated deaths: {deaths}")
        feedback["simulator"].append(f"{deaths} deaths so far: learn which moves end the level (fatal colours)")
        feedback["leader"].append("avoid actions the model predicts fatal")
    accuracy = ctx.get("prediction_accuracy")
    if isinstance(accuracy, int | float) and accuracy < LOW_ACCURACY and list_of(ctx, "recent_actions"):
        flags.append(f"broken hypothesis: prediction accuracy {accuracy:.2f}")
        feedback["simulator"].append(f"recent prediction accuracy is {accuracy:.2f}: revise the rules that fail")
        feedback["transductive"].append("probe the actions whose effects are mispredicted")
    recent = [label(a) for a in list_of(ctx, "recent_actions")[-10:]]
    if recent.count("RESET") >= 3:
        flags.append(f"reset spam: {recent.count('RESET')} RESETs in the last {len(recent)} actions")
        feedback["leader"].append("stop resetting: a RESET loses the level's progress")
    if int(ctx.get("level_steps") or 0) > STALL_STEPS and not _proposals(ctx, "tactics"):
        flags.append(f"stalled level: {ctx.get('level_steps')} steps and no tactic")
        feedback["inductive"].append("no tactic after many steps: widen the sub-goals")


def _proposals(ctx: Mapping[str, Any], key: str) -> list[Any]:
    proposals = ctx.get("proposals")
    return list_of(proposals, key) if isinstance(proposals, Mapping) else []


def _check_proposals(ctx: Mapping[str, Any], flags: list[str], feedback: dict[str, list[str]]) -> None:
    useless = no_effect_actions(list_of(ctx, "recent_actions"), [str(h) for h in list_of(ctx, "recent_hashes")])
    if useless:
        flags.append(f"no-effect actions: {', '.join(useless)}")
        feedback["transductive"].append(f"{', '.join(useless)} changed nothing in 3+ tries; probe elsewhere")
    for t in _proposals(ctx, "tactics"):
        names = {label(a) for a in (t.get("actions") or [])} if isinstance(t, Mapping) else set()
        if names and names <= set(useless):
            feedback["inductive"].append(f"tactic {t.get('name')!r} only uses actions that changed nothing")


class CriticAnswerer:
    """Loop, death, accuracy, reset and usefulness checks, routed to the responsible role."""

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Reply content for one "audit" request."""
        ctx = request.context
        flags: list[str] = []
        feedback: dict[str, list[str]] = defaultdict(list)
        _check_loop(ctx, flags, feedback)
        _check_health(ctx, flags, feedback)
        _check_proposals(ctx, flags, feedback)
        routed = {role: "; ".join(texts) for role, texts in sorted(feedback.items()) if texts}
        return {"flags": flags, "feedback": routed,
                "notes": f"{len(flags)} flags" + (f": {flags[0]}" if flags else "; nothing to report")}
