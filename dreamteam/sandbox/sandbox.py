"""`Sandbox`: load, call and replay artifacts in a persistent, transparently restarted worker process."""

from __future__ import annotations

import time
import weakref
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal

from dreamteam.sandbox.incremental import check_compiles
from dreamteam.sandbox.limits import Limits, timeout_reason
from dreamteam.sandbox.process import Reply, WorkerProcess
from dreamteam.sandbox.replay_plan import SURFACE_FILES, VerdictCache, merge_replies, plan_replay
from dreamteam.sandbox.report import ReplayReport
from dreamteam.sandbox.scope import check_scope
from dreamteam.sandbox.wire import encode_value, hex_rows

ResultKind = Literal["ok", "rejected", "error", "killed"]
"""ok; rejected (scope, compile, not loaded, bad arguments); error (the artifact raised); killed (a limit)."""


@dataclass(frozen=True, slots=True)
class LoadResult:
    """Outcome of loading an artifact into the worker."""

    kind: ResultKind
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the artifact is loaded and callable."""
        return self.kind == "ok"

    @property
    def reason(self) -> str:
        """The errors as one line ('' when ok)."""
        return "; ".join(self.errors)


@dataclass(frozen=True, slots=True)
class CallResult:
    """Outcome of calling an artifact function: its JSON value, or why there is none."""

    kind: ResultKind
    value: Any = None
    reason: str = ""
    printed: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the function returned a value."""
        return self.kind == "ok"


class PendingBatch:
    """A batch sent to the worker (`Sandbox.send_batch`); `results()` waits for its replies."""

    def __init__(self, sandbox: Sandbox, count: int, start: float) -> None:
        self.count = count
        self.start = start
        self._sandbox = sandbox
        self._results: list[CallResult] | None = None

    def settle(self, results: list[CallResult]) -> None:
        """Record the replies (the sandbox calls this when it reads them)."""
        self._results = results

    def results(self) -> list[CallResult]:
        """The replies in request order, read from the worker now if they are still in flight."""
        if self._results is None:
            self._sandbox._collect()
        assert self._results is not None
        return self._results


