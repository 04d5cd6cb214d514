"""Artifact code run in this process (rollouts, self-checks) under the sandbox's policy, guards and limits.

Searches call a world model thousands of times per step, too often for a round trip to the worker each time,
so the roles run accepted artifacts here, on the same terms as the worker:
- compiled by `compile_artifact` with the project's RestrictedPython policy, plus a `_check_()` opening every
  `except` and `finally` block, so artifact code cannot swallow an interrupt, a `MemoryError` or a
  `RecursionError`;
- executed with the worker's guards (`artifact_globals`: facades for imports, guarded attributes and writes,
  capped print);
- every call (`GuardedModule.run`) under a wall-clock deadline (the watchdog), an address-space budget
  (RLIMIT_AS) and Python's recursion limit.
A call that hits a limit raises `ArtifactFault`; the module is then *poisoned* (every later call fails at once,
its globals are dropped) and its source is written in the process's `FaultJournal`, where the harness finds
it and falls the surface back to its last good version.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import Any, TypeVar

from dreamteam.sandbox.guards import PrintSink
from dreamteam.sandbox.incremental import Compiled, compile_incremental
from dreamteam.sandbox.inprocess_guards import STOPS, GuardedPolicy, guarded_globals
from dreamteam.sandbox.limits import (
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    RECURSION_LIMIT,
    LimitExceeded,
    timeout_reason,
)
from dreamteam.sandbox.watchdog import MEMORY, WATCHDOG, ArtifactInterrupt

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class InProcessLimits:
    """Limits of one in-process call (see docs/sandbox.md)."""

    time_s: float = 2.0
    """Wall-clock limit of one call."""
    memory_bytes: int = 512 << 20
    """Address space a call may add to the process."""
    print_bytes: int = 64 * 1024
    """Characters a call may print (the text is dropped: nobody reads it in-process)."""


class ArtifactFault(Exception):  # noqa: N818 - "fault" is the project's word for a limit hit
    """An artifact call in this process hit a limit; the module is not called again."""

    def __init__(self, filename: str, reason: str) -> None:
        super().__init__(f"{filename}: {reason}")
        self.filename = filename
        self.reason = reason


class ArtifactCompileError(Exception):
    """An artifact source the sandbox policy refuses."""


def source_digest(source: str) -> str:
    """A short stable identity of an artifact source."""
    return hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class FaultJournal:
    """Artifact sources that hit a limit in this process, by digest, with the reason (bounded, thread-safe)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def record(self, source: str, reason: str) -> None:
        """Remember that `source` faulted (the first reason is kept)."""
        with self._lock:
            self._items.setdefault(source_digest(source), reason)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def reason(self, source: str) -> str | None:
        """Why `source` faulted, or None."""
        return self._items.get(source_digest(source))

    def clear(self) -> None:
        """Forget everything (tests)."""
        with self._lock:
            self._items.clear()


JOURNAL = FaultJournal()
"""The process's journal: symbolic role models record here, the harness reads it (see team/rollback.py)."""


@functools.lru_cache(maxsize=64)
def compile_guarded(source: str, filename: str) -> Compiled:
    """`compile_artifact` with the guarded policy, statement by statement (`incremental.py`), memoized: the
    roles load the same sources again and again, and versions that share most statements."""
    return compile_incremental(source, filename, GuardedPolicy)


def _reason(exc: BaseException, limits: InProcessLimits) -> str:
    if isinstance(exc, MemoryError):
        return MEMORY_LIMIT
    if isinstance(exc, RecursionError):
        return RECURSION_LIMIT
    if isinstance(exc, LimitExceeded):
        return exc.reason or OUTPUT_LIMIT
    return timeout_reason(limits.time_s)


class GuardedModule:
    """An artifact module executed in this process; `run` calls into it under the limits."""

    def __init__(self, source: str, filename: str, limits: InProcessLimits, journal: FaultJournal) -> None:
        self.source = source
        self.filename = filename
        self.limits = limits
        self.journal = journal
        self.sink = PrintSink(limits.print_bytes)
        self.namespace: dict[str, Any] = guarded_globals(filename.removesuffix(".py"), self.sink)
        self.fault = journal.reason(source) or ""

    def run(self, func: Callable[..., T], *args: Any) -> T:
        """`func(*args)` under the deadline and the memory budget; ArtifactFault when a limit ends it."""
        if self.fault:
            raise ArtifactFault(self.filename, self.fault)
        if self.sink.size:
            self.sink.begin()
        call = WATCHDOG.enter(self.limits.time_s)
        MEMORY.enter(self.limits.memory_bytes)
        stop: BaseException | None = None
        try:
            value = func(*args)
        except STOPS as exc:
            stop = exc
        finally:
            while True:  # inline on purpose: an interrupt scheduled just before may arrive once more
                try:
                    call.done = True
                    late = WATCHDOG.leave(call)
                    break
                except ArtifactInterrupt:
                    late = True
            MEMORY.leave()
        if stop is None and not late and not self.sink.exceeded:
            return value
        self.poison(_reason(stop, self.limits) if stop is not None else
                    OUTPUT_LIMIT if self.sink.exceeded else timeout_reason(self.limits.time_s))
        raise ArtifactFault(self.filename, self.fault) from None

    def poison(self, reason: str) -> None:
        """Refuse every later call, drop the module's globals and record the source in the journal."""
        self.fault = reason
        self.namespace.clear()
        self.journal.record(self.source, f"{self.filename}: {reason}")


def load_guarded(source: str, filename: str, limits: InProcessLimits | None = None,
                 journal: FaultJournal | None = None) -> GuardedModule:
    """Compile `source` with the guarded policy and run its top level under the limits.

    Raises ArtifactCompileError when the policy refuses it, ArtifactFault when its top level hits a limit or
    when the source faulted before (per the journal), and whatever its top level raises.
    """
    module = GuardedModule(source, filename, limits or InProcessLimits(), journal or JOURNAL)
    if module.fault:
        raise ArtifactFault(filename, module.fault)
    compiled, codes = compile_guarded(source, filename)
    if not compiled.ok:
        raise ArtifactCompileError(f"{filename}: " + "; ".join(compiled.errors[:3]))
    module.run(_exec_all, codes, module.namespace)
    return module


def _exec_all(codes: tuple[CodeType, ...], namespace: dict[str, Any]) -> None:
    for code in codes:
        exec(code, namespace)  # noqa: S102 - code compiled under the sandbox policy, run under its guards
