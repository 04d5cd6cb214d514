"""Worker-side execution of artifact code under soft limits (deadline, print cap, recursion, memory)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, FrameType, TracebackType
from typing import Any

from dreamteam.sandbox.guards import PrintSink, artifact_globals
from dreamteam.sandbox.incremental import Compiled, compile_incremental
from dreamteam.sandbox.limits import (
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    RECURSION_LIMIT,
    LimitExceeded,
    Limits,
    timeout_reason,
)
from dreamteam.sandbox.policy import ArtifactPolicy

_COMPILE_CACHE_SIZE = 32
_REFIRE_S = 0.05
"""After the deadline the alarm keeps firing at this interval, so a bare `except:` cannot absorb it once."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one invocation produced: a value, or the artifact's exception, or the limit that stopped it."""

    value: Any = None
    error: str = ""
    limit: str = ""

    @property
    def ok(self) -> bool:
        """True when the call returned normally."""
        return not self.error and not self.limit


@dataclass(frozen=True, slots=True)
class LoadedModule:
    """An executed artifact: its namespace, or why it could not be loaded."""

    namespace: dict[str, Any] | None
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    outcome: Outcome = Outcome()

    def public_names(self) -> list[str]:
        """Top-level names the artifact defined (guards and underscore names excluded)."""
        return sorted(k for k in (self.namespace or {}) if not k.startswith("_"))


class Deadline:
    """A soft wall-clock deadline: SIGALRM raises LimitExceeded inside artifact code (main thread only)."""

    def __init__(self) -> None:
        self.active = False
        self.expired = False
        self.reason = ""
        signal.signal(signal.SIGALRM, self._on_alarm)

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if self.active:
            self.expired = True
            raise LimitExceeded(self.reason)

    def arm(self, seconds: float) -> None:
        """Start the clock for one invocation."""
        self.reason = timeout_reason(seconds)
        self.expired = False
        self.active = True
        signal.setitimer(signal.ITIMER_REAL, seconds, _REFIRE_S)

    def disarm(self) -> None:
        """Stop the clock."""
        self.active = False
        signal.setitimer(signal.ITIMER_REAL, 0)


def describe_exception(exc: BaseException, artifact_files: set[str]) -> str:
    """'Type: message (file line N)' naming the innermost artifact line of the traceback."""
    location = ""
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename in artifact_files:
            location = f" ({filename} line {tb.tb_lineno})"
        tb = tb.tb_next
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a message we cannot render is still an error to report
        message = "<unprintable message>"
    if len(message) > 300:
        message = message[:300] + "..."
    return f"{type(exc).__name__}: {message}{location}" if message else f"{type(exc).__name__}{location}"


class Runner:
    """Runs artifact code in this (worker) process under the soft limits; the parent enforces the hard ones."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.sink = PrintSink(limits.print_bytes)
        self.deadline = Deadline()
        self.artifact_files: set[str] = set()
        self.must_restart = False
        self._compiled: dict[tuple[str, str], Compiled] = {}

    def compile(self, source: str, filename: str) -> Compiled:
        """Compile under the policy, one top-level statement at a time (`incremental.py`: a new version shares
        most statements with the last one), memoized: replays compile the same old version and companion
        again and again."""
        key = (filename, source)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = compile_incremental(source, filename, ArtifactPolicy)
            if len(self._compiled) >= _COMPILE_CACHE_SIZE:
                self._compiled.pop(next(iter(self._compiled)))
            self._compiled[key] = compiled
        return compiled

    def run(self, func: Callable[..., Any], *args: Any, fresh_output: bool = False) -> Outcome:
        """Call `func(*args)` under the deadline, mapping limit hits and exceptions to an Outcome.

        `fresh_output` starts a new print budget (replays give every invocation its own)."""
        outcome: Outcome
        if fresh_output:
            self.sink.begin()
        self.deadline.arm(self.limits.time_s)
        try:
            outcome = Outcome(value=func(*args))
        except LimitExceeded as exc:
            outcome = Outcome(limit=exc.reason)
        except RecursionError:
            outcome = Outcome(limit=RECURSION_LIMIT)
        except MemoryError:
            self.must_restart = True
            outcome = Outcome(limit=MEMORY_LIMIT)
        except BaseException as exc:  # noqa: BLE001 - whatever artifact code raises is reported, not re-raised
            outcome = Outcome(error=describe_exception(exc, self.artifact_files))
        finally:
            self.deadline.disarm()
        return self._sticky(outcome)

    def _sticky(self, outcome: Outcome) -> Outcome:
        # A limit the artifact caught and swallowed still counts.
        if self.deadline.expired:
            return Outcome(limit=self.deadline.reason)
        if self.sink.exceeded:
            return Outcome(limit=OUTPUT_LIMIT)
        return outcome

    def load(self, name: str, source: str, filename: str) -> LoadedModule:
        """Compile and execute an artifact's top level in fresh restricted globals."""
        compiled, codes = self.compile(source, filename)
        if not compiled.ok:
            return LoadedModule(None, errors=compiled.errors, warnings=compiled.warnings)
        namespace = artifact_globals(name, self.sink)
        self.artifact_files.add(filename)
        outcome = self.run(_exec_all, codes, namespace)
        if not outcome.ok:
            return LoadedModule(None, warnings=compiled.warnings, outcome=outcome)
        return LoadedModule(namespace, warnings=compiled.warnings, outcome=outcome)


def _exec_all(codes: tuple[CodeType, ...], namespace: dict[str, Any]) -> None:
    """Run an artifact's top-level statements in order, as the whole module would run."""
    for code in codes:
        exec(code, namespace)  # noqa: S102 - code compiled under the sandbox policy, run under its guards