class Sandbox:
    """Runs artifact code in a separate worker process under `Limits`; a killed worker is replaced on the
    next request and the loaded artifacts are loaded again.

    warm_spare: keep a second worker started, so a restart does not wait for Python and numpy to import.
    parallel_replay: a replay splits its transitions between the active worker and the ready spare.
    cache_old_verdicts: remember the old version's verdicts across replays (it is replayed every step).
    """

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        warm_spare: bool = True,
        parallel_replay: bool = True,
        cache_old_verdicts: bool = True,
    ) -> None:
        self.limits = limits or Limits()
        self.warm_spare = warm_spare
        self.parallel_replay = parallel_replay
        self.cache_old_verdicts = cache_old_verdicts
        self.restarts = 0
        self._verdicts = VerdictCache()
        self._active: WorkerProcess | None = None
        self._spare: WorkerProcess | None = None
        self._sources: dict[str, tuple[str, str]] = {}
        self._pool: list[WorkerProcess] = []
        self._inflight: tuple[WorkerProcess, PendingBatch, float] | None = None
        """The batch sent and not yet read: its worker, its results holder, its deadline (monotonic)."""
        weakref.finalize(self, _close_workers, self._pool)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @property
    def worker_pid(self) -> int | None:
        """The pid of the current worker (None before the first request or after close)."""
        return self._active.pid if self._active is not None and self._active.alive() else None

    def forget_verdicts(self) -> None:
        """Drop the cached verdicts of old versions (the next replays evaluate both versions again)."""
        self._verdicts = VerdictCache()

    def start(self, *, wait_for_spare: bool = False) -> int:
        """Make sure a worker is running and ready (and the spare too, if asked); return the worker's pid."""
        pid = self._worker().pid
        if wait_for_spare and self._spare is not None:
            self._spare.wait_ready()
        return pid

    def load(
        self,
        name: str,
        source: str,
        *,
        filename: str | None = None,
        owned: Collection[str] | None = None,
        helper_prefixes: Collection[str] = (),
        surface: str = "this",
    ) -> LoadResult:
        """Scope-check (when `owned` is given), compile, and execute an artifact's top level as `name`."""
        start = time.perf_counter()
        filename = filename or f"{name}.py"
        if owned is not None:
            scope_errors = check_scope(source, owned, helper_prefixes, surface=surface)
            if scope_errors:
                return LoadResult("rejected", tuple(e.message for e in scope_errors), seconds=_since(start))
        compiled = check_compiles(source, filename)
        if not compiled.ok:
            return LoadResult("rejected", compiled.errors, compiled.warnings, seconds=_since(start))
        payload = {"op": "load", "name": name, "source": source, "filename": filename}
        reply = self._request(payload, self.limits.time_s + self.limits.kill_grace_s, timeout_reason(self.limits.time_s))
        data = reply.data
        if reply.lost or data.get("kind") != "ok":
            kind = "killed" if reply.lost else _kind(data)
            errors = (reply.lost,) if reply.lost else tuple(data.get("errors") or [data.get("reason", "")])
            return LoadResult(kind, errors, tuple(data.get("warnings", ())), seconds=_since(start))
        self._sources[name] = (source, filename)
        return LoadResult("ok", (), tuple(data.get("warnings", ())), tuple(data.get("names", ())), _since(start))

    def call(self, name: str, function: str, args: Sequence[Any] = ()) -> CallResult:
        """Call `function` of the loaded artifact `name` with JSON-able arguments (numpy 2-D arrays become
        read-only grids) under the limits."""
        start = time.perf_counter()
        if name not in self._sources:
            return CallResult("rejected", reason=f"artifact '{name}' is not loaded")
        try:
            payload = {"op": "call", "name": name, "function": function, "args": encode_value(list(args))}
        except (TypeError, ValueError) as exc:
            return CallResult("rejected", reason=f"arguments are not JSON-able: {exc}")
        hard_limit = 2 * self.limits.time_s + self.limits.kill_grace_s
        reply = self._request(payload, hard_limit, timeout_reason(self.limits.time_s))
        if reply.lost:
            return CallResult("killed", reason=reply.lost, seconds=_since(start))
        data = reply.data
        return CallResult(_kind(data), data.get("value"), data.get("reason", ""), data.get("printed", ""), _since(start))

    def roundtrip(self, observation: str, frame: Any) -> CallResult:
        """Cells where render(parse(frame)) of the loaded artifact `observation` differs from the frame."""
        return self._pipeline(roundtrip_request(observation, frame))

    def predict_frame(self, observation: str, dynamics: str, frame: Any, history: Mapping[str, Any],
                      action: Mapping[str, Any]) -> CallResult:
        """One world-model step in one request: value {"grid": hex rows, "history": h1}."""
        return self._pipeline(predict_request(observation, dynamics, frame, history, action))

    def batch(self, requests: Sequence[dict[str, Any]]) -> list[CallResult]:
        """Several `roundtrip_request` / `predict_request` pipelines in one worker round trip, in order.

        Each runs under its own time limit; a lost worker fails them all with the same reason.
        """
        return self.send_batch(requests).results()

    def send_batch(self, requests: Sequence[dict[str, Any]]) -> PendingBatch:
        """Send a batch and return at once; its `results()` wait for the replies.

        One batch is in flight at most: any other request to the worker (a call, a load, a replay, another
        batch) first collects the outstanding replies, so the caller may do other sandbox work meanwhile.
        """
        self._collect()
        start = time.perf_counter()
        pending = PendingBatch(self, len(requests), start)
        missing = [n for r in requests for n in _artifacts(r) if n not in self._sources]
        if missing:
            pending.settle([CallResult("rejected", reason=f"artifact '{missing[0]}' is not loaded")] * len(requests))
            return pending
        worker = self._worker()
        lost = worker.send({"op": "batch", "requests": list(requests)})
        if lost:
            pending.settle([CallResult("killed", reason=lost, seconds=_since(start))] * len(requests))
            return pending
        limit = len(requests) * _PIPELINE_CALLS * self.limits.time_s + self.limits.kill_grace_s
        self._inflight = (worker, pending, time.monotonic() + limit)
        return pending

    def _collect(self) -> None:
        """Read the replies of the batch in flight, if any, into its PendingBatch."""
        if self._inflight is None:
            return
        worker, pending, deadline = self._inflight
        self._inflight = None
        reply = worker.receive(deadline - time.monotonic(), timeout_reason(self.limits.time_s))
        values = reply.data.get("value") if not reply.lost else None
        seconds = _since(pending.start)
        if reply.lost or not isinstance(values, list) or len(values) != pending.count:
            reason = reply.lost or str(reply.data.get("reason", "the batch reply is malformed"))
            kind: ResultKind = "killed" if reply.lost else _kind(reply.data)
            pending.settle([CallResult(kind, reason=reason, seconds=seconds)] * pending.count)
        else:
            pending.settle([_call_result(v if isinstance(v, dict) else {}, seconds) for v in values])

    def _pipeline(self, request: dict[str, Any]) -> CallResult:
        start = time.perf_counter()
        missing = [n for n in _artifacts(request) if n not in self._sources]
        if missing:
            return CallResult("rejected", reason=f"artifact '{missing[0]}' is not loaded")
        reply = self._request(request, _PIPELINE_CALLS * self.limits.time_s + self.limits.kill_grace_s,
                              timeout_reason(self.limits.time_s))
        if reply.lost:
            return CallResult("killed", reason=reply.lost, seconds=_since(start))
        return _call_result(reply.data, _since(start))

    def replay(
        self,
        old_source: str | None,
        new_source: str,
        transitions: Sequence[Mapping[str, Any]],
        *,
        surface: str = "dynamics",
        companions: Mapping[str, str] | None = None,
    ) -> ReplayReport:
        """Replay old and new versions of a `surface` artifact over `transitions`: one request per worker.

        For "dynamics", `companions["observable.py"]` supplies parse and render. `old_source` None means
        there is no previous version (it counts as wrong everywhere). Verdicts of the old version are
        cached across calls. Malformed transitions raise ValueError.
        """
        companions = companions or {}
        companion = companions.get("observable.py", "") if surface == "dynamics" else ""
        table = None
        if old_source is not None and self.cache_old_verdicts:
            table = self._verdicts.version((surface, old_source, companion))
        self._collect()
        workers = self._replay_workers()
        plan = plan_replay(
            old_source, new_source, transitions, surface=surface, companions=companions,
            workers=len(workers), cached=table,
        )
        start = time.perf_counter()
        replies = self._scatter(workers, plan.requests)
        seconds = _since(start)
        failure = next((r.lost or str(r.data.get("reason", "replay failed")) for r in replies
                        if r.lost or r.data.get("kind") != "ok"), None)
        if failure is not None:
            return ReplayReport(surface, (), "unknown", "unknown", failure, seconds)
        report, fresh, fresh_new = merge_replies(plan, [r.data for r in replies], seconds)
        if table is not None and report.old_status == "ok":
            for key, wire in fresh:
                self._verdicts.store(table, key, wire)
        if self.cache_old_verdicts and report.new_status == "ok":
            # the new version is the old one of the next replay if it is accepted (its verdicts under the same
            # companion are the same wherever it is loaded); a table of a rejected one just ages out
            future = self._verdicts.version((surface, new_source, companion))
            for key, wire in fresh_new:
                self._verdicts.store(future, key, wire)
            if table is not None:
                self._verdicts.version((surface, old_source or "", companion))  # the current version stays newest
        return report

    def _scatter(self, workers: list[WorkerProcess], requests: Sequence[str]) -> list[Reply]:
        """Send one request to each worker, then collect the replies within the replay time limit."""
        limit = self.limits.replay_time_s
        deadline = time.monotonic() + limit
        pairs = list(zip(workers, requests, strict=False))
        sent = [worker.send(request) for worker, request in pairs]
        replies = []
        for (worker, _), lost in zip(pairs, sent, strict=True):
            if lost:
                replies.append(Reply({}, lost))
            elif any(r.lost for r in replies):
                worker.kill()  # an unread reply would desynchronise the pipe
                replies.append(Reply({}, "stopped: another replay worker failed"))
            else:
                replies.append(worker.receive(deadline - time.monotonic(), timeout_reason(limit)))
        return replies

    def _replay_workers(self) -> list[WorkerProcess]:
        active = self._worker()
        spare = self._spare
        if spare is not None and not spare.alive():
            spare.close()
            spare = self._spare = WorkerProcess(self.limits)
            self._track()
        if self.parallel_replay and spare is not None and spare.poll_ready():
            return [active, spare]
        return [active]

    def close(self) -> None:
        """Stop the workers and remove their scratch directories."""
        if self._inflight is not None:
            self._inflight[1].settle([CallResult("killed", reason="the sandbox was closed")] * self._inflight[1].count)
            self._inflight = None
        for worker in (self._active, self._spare):
            if worker is not None:
                worker.close()
        self._active = self._spare = None
        self._pool.clear()

    def _worker(self) -> WorkerProcess:
        if self._active is not None and self._active.alive():
            return self._active
        if self._active is not None:
            self._active.close()
            self.restarts += 1
        active = self._spare if self._spare is not None and self._spare.alive() else WorkerProcess(self.limits)
        self._spare = None
        self._active = active
        active.wait_ready()
        if self.warm_spare:
            self._spare = WorkerProcess(self.limits)
        self._track()
        for name, (source, filename) in self._sources.items():
            payload = {"op": "load", "name": name, "source": source, "filename": filename}
            active.request(payload, self.limits.time_s + self.limits.kill_grace_s, timeout_reason(self.limits.time_s))
        return active

    def _track(self) -> None:
        # The finalizer holds this list: workers are killed even if close() is never called.
        self._pool[:] = [w for w in (self._active, self._spare) if w is not None]

    def _request(self, payload: dict[str, Any], timeout: float, on_timeout: str) -> Reply:
        self._collect()
        return self._worker().request(payload, timeout, on_timeout)


