"""Patch policies: turn a replay report into accept/reject plus counterexamples for the owning role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from dreamteam.sandbox.report import CellDiff, ReplayReport, TransitionRecord

Policy = Literal["gate", "feedback"]
POLICIES: tuple[Policy, ...] = ("gate", "feedback")
MAX_COUNTEREXAMPLES = 8


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A transition the new version gets wrong, for the owner's next call."""

    index: int
    step: int
    action: str
    kind: str
    wrong_cells: int
    first_diff: CellDiff | None
    error: str

    @staticmethod
    def from_record(record: TransitionRecord) -> Counterexample:
        """The counterexample for one replayed transition."""
        new = record.new
        return Counterexample(record.index, record.step, record.action, record.kind, new.wrong_cells, new.first_diff, new.error)

    def describe(self) -> str:
        """One line, e.g. 'step 17 ACTION3 (broken): 4 wrong cells, first (3, 4) in after: expected 5, got 0'."""
        head = f"step {self.step} {self.action} ({self.kind.replace('_', ' ')})"
        if self.error:
            return f"{head}: {self.error}"
        diff = self.first_diff
        where = f", first ({diff.x}, {diff.y}) in {diff.frame}: expected {diff.expected}, got {diff.got}" if diff else ""
        return f"{head}: {self.wrong_cells} wrong cells{where}"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "index": self.index, "step": self.step, "action": self.action, "kind": self.kind,
            "wrong_cells": self.wrong_cells, "first_diff": self.first_diff.to_json() if self.first_diff else None,
            "error": self.error, "text": self.describe(),
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether a patch is accepted, why, and the counterexamples to send back to its owner."""

    accepted: bool
    reason: str
    counterexamples: tuple[Counterexample, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"accepted": self.accepted, "reason": self.reason,
                "counterexamples": [c.to_json() for c in self.counterexamples]}


def counterexamples(report: ReplayReport, limit: int = MAX_COUNTEREXAMPLES) -> tuple[Counterexample, ...]:
    """Broken transitions first, then still-wrong ones, at most `limit`."""
    chosen = [*report.of_kind("broken"), *report.of_kind("still_wrong")][: max(0, limit)]
    return tuple(Counterexample.from_record(r) for r in chosen)


def _steps(records: tuple[TransitionRecord, ...], shown: int = 5) -> str:
    steps = ", ".join(str(r.step) for r in records[:shown])
    return steps + (", ..." if len(records) > shown else "")


def decide(
    report: ReplayReport,
    policy: str = "gate",
    allow_net_gain: bool = False,
    max_counterexamples: int = MAX_COUNTEREXAMPLES,
) -> Decision:
    """Apply a patch policy. gate: reject any regression unless `allow_net_gain` and fixed > broken.
    feedback: accept whatever loaded and ran. Both reject a replay that was aborted or a new version that
    failed to compile, load or stay within its limits."""
    if policy not in POLICIES:
        raise ValueError(f"unknown patch policy {policy!r}; policies: {', '.join(POLICIES)}")
    examples = counterexamples(report, max_counterexamples)
    if report.aborted:
        return Decision(False, f"replay aborted: {report.aborted}", examples)
    if report.new_status != "ok":
        return Decision(False, f"new version {report.new_status}", examples)
    tally = f"fixed {report.fixed}, broken {report.broken}, still wrong {report.still_wrong}, unchanged right {report.unchanged_right}"
    if policy == "feedback":
        return Decision(True, f"feedback policy accepts it ({tally})", examples)
    if report.broken == 0:
        return Decision(True, f"no regressions ({tally})", examples)
    if allow_net_gain and report.fixed > report.broken:
        return Decision(True, f"net gain: fixes {report.fixed}, breaks {report.broken} ({tally})", examples)
    broken = report.of_kind("broken")
    return Decision(
        False,
        f"breaks {len(broken)} transition(s) the old version predicted right (steps {_steps(broken)}); {tally}",
        examples,
    )
