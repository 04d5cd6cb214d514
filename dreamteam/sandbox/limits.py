"""Resource limits for artifact code and the exceptions the worker uses to enforce them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

MEMORY_LIMIT = "memory limit"
OUTPUT_LIMIT = "output limit"
RECURSION_LIMIT = "recursion limit"


def timeout_reason(seconds: float) -> str:
    """The kill reason for a call that ran past `seconds`."""
    return f"timeout after {seconds}s"


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits for artifact code; the defaults are the project's policy (see docs/sandbox.md)."""

    time_s: float = 2.0
    """Wall-clock limit of one call, and of one artifact's work on one transition during a replay."""
    replay_time_s: float = 30.0
    """Wall-clock limit of a whole replay call (the worker is killed past it)."""
    memory_bytes: int = 1 << 30
    """Address-space limit of the worker process (RLIMIT_AS)."""
    print_bytes: int = 64 * 1024
    """Most characters an artifact may print during one call."""
    result_bytes: int = 8 * 1024 * 1024
    """Largest JSON reply the worker may send for one call."""
    recursion: int = 1000
    """Python stack depth available to artifact code."""
    kill_grace_s: float = 1.0
    """Extra wall time the parent waits before killing a worker whose soft deadline did not stop it."""

    def __post_init__(self) -> None:
        if self.time_s <= 0 or self.replay_time_s <= 0 or self.kill_grace_s < 0:
            raise ValueError("time limits must be positive")
        if self.memory_bytes < 256 << 20:
            raise ValueError("memory_bytes must be at least 256 MiB (the worker with numpy loaded maps about 150 MiB)")
        if self.print_bytes < 0 or self.result_bytes < 1024 or self.recursion < 50:
            raise ValueError("print_bytes >= 0, result_bytes >= 1024 and recursion >= 50 are required")

    def to_json(self) -> dict[str, Any]:
        """The limits as a JSON object."""
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Limits:
        """Inverse of `to_json`."""
        return Limits(**data)


class LimitExceeded(BaseException):  # noqa: N818 - a control-flow signal, not an error type
    """Raised inside the worker when artifact code hits a limit; derives from BaseException so that
    `except Exception` in artifact code does not swallow it (a bare except still can: the worker
    also keeps a sticky flag, and the parent kills on wall time)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
