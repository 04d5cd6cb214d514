"""Scorers plugged in by dotted path in the tests (`tests.scorers.plugins:NAME`)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dreamteam.protocols import Score
from dreamteam.types import Observation, Tactic


class Reverse:
    """Ranks the explorer's tactics in reverse: the last one proposed scores highest."""

    name = "reverse"

    def __init__(self, checkpoint: str | None = None) -> None:
        self.checkpoint = checkpoint

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        return [Score(float(i), 0.0, f"reverse: {t.name} is #{len(tactics) - i} from the end")
                for i, t in enumerate(tactics)]


class FromFile:
    """Values read from its checkpoint: one number per line, by tactic index (a stand-in for a model file)."""

    name = "fromfile"

    def __init__(self, checkpoint: str | None = None) -> None:
        if checkpoint is None:
            raise ValueError("FromFile needs a checkpoint")
        self.values = [float(x) for x in Path(checkpoint).read_text(encoding="utf-8").split()]

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        return [Score(self.values[i] if i < len(self.values) else None, 0.0, "from file") for i in range(len(tactics))]


class Unsure:
    """Prefers the last tactic, but is too uncertain about it to pass its gate; confident elsewhere."""

    name = "unsure"
    gate = 0.5

    def __init__(self, checkpoint: str | None = None) -> None:
        pass

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        n = len(tactics)
        return [Score(float(i), 0.9 if i == n - 1 else 0.1, "unsure") for i in range(n)]


class Abstains:
    """Never has an opinion."""

    name = "abstains"

    def __init__(self, checkpoint: str | None = None) -> None:
        pass

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        return [Score(None, 0.0, "no idea") for _ in tactics]


class Broken:
    """Raises on every call (a scorer that fails mid-game)."""

    name = "broken"

    def __init__(self, checkpoint: str | None = None) -> None:
        pass

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        raise RuntimeError("model exploded")


class TooFew:
    """Returns one score fewer than there are tactics."""

    name = "toofew"

    def __init__(self, checkpoint: str | None = None) -> None:
        pass

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        return [Score(1.0) for _ in tactics[1:]]


def refuses(checkpoint: str | None) -> Any:
    """A factory that fails (as a loader does on a corrupt checkpoint)."""
    raise ValueError("checkpoint has the wrong shape (expected 16x64, got 3x3)")


def not_a_scorer(checkpoint: str | None) -> Any:
    """A factory that returns something that is no TacticScorer."""
    return object()


NOT_CALLABLE = 42


class Marker:
    """The explorer's order (like rollout), and a line `pid name` appended to a log per call: its checkpoint
    is a file holding that log's path (shows which processes loaded and called the scorer)."""

    name = "marker"

    def __init__(self, checkpoint: str | None = None) -> None:
        if checkpoint is None:
            raise ValueError("Marker needs a checkpoint naming its log file")
        self.log = Path(Path(checkpoint).read_text(encoding="utf-8").strip())

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        with self.log.open("a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {len(tactics)}\n")
        return [Score(float(-i), 0.0, "marker") for i in range(len(tactics))]


class Critiques:
    """Scores nothing (abstains) but critiques: `last_critique` names the first tactic of its last call."""

    name = "critiques"

    def __init__(self, checkpoint: str | None = None) -> None:
        self.last_critique: list[str] = []

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        self.last_critique = [f"tactic {tactics[0].name} is likely to lose the level"] if tactics else []
        return [Score(None, 0.0, "critiques: abstains") for _ in tactics]
