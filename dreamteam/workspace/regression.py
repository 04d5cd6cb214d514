"""The regression set R_t: a sliding window of recent transitions plus pinned ones (pure, no I/O)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

DEFAULT_WINDOW = 200
DEFAULT_PINNED_CAP = 100


def pin_reason(transition: Mapping[str, Any]) -> str:
    """Why a transition is pinned ('' when it is not): its own reason, or level-up / game-over."""
    if transition.get("pinned"):
        return str(transition.get("pin_reason") or "pinned")
    if transition.get("level_up"):
        return "level-up"
    if transition.get("game_over"):
        return "game-over"
    return ""


class RegressionWindow:
    """The last `size` transitions plus up to `pinned_cap` pinned ones (level-ups, deaths).

    Invariant: the `size` most recent transitions and the `pinned_cap` most recent pinned transitions
    are always in the window; only once more than `pinned_cap` transitions are pinned does the
    oldest pinned one leave (and only when it has also left the recent window).
    """

    def __init__(self, size: int = DEFAULT_WINDOW, pinned_cap: int = DEFAULT_PINNED_CAP) -> None:
        if size < 1 or pinned_cap < 0:
            raise ValueError(f"window size must be >= 1 and pinned cap >= 0, got {size}, {pinned_cap}")
        self.size = size
        self.pinned_cap = pinned_cap
        self._recent: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._pinned: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._last_step = -1

    def add(self, transition: Mapping[str, Any]) -> list[int]:
        """Add a transition (steps must increase); returns the steps that left the window."""
        step = int(transition["step"])
        if step <= self._last_step:
            raise ValueError(f"transition step {step} is not after the last step {self._last_step}")
        self._last_step = step
        stored = dict(transition)
        reason = pin_reason(stored)
        stored["pinned"], stored["pin_reason"] = bool(reason), reason
        self._recent[step] = stored
        if reason:
            self._pinned[step] = stored
        before = set(self._recent) | set(self._pinned)
        while len(self._recent) > self.size:
            self._recent.popitem(last=False)
        while len(self._pinned) > self.pinned_cap:
            self._pinned.popitem(last=False)
        return sorted(before - set(self._recent) - set(self._pinned))

    def extend(self, transitions: Iterable[Mapping[str, Any]]) -> None:
        """Add transitions in order."""
        for transition in transitions:
            self.add(transition)

    def steps(self) -> list[int]:
        """The steps in the window, oldest first."""
        return sorted(set(self._recent) | set(self._pinned))

    def pinned_steps(self) -> list[int]:
        """The pinned steps still in the window, oldest first."""
        return sorted(set(self._pinned) | {s for s, t in self._recent.items() if t["pinned"]})

    def transitions(self) -> list[dict[str, Any]]:
        """The window's transitions, oldest first (pinned ones included once)."""
        merged = {**self._pinned, **self._recent}
        return [merged[step] for step in sorted(merged)]

    def get(self, step: int) -> dict[str, Any] | None:
        """The transition of `step` if it is in the window."""
        return self._recent.get(step) or self._pinned.get(step)

    def __len__(self) -> int:
        return len(set(self._recent) | set(self._pinned))

    def __contains__(self, step: object) -> bool:
        return step in self._recent or step in self._pinned

    @property
    def last_step(self) -> int:
        """The step of the newest transition (-1 when empty)."""
        return self._last_step

    def manifest(self) -> dict[str, Any]:
        """A small JSON-able description of the window (sizes, steps, pinned reasons)."""
        return {
            "size": self.size,
            "pinned_cap": self.pinned_cap,
            "last_step": self._last_step,
            "steps": self.steps(),
            "pinned": {str(s): self._pinned[s]["pin_reason"] for s in self._pinned},
        }

    @classmethod
    def restore(cls, manifest: Mapping[str, Any], transitions: Mapping[int, Mapping[str, Any]]) -> RegressionWindow:
        """Rebuild a window from its manifest and the transitions of the listed steps."""
        window = cls(int(manifest.get("size", DEFAULT_WINDOW)), int(manifest.get("pinned_cap", DEFAULT_PINNED_CAP)))
        pinned = {int(s) for s in manifest.get("pinned", {})}
        steps = sorted(int(s) for s in manifest.get("steps", []))
        recent = set(steps[-window.size :])
        for step in steps:
            stored = dict(transitions[step])
            if step in pinned:
                window._pinned[step] = stored
            if step in recent:
                window._recent[step] = stored
        window._last_step = int(manifest.get("last_step", steps[-1] if steps else -1))
        return window
