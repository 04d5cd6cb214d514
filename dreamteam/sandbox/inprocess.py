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

import ast
import functools
import hashlib
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from dreamteam.sandbox.guards import FACADES, ModuleFacade, PrintSink, artifact_globals
from dreamteam.sandbox.limits import (
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    RECURSION_LIMIT,
    LimitExceeded,
    timeout_reason,
)
from dreamteam.sandbox.policy import ArtifactPolicy, CompileResult, compile_artifact
from dreamteam.sandbox.watchdog import MEMORY, WATCHDOG, ArtifactInterrupt

T = TypeVar("T")
MAX_RANGE = 50_000_000
"""Longest `range` in-process artifact code may make: C code consuming one (`sum(range(n))`) cannot be
interrupted, so its length bounds the time."""
_STOPS = (ArtifactInterrupt, MemoryError, RecursionError, LimitExceeded)
"""What `_check_` does not let artifact code swallow."""


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


class GuardedPolicy(ArtifactPolicy):
    """The artifact policy plus a `_check_()` call opening every except handler and finally block."""

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        """Handlers first re-raise what must end the call."""
        visited = super().visit_ExceptHandler(node)
        assert isinstance(visited, ast.ExceptHandler)
        visited.body.insert(0, _check_call(visited))
        return visited

    def visit_Try(self, node: ast.Try) -> ast.AST:
        """`finally` blocks too (a `return` or `continue` there would drop the exception)."""
        visited = super().visit_Try(node)
        assert isinstance(visited, ast.Try)
        if visited.finalbody:
            visited.finalbody.insert(0, _check_call(visited.finalbody[0]))
        return visited


def _check_call(where: ast.AST) -> ast.stmt:
    statement = ast.Expr(ast.Call(ast.Name("_check_", ast.Load()), [], []))
    return ast.fix_missing_locations(ast.copy_location(statement, where))


def _check() -> None:
    """What `_check_()` does: re-raise a limit hit the artifact caught, or an interrupt past the deadline."""
    current = sys.exc_info()[1]
    if isinstance(current, _STOPS):
        raise current
    if WATCHDOG.expired():
        raise ArtifactInterrupt


@functools.lru_cache(maxsize=64)
def compile_guarded(source: str, filename: str) -> CompileResult:
    """`compile_artifact` with the guarded policy (memoized: the roles load the same sources again and again)."""
    return compile_artifact(source, filename, policy=GuardedPolicy)


def _reason(exc: BaseException, limits: InProcessLimits) -> str:
    if isinstance(exc, MemoryError):
        return MEMORY_LIMIT
    if isinstance(exc, RecursionError):
        return RECURSION_LIMIT
    if isinstance(exc, LimitExceeded):
        return exc.reason or OUTPUT_LIMIT
    return timeout_reason(limits.time_s)


def _range(*args: Any) -> range:
    """`range` with at most MAX_RANGE items."""
    made = range(*args)
    if len(made) > MAX_RANGE:
        raise ValueError(f"range of {len(made)} items (artifacts may make ranges of at most {MAX_RANGE})")
    return made


def _iter(obj: Any, *sentinel: Any) -> Any:
    """`iter(obj)`; the two-argument form (an endless loop in C) is refused."""
    if sentinel:
        raise TypeError("iter(callable, sentinel) is not available in artifacts")
    return iter(obj)


def _interruptible(make: Callable[..., Any]) -> Callable[..., Any]:
    """An itertools function whose items pass through Python code, where the watchdog can stop it
    (`sum(itertools.count())` would otherwise loop in C, out of reach)."""

    def items(*args: Any, **kwargs: Any) -> Any:
        for item in make(*args, **kwargs):  # noqa: UP028 - `yield from` would iterate in C, out of reach
            yield item

    return items


def _itertools_facade() -> ModuleFacade:
    members = FACADES["itertools"]._members  # noqa: SLF001 - the facade's own table, read once
    return ModuleFacade("itertools", {name: _interruptible(f) for name, f in members.items()})


_FACADES = {**FACADES, "itertools": _itertools_facade()}


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> ModuleFacade:
    """The worker's `__import__`, with the interruptible itertools."""
    facade = _FACADES.get(name)
    if facade is None or level != 0:
        raise ImportError(f"import of '{name}' is not allowed")
    return facade


def guarded_globals(module_name: str, sink: PrintSink) -> dict[str, Any]:
    """The worker's `artifact_globals` plus `_check_` and the in-process stand-ins (range, iter, itertools)."""
    namespace = artifact_globals(module_name, sink)
    table = namespace["__builtins__"]
    table.update({"range": _range, "iter": _iter, "__import__": _import})
    namespace["_check_"] = _check
    return namespace


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
        except _STOPS as exc:
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
    compiled = compile_guarded(source, filename)
    if not compiled.ok or compiled.code is None:
        raise ArtifactCompileError(f"{filename}: " + "; ".join(compiled.errors[:3]))
    module.run(exec, compiled.code, module.namespace)
    return module