_PIPELINE_CALLS = 4
"""Artifact calls in one pipeline request at most (parse, history, predict, render): its time limit."""


def roundtrip_request(observation: str, frame: Any) -> dict[str, Any]:
    """The request for render(parse(frame)) against the frame (see `Sandbox.roundtrip`)."""
    return {"op": "roundtrip", "observation": observation, "frame": hex_rows(frame)}


def predict_request(observation: str, dynamics: str, frame: Any, history: Mapping[str, Any],
                    action: Mapping[str, Any]) -> dict[str, Any]:
    """The request for one world-model step (see `Sandbox.predict_frame`)."""
    return {"op": "predict_frame", "observation": observation, "dynamics": dynamics,
            "frame": hex_rows(frame), "history": dict(history), "action": dict(action)}


def _artifacts(request: Mapping[str, Any]) -> list[str]:
    return [str(request[k]) for k in ("observation", "dynamics") if k in request]


def _call_result(data: Mapping[str, Any], seconds: float) -> CallResult:
    return CallResult(_kind(data), data.get("value"), data.get("reason", ""), data.get("printed", ""), seconds)


def _kind(data: Mapping[str, Any]) -> ResultKind:
    kind = data.get("kind")
    return kind if kind in ("ok", "rejected", "error", "killed") else "error"


def _close_workers(workers: list[WorkerProcess]) -> None:
    for worker in workers:
        worker.close()


def _since(start: float) -> float:
    return time.perf_counter() - start


__all__ = ["SURFACE_FILES", "CallResult", "LoadResult", "PendingBatch", "Sandbox", "predict_request", "roundtrip_request"]
