"""What the team's step logic needs from the world model runner and the patch lifecycle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dreamteam.types import Action, Grid


@dataclass(frozen=True, slots=True)
class Prediction:
    """The committed prediction for one action: the predicted frame and the history after it."""

    grid: Grid | None
    history: dict[str, Any]
    error: str = ""
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PatchResult:
    """What the patch lifecycle decided about one proposed artifact."""

    surface: str
    accepted: bool
    reason: str
    replay_summary: str = ""
    counterexamples: tuple[Mapping[str, Any], ...] = ()
    report: Mapping[str, Any] | None = None


class WorldModel(Protocol):
    """Runs the workspace's observation and dynamics artifacts (in the sandbox)."""

    def load(self, surface: str, source: str) -> str | None:
        """Load an artifact; returns an error message when it is rejected."""

    def prepare(self, grid: Grid, *, then_predict: tuple[dict[str, Any], Action] | None = None) -> None:
        """Start the round trip of `grid` (and, with `then_predict` = (history, action), that prediction) without
        waiting; `roundtrip_errors` and `predict` then find the answers."""

    def roundtrip_errors(self, grid: Grid) -> int:
        """Cells where render(parse(grid)) differs from grid (-1 when the artifacts fail)."""

    def predict(self, grid: Grid, history: dict[str, Any], action: Action) -> Prediction:
        """render(predict(parse(grid), history(...), action)) and the new history."""

    def close(self) -> None:
        """Stop whatever runs the artifacts."""


class PatchLifecycle(Protocol):
    """Scope, compile, replay against the regression set, decide."""

    def submit(self, surface: str, old_source: str, new_source: str,
               transitions: Sequence[Mapping[str, Any]], companions: Mapping[str, str]) -> PatchResult:
        """Run a proposed artifact through the lifecycle."""
