"""Hard limits for artifact code run in this process: a wall-clock deadline and an address-space bound.

The deadline is enforced by one daemon thread that, when a guarded call runs past its time, raises
`ArtifactInterrupt` inside the calling thread (`PyThreadState_SetAsyncExc`) and raises it again every
`REFIRE_S` until the call ends, so no loop of Python code outlives it. The memory bound lowers the soft
`RLIMIT_AS` of the process to its current size plus a budget while at least one guarded call runs, so an
allocation past the budget fails with `MemoryError` (see docs/sandbox.md, "in-process execution").
"""

from __future__ import annotations

import ctypes
import logging
import threading
import time
from dataclasses import dataclass, field

try:
    import resource
except ImportError:  # pragma: no cover - no RLIMIT_AS outside POSIX
    resource = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

REFIRE_S = 0.02
"""How often the watchdog re-raises in a call that is past its deadline and still runs."""
IDLE_EXIT_S = 2.0
"""The watchdog thread ends after this long without guarded calls (a new call starts it again)."""
_SIZE_REFRESH_S = 0.25
"""How long a measured process size is trusted for the memory bound."""


class ArtifactInterrupt(BaseException):  # noqa: N818 - a control-flow signal, not an error type
    """Raised inside artifact code by the watchdog; a BaseException so `except Exception` cannot catch it."""


@dataclass(slots=True)
class Call:
    """One running guarded call of one thread."""

    thread: int
    deadline: float
    fired: bool = False
    done: bool = False
    depth: int = field(default=1)


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Schedule `exc` in `thread` (None clears a scheduled one)."""
    target = ctypes.py_object(exc) if exc is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), target)


class Watchdog:
    """Interrupts guarded calls that run past their deadline (one thread for every guard of the process)."""

    def __init__(self, interval: float = REFIRE_S) -> None:
        self.interval = interval
        self._calls: dict[int, Call] = {}
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._next_wake = 0.0
        """When the watchdog thread wakes next (it sleeps until the earliest deadline, not on a fixed tick:
        a thread that wakes every few milliseconds takes the GIL from the rollouts on a loaded machine)."""
        self._thread: threading.Thread | None = None
        self.fired = 0
        """Interrupts sent so far (for tests and the soak report)."""

    def enter(self, seconds: float) -> Call:
        """Start the clock for the calling thread (nested calls keep the outer deadline)."""
        ident = threading.get_ident()
        call = self._calls.get(ident)
        if call is not None:
            call.depth += 1
            return call
        call = Call(ident, time.monotonic() + seconds)
        with self._lock:
            self._calls[ident] = call
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._watch, name="artifact-watchdog", daemon=True)
                self._thread.start()
            elif call.deadline < self._next_wake:
                self._wake.notify()
        return call

    def leave(self, call: Call) -> bool:
        """Stop the clock; True when the deadline passed (a scheduled interrupt is then cleared).

        Callers set `call.done = True` first and retry on ArtifactInterrupt: an interrupt scheduled just before
        can still arrive at the start of this function, and none is scheduled once `done` is set."""
        if call.depth > 1:
            call.depth -= 1
            call.done = False
            return call.fired
        with self._lock:
            self._calls.pop(call.thread, None)
            if call.fired:
                _raise_in(call.thread, None)
        call.depth = 0
        return call.fired

    def expired(self) -> bool:
        """Whether the calling thread's guarded call is past its deadline."""
        call = self._calls.get(threading.get_ident())
        return call is not None and call.fired

    def _watch(self) -> None:
        idle_since = time.monotonic()
        with self._lock:
            while True:
                now = time.monotonic()
                refire = False
                for call in self._calls.values():
                    if now >= call.deadline and not call.done:
                        call.fired = refire = True
                        self.fired += 1
                        _raise_in(call.thread, ArtifactInterrupt)
                if self._calls:
                    idle_since = now
                elif now - idle_since > IDLE_EXIT_S and not MEMORY.bound:
                    self._thread = None
                    return
                wake = min((c.deadline for c in self._calls.values() if not c.fired), default=now + IDLE_EXIT_S)
                wake = min(wake, now + self.interval) if refire else wake
                relax = MEMORY.relax_due(now)
                self._next_wake = wake if relax is None else min(wake, relax)
                self._wake.wait(max(0.001, self._next_wake - now))
                try:
                    MEMORY.relax(time.monotonic())
                except (OSError, ValueError) as exc:  # the limit could not be restored: say so, keep watching
                    log.warning("could not restore the address-space limit: %s", exc)


def _address_space() -> int:
    """This process's virtual size in bytes (0 when unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            pages = int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * resource.getpagesize() if resource is not None else 0


class MemoryBound:
    """Lowers the soft RLIMIT_AS to (size now + budget) while guarded calls run, and restores it as soon as
    none runs: a process started in between (git for the step's commit, a browser, the sandbox worker)
    must not inherit the lowered bound. Measuring the process's size reads /proc, so a size measured less than
    `_SIZE_REFRESH_S` ago is reused; setting and restoring the limit are one system call each."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._saved: tuple[int, int] | None = None
        self._wanted = 0
        self._measured_at = -1.0
        self.available = resource is not None and _address_space() > 0

    @property
    def bound(self) -> bool:
        """Whether the lowered limit is in place."""
        return self._saved is not None

    def enter(self, budget: int) -> None:
        """One more guarded call; the first one sets the bound."""
        if not self.available:
            return
        with self._lock:
            self._active += 1
            if self._saved is not None:
                return
            now = time.monotonic()
            saved = resource.getrlimit(resource.RLIMIT_AS)
            if now - self._measured_at > _SIZE_REFRESH_S or not self._wanted:
                self._wanted, self._measured_at = _address_space() + budget, now
            soft, hard = saved
            wanted = self._wanted
            if hard != resource.RLIM_INFINITY:
                wanted = min(wanted, hard)
            if soft != resource.RLIM_INFINITY:
                wanted = min(wanted, soft)
            resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
            self._saved = saved

    def leave(self) -> None:
        """One guarded call fewer; the last one restores the previous limit."""
        if not self.available:
            return
        with self._lock:
            self._active -= 1
            if self._active == 0:
                self._restore()

    def _restore(self) -> None:
        if self._saved is not None:
            try:
                resource.setrlimit(resource.RLIMIT_AS, self._saved)
            except (OSError, ValueError) as exc:  # the limit could not be restored: say so
                log.warning("could not restore the address-space limit: %s", exc)
            self._saved = None

    def relax_due(self, now: float) -> float | None:
        """When the watchdog should look again whether the bound can be lifted (None: never needed now)."""
        return None if self._saved is None or self._active else now

    def relax(self, now: float) -> None:
        """Restore the previous limit if no guarded call runs (a safety net; `leave` restores it already)."""
        with self._lock:
            if self._active == 0:
                self._restore()


WATCHDOG = Watchdog()
"""The process's watchdog (one thread serves every guard)."""
MEMORY = MemoryBound()
"""The process's address-space bound (RLIMIT_AS is per process)."""
