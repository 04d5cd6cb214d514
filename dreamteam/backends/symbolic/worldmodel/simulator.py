"""The symbolic Simulator: learns dynamics from the regression window and writes them out as dynamics.py.

Request context (task "maintain", surface = current dynamics.py):
    transitions      the regression set in the shared transition format (hex-row grids)
    counterexamples  transitions the current model gets wrong (merged into the window)
    feedback         peer feedback text (read for the record only)
    entities         optional, from the observer (not needed: the learner finds movers itself)
    observable       optional: the current observable.py, used to replay a non-symbolic dynamics.py
Reply: {"patch": new dynamics.py or null, "notes": text}. Notes end with a line
`entities: {...}` (JSON: role -> {"colours": [...]}) that the symbolic observer reads as feedback.

A patch is proposed only when, replayed here in-process (under the sandbox's policy and limits) over the window, it predicts strictly more
transitions than the current dynamics (or as many, with more level-up/game-over flags right or a level start
the current one does not remember) and breaks none that the current one gets right; a transition it
would break is kept as a remembered exception (dyn_MEMO) so the harness's no-regression gate can pass.
Exceptions must be paid for by the gain (a level-up or game-over flag gained counts twice), except those
for transitions of levels already completed: a new level may change a rule's details (a shorter colour
cycle, another click pattern), and the rules should then follow the level being played while the earlier
level's evidence is remembered exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from dreamteam.backends.symbolic.common.artifact_dyn import lib_memo_key
from dreamteam.backends.symbolic.common.artifacts import ArtifactCache, assigned_literal
from dreamteam.backends.symbolic.common.base import list_of, text_of
from dreamteam.backends.symbolic.common.evidence import (
    MotionCache,
    Transition,
    decode_transitions,
    transition_key,
)
from dreamteam.backends.symbolic.common.families import ALL_ON, FamilySwitches
from dreamteam.backends.symbolic.common.frames import DisplayCache, scale_hints
from dreamteam.backends.symbolic.worldmodel.codegen import code_part, dynamics_source
from dreamteam.backends.symbolic.worldmodel.learner import learn, scene_of
from dreamteam.backends.symbolic.worldmodel.model import Scene, WorldRules
from dreamteam.backends.symbolic.worldmodel.verify import predictor_for, verdicts
from dreamteam.protocols import RoleRequest

MAX_MEMO = 64
MIN_MEMO_ALLOWANCE = 2
MAX_MEMO_CHARS = 160_000
"""Bound on the characters the remembered exceptions take in dynamics.py (a key and a scene per exception,
about 1.1 characters per logical cell): with the scenes and the rules the source must stay well under the
sandbox's limit on an artifact's size (400,000 characters), or every later patch is rejected at compile
time and the world model stops learning. On a 64x64 grid this is about 17 exceptions."""


def window(context: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The regression transitions plus counterexamples not already in it, in step order."""
    raw = [t for t in list_of(context, "transitions") + list_of(context, "counterexamples")
           if isinstance(t, dict) and isinstance(t.get("action"), dict) and isinstance(t.get("before"), list)
           and isinstance(t.get("after"), list) and t["before"] and t["after"]]
    seen: set[int] = set()
    out = []
    for item in raw:
        key = transition_key(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return sorted(out, key=lambda t: int(t.get("step", 0)))


def entity_notes(rules: WorldRules) -> dict[str, dict[str, list[int]]]:
    """What the rules say about entity roles, in the observer's ENTITY_TYPES shape."""
    roles = {
        "controllable": sorted({m.colour for m in rules.moves}),
        "blocker": sorted({b for m in rules.moves for b in m.blockers}),
        "pushable": sorted({p for m in rules.moves for p in m.pushable}),
        "goal": list(rules.goals),
        "hazard": list(rules.fatal),
        "counter": sorted({t.source for t in rules.ticks}),
    }
    return {role: {"colours": colours} for role, colours in roles.items() if colours}


def new_scene(surface: str, rules: WorldRules) -> bool:
    """Whether `rules` remember a level start the current dynamics does not (a level just began: RESET and
    the search's level resets need it, though no transition of the window tells the two models apart)."""
    known = assigned_literal(surface, "dyn_SCENES")
    known_list = known if isinstance(known, list) else []
    return any(scene.to_json() not in known_list for scene in rules.scenes)


FIT_OK = 0.5
"""A world model that predicts at least this share of the window is worth re-learning after every miss."""
MAX_BACKOFF = 16
"""Below `FIT_OK` the simulator learns again only after 2, 4, ... up to this many newer transitions (or at
once after a level-up or a loss): rules that fit under half of what was seen (sprites the rule kinds do not
describe yet) are rarely fixed by one more transition, and learning costs a few hundred milliseconds a step
on a 64x64 frame."""


COSTLY_WORK = 200_000
"""Logical cells in the window's frames above which learning is costly (about 100 ms: 50 transitions of a
64x64 grid; our own games' windows stay below it). A costly learning that proposes nothing doubles the wait
before the next one, up to `MAX_BACKOFF` newer transitions, as a poor fit does: on a large board whose
sprites the rule kinds do not describe, learning again after every wrong prediction costs half a second a
step and finds nothing new."""


class SimulatorAnswerer:
    """Learns rules, generates dynamics.py, checks it against the current one, proposes it if better."""

    def __init__(self, families: FamilySwitches = ALL_ON) -> None:
        self.families = families
        self.displays = DisplayCache()
        self.motions = MotionCache()
        self.artifacts = ArtifactCache()
        self.verdicts: dict[tuple[int, int], tuple[bool, bool]] = {}
        self.interval = 1
        """Newer transitions to wait for before learning again (see MAX_BACKOFF)."""
        self.learned_at = -1
        """The step of the newest transition the last learning saw."""
        self.waiting = ""
        """Why learning waits for `interval` newer transitions (for the notes)."""

    def _backing_off(self, raw: Sequence[Mapping[str, Any]]) -> bool:
        """Whether to skip learning now: fewer than `interval` transitions since the last learning, and none
        of them a level-up or a loss."""
        newer = [t for t in raw if int(t.get("step", 0)) > self.learned_at]
        if self.interval <= 1 or any(t.get("level_up") or t.get("game_over") for t in newer):
            return False
        return len(newer) < self.interval

    def _fitted(self, raw: Sequence[Mapping[str, Any]], fit: float, fruitless_work: int = 0) -> None:
        """Schedule the next learning by how much of the window the chosen model predicts, and by what a
        learning that proposed nothing cost (`fruitless_work`: the window's logical cells, 0 when a patch
        was proposed)."""
        self.learned_at = max((int(t.get("step", 0)) for t in raw), default=-1)
        if fit < FIT_OK:
            self.interval, self.waiting = min(MAX_BACKOFF, 2 * self.interval), f"the rules fit under {FIT_OK:.0%} of the window"
        elif fruitless_work > COSTLY_WORK:
            self.interval, self.waiting = min(MAX_BACKOFF, 2 * self.interval), "the last costly learning found nothing new"
        else:
            self.interval, self.waiting = 1, ""

    def decodes(self, transition: Mapping[str, Any]) -> bool:
        """Whether both frames of a transition decode (malformed ones are left out of the window)."""
        try:
            self.displays.get(transition["before"])
            self.displays.get(transition["after"])
        except (ValueError, TypeError):
            return False
        return True

    def judge(self, source: str, transitions: Sequence[Transition],
              observable: str | None = None) -> list[tuple[bool, bool]]:
        """`verify.verdicts` (frame right, events right) for a source, remembered per (code, transition)."""
        if not source.strip():
            return [(False, not (t.level_up or t.game_over)) for t in transitions]
        # keyed by the code, not the header: a candidate learned again from a longer window has new counts in
        # its docstring and HYPOTHESES but predicts the same
        key = hash((code_part(source), observable))
        todo = [t for t in transitions if (key, t.key) not in self.verdicts]
        if todo:
            if len(self.verdicts) > 50_000:
                self.verdicts.clear()
            found = verdicts(predictor_for(source, self.artifacts, observable), todo)
            self.verdicts.update({(key, t.key): v for t, v in zip(todo, found, strict=True)})
        return [self.verdicts[(key, t.key)] for t in transitions]

    def correct(self, source: str, transitions: Sequence[Transition], observable: str | None = None) -> list[bool]:
        """Frame verdicts only (what the harness's replay gate counts)."""
        return [frame for frame, _ in self.judge(source, transitions, observable)]

    def answer(self, request: RoleRequest) -> dict[str, Any]:
        """Reply content for one "maintain" request."""
        context = request.context
        raw = [t for t in window(context) if self.decodes(t)]
        if not raw:
            return {"patch": None, "notes": "no transitions yet: nothing to learn from"}
        if self._backing_off(raw):
            return {"patch": None, "notes": f"{self.waiting}: learning again after {self.interval} newer transitions"}
        reply = self._learn(request, raw)
        fit = reply.pop("fit", 1.0)
        work = int(reply.pop("work", 0))
        self._fitted(raw, float(fit), 0 if reply.get("patch") is not None else work)
        return reply

    def _learn(self, request: RoleRequest, raw: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Learn rules from the window and decide whether to propose them (the reply carries "fit": the share
        of the window the model that stays or replaces the current one predicts, and "work": the window's
        logical cells)."""
        previous = assigned_literal(request.surface, "dyn_SCALE_HINTS") or []
        hints = scale_hints([self.displays.get(t["before"]) for t in raw[-40:]]
                            + [self.displays.get(t["after"]) for t in raw[-40:]], previous)
        transitions = decode_transitions(raw, hints, self.displays)
        work = sum(int(t.before.grid.size) for t in transitions)
        reply = self._learned(request, transitions, hints)
        return {**reply, "work": work}

    def _learned(self, request: RoleRequest, transitions: Sequence[Transition], hints: Sequence[Sequence[int]],
                 ) -> dict[str, Any]:
        """`_learn` on the decoded window."""
        rules = learn(transitions, self.motions, hints, self.families)
        source = dynamics_source(rules, len(transitions))
        entities = json.dumps(entity_notes(rules), sort_keys=True)
        if code_part(source) == code_part(request.surface):
            # judged as the current surface (whose verdicts are remembered across steps), not as the new text:
            # the same code, but a header that names the window's size would miss the cache every step
            fit = _share(self.correct(request.surface, transitions, text_of(request.context, "observable") or None))
            return {"patch": None, "fit": fit, "notes": f"rules unchanged ({len(rules.hypotheses)} hypotheses)\n"
                                                         f"entities: {entities}"}
        return self._decide(request, transitions, rules, source, entities)

    def _decide(self, request: RoleRequest, transitions: Sequence[Transition], rules: WorldRules, source: str,
                entities: str) -> dict[str, Any]:
        observable = text_of(request.context, "observable") or None
        old_judged = self.judge(request.surface, transitions, observable)
        old = [frame for frame, _ in old_judged]
        new = self.correct(source, transitions)
        event_gain = sum(e for _, e in self.judge(source, transitions)) - sum(e for _, e in old_judged)
        broken = [t for t, was, now in zip(transitions, old, new, strict=True) if was and not now]
        if broken:
            rules, source, new = self._remember(rules, transitions, broken, new)
        still_broken = sum(1 for was, now in zip(old, new, strict=True) if was and not now)
        summary = (f"{len(rules.hypotheses)} hypotheses; predicts {sum(new)}/{len(transitions)} transitions "
                   f"of the window (current dynamics: {sum(old)}); {event_gain:+d} level-up/game-over flags")
        gain = sum(new) - sum(old)
        better = gain > 0 or (gain == 0 and (event_gain > 0 or (event_gain == 0 and new_scene(request.surface, rules))))
        last_level_up = max((t.step for t in transitions if t.level_up), default=-1)
        past = sum(1 for t in broken if t.step <= last_level_up)
        # a level-up or game-over flag the current model misses is worth more than a frame: it is what the
        # search and the leader's fatal check act on, so it pays for two remembered exceptions
        allowance = max(MIN_MEMO_ALLOWANCE, gain + 2 * max(0, event_gain))
        if still_broken or not better or len(rules.memo) - past > allowance:
            reason = (f"would break {still_broken}" if still_broken else "no gain" if not better
                      else f"needs {len(rules.memo) - past} remembered exceptions on this level or later, "
                           f"more than the {allowance} allowed for a gain of {gain} frames and {event_gain} events")
            return {"patch": None, "fit": _share(old), "notes": f"{summary}; not proposed ({reason})\n"
                                                                 f"entities: {entities}"}
        memo = f"; {len(rules.memo)} remembered exceptions" if rules.memo else ""
        return {"patch": source, "fit": _share(new), "notes": f"{summary}{memo}\nentities: {entities}"}

    def _remember(self, rules: WorldRules, transitions: Sequence[Transition], broken: Sequence[Transition],
                  new: list[bool]) -> tuple[WorldRules, str, list[bool]]:
        """Keep transitions the new rules would break as exact exceptions (bounded in count and size)."""
        memo = list(rules.memo)
        chars = sum(_memo_chars(key, scene) for key, scene in memo)
        for t in broken:
            key, scene = lib_memo_key(t.before.grid.tolist(), dict(t.action)), scene_of(t.after)
            chars += _memo_chars(key, scene)
            if len(memo) >= MAX_MEMO or chars > MAX_MEMO_CHARS:
                break
            memo.append((key, scene))
        extra = [{"name": "memo:exceptions", "evidence": len(memo), "against": 0, "status": "adopted",
                  "description": f"{len(memo)} transitions no rule explains yet, remembered exactly"}]
        rules = replace(rules, memo=tuple(memo))
        source = dynamics_source(rules, len(transitions), extra)
        index = {id(t) for t in broken}
        rechecked = self.correct(source, [t for t in transitions if id(t) in index])
        fixed = iter(rechecked)
        updated = [next(fixed) if id(t) in index else ok for t, ok in zip(transitions, new, strict=True)]
        return rules, source, updated


def _share(verdicts_: Sequence[bool]) -> float:
    """The share of True verdicts (1.0 for none)."""
    return sum(verdicts_) / len(verdicts_) if verdicts_ else 1.0


def _memo_chars(key: str, scene: Scene) -> int:
    """About how many characters one remembered exception takes in dynamics.py (its key, its scene's rows
    with their quoting and indentation, its residual pixels)."""
    return len(key) + sum(len(row) + 16 for row in scene.grid) + 12 * len(scene.residual) + 64
