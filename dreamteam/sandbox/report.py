"""The replay report: per transition, whether the old and the new artifact predicted the observed outcome."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["fixed", "broken", "still_wrong", "unchanged_right"]
KINDS: tuple[Kind, ...] = ("fixed", "broken", "still_wrong", "unchanged_right")


@dataclass(frozen=True, slots=True)
class CellDiff:
    """The first cell where a prediction differs from the observed frame (`frame`: "before" or "after")."""

    x: int
    y: int
    expected: int
    got: int
    frame: str = "after"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"x": self.x, "y": self.y, "expected": self.expected, "got": self.got, "frame": self.frame}


@dataclass(frozen=True, slots=True)
class Verdict:
    """How one artifact version did on one transition."""

    right: bool
    wrong_cells: int = 0
    first_diff: CellDiff | None = None
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        diff = self.first_diff.to_json() if self.first_diff else None
        return {"right": self.right, "wrong_cells": self.wrong_cells, "first_diff": diff, "error": self.error}

    @staticmethod
    def from_wire(item: list[Any]) -> Verdict:
        """Parse the worker's compact [right, wrong_cells, diff, error] form."""
        right, wrong, diff, error = item
        first = CellDiff(int(diff[0]), int(diff[1]), int(diff[2]), int(diff[3]), str(diff[4])) if diff else None
        return Verdict(bool(right), int(wrong), first, str(error))


def classify(old_right: bool, new_right: bool) -> Kind:
    """fixed / broken (a regression) / still_wrong / unchanged_right."""
    if new_right:
        return "unchanged_right" if old_right else "fixed"
    return "broken" if old_right else "still_wrong"


@dataclass(frozen=True, slots=True)
class TransitionRecord:
    """One transition of the regression set, judged for both versions."""

    index: int
    step: int
    old: Verdict
    new: Verdict
    action: str = ""

    @property
    def kind(self) -> Kind:
        """The classification of this transition."""
        return classify(self.old.right, self.new.right)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"index": self.index, "step": self.step, "action": self.action, "kind": self.kind,
                "old": self.old.to_json(), "new": self.new.to_json()}


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """Result of replaying old and new versions of an artifact over a regression set."""

    surface: str
    records: tuple[TransitionRecord, ...]
    old_status: str = "ok"
    new_status: str = "ok"
    aborted: str | None = None
    """Why the replay did not complete (a limit on the whole call, a dead worker, an unusable companion)."""
    seconds: float = 0.0
    worker_seconds: float = 0.0

    @property
    def counts(self) -> dict[str, int]:
        """Transitions per kind (every kind present, zero when absent)."""
        found = Counter(r.kind for r in self.records)
        return {kind: found.get(kind, 0) for kind in KINDS}

    @property
    def fixed(self) -> int:
        """Transitions the new version gets right and the old one got wrong."""
        return self.counts["fixed"]

    @property
    def broken(self) -> int:
        """Regressions: transitions the old version got right and the new one gets wrong."""
        return self.counts["broken"]

    @property
    def still_wrong(self) -> int:
        """Transitions both versions get wrong."""
        return self.counts["still_wrong"]

    @property
    def unchanged_right(self) -> int:
        """Transitions both versions get right."""
        return self.counts["unchanged_right"]

    @property
    def per_second(self) -> float:
        """Transitions replayed per second of wall time (0 when nothing ran)."""
        return len(self.records) / self.seconds if self.seconds > 0 else 0.0

    def of_kind(self, kind: Kind) -> tuple[TransitionRecord, ...]:
        """The records of one kind, in replay order."""
        return tuple(r for r in self.records if r.kind == kind)

    def summary(self) -> str:
        """One line: counts and statuses."""
        if self.aborted:
            return f"replay aborted: {self.aborted}"
        counts = ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in self.counts.items())
        statuses = "" if self.new_status == "ok" else f"; new version {self.new_status}"
        return f"{len(self.records)} transitions: {counts}{statuses}"

    def to_json(self) -> dict[str, Any]:
        """JSON form (what the harness writes to evidence/replay_report.json)."""
        return {
            "surface": self.surface, "aborted": self.aborted, "old_status": self.old_status,
            "new_status": self.new_status, "counts": self.counts, "seconds": round(self.seconds, 6),
            "worker_seconds": round(self.worker_seconds, 6), "summary": self.summary(),
            "records": [r.to_json() for r in self.records],
        }
