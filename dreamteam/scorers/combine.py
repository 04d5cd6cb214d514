"""Several tactic scorers combined into one ranking, and what is recorded of it.

The combination rule (docs/scorers.md says the same):

1. A scorer's score of a tactic *counts* when its value is a finite number and its uncertainty is at most the
   scorer's gate (its `gate` attribute; no gate when it has none). Otherwise the scorer abstained on that
   tactic (value None or not finite) or was *gated* (uncertainty above its gate).
2. Each scorer's counting values are rescaled to 0..1 over this step's tactics (min-max). A scorer whose
   counting values are all equal (or that counts on fewer than two tactics) cannot tell the tactics apart and
   does not vote this step (*flat*).
3. A tactic's combined score is the weighted mean of the rescaled values of the scorers that vote on it
   (weights: each scorer's `weight` attribute, 1.0 by default); None when no scorer votes on it.
4. Tactics with a combined score come first, highest first; ties, and the tactics no scorer voted on, keep
   the Inductive Explorer's order (the `rollout` ranking). So `rollout` alone gives exactly the explorer's
   order, and wherever a learned scorer abstains or is gated the team falls back to that order.

A scorer that raises, or returns the wrong number of scores, abstains on every tactic of that step (its note
says why); the game goes on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamteam.errors import ScorerError
from dreamteam.protocols import Score
from dreamteam.scorers.registry import (
    DEFAULT_SPEC,
    LoadedScorer,
    gate_of,
    load_entry,
    parse_spec,
    weight_of,
)
from dreamteam.types import Observation, Tactic

NOTE_CHARS = 200
"""Notes are cut to this many characters in every record (a scorer's note is meant to be one short line)."""
RULE = "weighted mean of min-max rescaled values of the non-abstaining, ungated scorers; ties keep the explorer's order"

USED, ABSTAINED, GATED, FLAT, FAILED = "used", "abstained", "gated", "flat", "failed"


@dataclass(frozen=True, slots=True)
class ScorerVerdict:
    """One scorer's score of one tactic and what the combination made of it (`status`, one of USED,
    ABSTAINED, GATED, FLAT, FAILED; `scaled` the rescaled value when it was used)."""

    scorer: str
    score: Score
    status: str
    scaled: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The verdict as recorded in leader.json and the leader's context."""
        value = self.score.value
        return {"value": _round(value) if isinstance(value, float | int) and math.isfinite(value) else None,
                "uncertainty": _round(self.score.uncertainty), "note": _note(self.score.note),
                "status": self.status, "scaled": None if self.scaled is None else _round(self.scaled)}

    def text(self) -> str:
        """One phrase for the commit message, e.g. `rollout 0 (rollout rank 1/2: ...)`."""
        value = self.score.value
        shown = (f"{_round(value):g}" if isinstance(value, float | int) and math.isfinite(value) else "-")
        uncertainty = f" ±{_round(self.score.uncertainty):g}" if self.score.uncertainty else ""
        status = "" if self.status == USED else f" [{self.status}]"
        note = f" ({_note(self.score.note)})" if self.score.note.strip() else ""
        return f"{self.scorer} {shown}{uncertainty}{status}{note}"


@dataclass(frozen=True, slots=True)
class ScoredTactic:
    """A tactic with its place in the explorer's order, its combined score and every scorer's verdict."""

    tactic: Tactic
    explorer_rank: int
    """0-based index in the Inductive Explorer's order."""
    combined: float | None
    verdicts: tuple[ScorerVerdict, ...]

    def to_json(self) -> dict[str, Any]:
        """What leader.json (and the viewer) record per tactic."""
        return {"tactic": self.tactic.name, "sub_goal": self.tactic.sub_goal, "explorer_rank": self.explorer_rank,
                "combined": None if self.combined is None else _round(self.combined),
                "scores": {v.scorer: v.to_json() for v in self.verdicts}}

    def line(self) -> str:
        """One line of the commit message's `scores:` paragraph."""
        combined = "none" if self.combined is None else f"{_round(self.combined):g}"
        verdicts = "; ".join(v.text() for v in self.verdicts)
        goal = f" [{self.tactic.sub_goal}]" if self.tactic.sub_goal != self.tactic.name else ""
        return f"{self.tactic.name}{goal} explorer #{self.explorer_rank + 1}: combined {combined} · {verdicts}"


class ScorerSet:
    """The configured scorers, in spec order; `rank` combines them (see the module docstring)."""

    def __init__(self, loaded: Sequence[LoadedScorer], spec: str) -> None:
        names = [s.name for s in loaded]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ScorerError(f"scorer spec {spec!r} names {', '.join(map(repr, twice))} more than once "
                              "(each scorer's scores are recorded under its name)")
        if not loaded:
            raise ScorerError("no scorer given (the default is 'rollout')")
        self.loaded = tuple(loaded)
        self.spec = spec

    @classmethod
    def load(cls, spec: str | None = None) -> ScorerSet:
        """Parse `spec` (DEFAULT_SPEC when None) and build every scorer (ScorerError on any problem)."""
        text = DEFAULT_SPEC if spec is None else spec
        return cls([load_entry(e) for e in parse_spec(text)], text)

    @property
    def names(self) -> list[str]:
        """The scorers' names, in spec order."""
        return [s.name for s in self.loaded]

    def critiques(self) -> dict[str, list[str]]:
        """What scorers that also critique (an optional `last_critique: list[str]` attribute, set by their last
        `score` call) said about the tactics they scored last, by scorer name; empty lines are left out."""
        out: dict[str, list[str]] = {}
        for s in self.loaded:
            lines = getattr(s.scorer, "last_critique", None)
            if isinstance(lines, list | tuple):
                kept = [str(line) for line in lines if str(line).strip()]
                if kept:
                    out[s.name] = kept
        return out

    def portable_spec(self) -> str:
        """The spec with every checkpoint as an absolute path (for workers whose working directory differs)."""
        parts = []
        for s in self.loaded:
            e = s.entry
            parts.append(e.spec() if e.checkpoint is None else
                         type(e)(e.ref, e.target, str(Path(e.checkpoint).resolve())).spec())
        return ",".join(parts)

    def summary(self) -> dict[str, Any]:
        """What run.json records: the spec, each scorer (factory, checkpoint path and sha256), the rule."""
        scorers = []
        for s in self.loaded:
            item = s.summary()
            if s.entry.checkpoint is not None:
                item["checkpoint"] = str(Path(s.entry.checkpoint).resolve())
            scorers.append(item)
        return {"spec": self.spec, "scorers": scorers, "rule": RULE}

    def rank(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
             context: Mapping[str, Any]) -> list[ScoredTactic]:
        """The tactics in combined order, each with its combined score and every scorer's verdict."""
        if not tactics:
            return []
        columns = [self._column(s, state, tactics, goals, context) for s in self.loaded]
        sums = [0.0] * len(tactics)
        weights = [0.0] * len(tactics)
        for s, column in zip(self.loaded, columns, strict=True):
            w = weight_of(s.scorer)
            for i, verdict in enumerate(column):
                if verdict.scaled is not None and w > 0:
                    sums[i] += w * verdict.scaled
                    weights[i] += w
        scored = [ScoredTactic(t, i, sums[i] / weights[i] if weights[i] > 0 else None,
                               tuple(column[i] for column in columns)) for i, t in enumerate(tactics)]
        return sorted(scored, key=lambda s: (s.combined is None, -(s.combined or 0.0), s.explorer_rank))

    @staticmethod
    def _column(loaded: LoadedScorer, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
                context: Mapping[str, Any]) -> list[ScorerVerdict]:
        """One scorer's verdicts on every tactic (rescaled where they count)."""
        name = loaded.name
        try:
            scores = list(loaded.scorer.score(state, tactics, goals, context))
        except Exception as exc:  # a scorer failing mid-game abstains; the game goes on
            why = f"failed: {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
            return [ScorerVerdict(name, Score(None, 0.0, why), FAILED) for _ in tactics]
        if len(scores) != len(tactics) or not all(isinstance(s, Score) for s in scores):
            why = f"failed: returned {len(scores)} scores for {len(tactics)} tactics"
            return [ScorerVerdict(name, Score(None, 0.0, why), FAILED) for _ in tactics]
        gate = gate_of(loaded.scorer)
        statuses = [_status(s, gate) for s in scores]
        counting = [float(s.value) for s, st in zip(scores, statuses, strict=True)
                    if st == USED and s.value is not None]
        low, high = (min(counting), max(counting)) if counting else (0.0, 0.0)
        if len(counting) < 2 or high == low:
            return [ScorerVerdict(name, s, FLAT if st == USED else st) for s, st in zip(scores, statuses, strict=True)]
        return [ScorerVerdict(name, s, st, (float(s.value) - low) / (high - low)
                              if st == USED and s.value is not None else None)
                for s, st in zip(scores, statuses, strict=True)]


def _status(score: Score, gate: float | None) -> str:
    value = score.value
    if value is None or not isinstance(value, float | int) or not math.isfinite(value):
        return ABSTAINED
    uncertainty = score.uncertainty
    if gate is not None and (not math.isfinite(uncertainty) or uncertainty > gate):
        return GATED
    return USED


def _round(x: float) -> float:
    return round(float(x), 4) + 0.0  # (+ 0.0: no negative zero in the records)


def _note(text: str) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= NOTE_CHARS else line[: NOTE_CHARS - 1] + "…"
