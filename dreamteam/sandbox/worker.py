"""The sandbox worker process: `python -m dreamteam.sandbox.worker LIMITS_JSON`, framed JSON on stdin/stdout."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

from dreamteam.sandbox.engine import run_replay
from dreamteam.sandbox.execution import Outcome, Runner
from dreamteam.sandbox.gridlib import Grid
from dreamteam.sandbox.limits import MEMORY_LIMIT, OUTPUT_LIMIT, RECURSION_LIMIT, LimitExceeded, Limits
from dreamteam.sandbox.pipeline import ParseCache, predict_frame, roundtrip
from dreamteam.sandbox.protocol import MAX_REQUEST_BYTES, encode_frame, read_frame, write_frame

_FRAME_STACK_HEADROOM = 60
"""Python frames the worker itself uses below artifact code (added to Limits.recursion)."""


def apply_process_limits(limits: Limits) -> None:
    """Address-space, core-dump and file-size limits for this process (POSIX only)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows has no resource module
        return
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
    sys.setrecursionlimit(limits.recursion + _FRAME_STACK_HEADROOM)


def decode_args(value: Any) -> Any:
    """Turn {"$grid": [hex rows]} objects (anywhere in call arguments) into read-only Grids."""
    if isinstance(value, dict):
        if set(value) == {"$grid"}:
            return Grid.from_hex_rows(value["$grid"])
        return {k: decode_args(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_args(v) for v in value]
    return value


def _json_default(value: Any) -> Any:
    if isinstance(value, Grid):
        return value.tolist()
    if isinstance(value, bytearray | bytes):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


BATCHABLE = ("roundtrip", "predict_frame", "call")
"""Requests a batch may hold (each runs under its own time limit)."""


class Worker:
    """Holds the loaded artifacts and answers the parent's requests."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.runner = Runner(limits)
        self.modules: dict[str, dict[str, Any]] = {}
        self.parse_cache = ParseCache()

    def _json_value(self, reply: dict[str, Any]) -> dict[str, Any] | str:
        """A pipeline reply with its value checked to be JSON-able (histories come from artifact code)."""
        if reply.get("kind") != "ok":
            return {**reply, "printed": self.runner.sink.text()}
        outcome = self.runner.run(_encode_result, reply["value"])
        if not outcome.ok:
            return {**_outcome_reply(outcome), "printed": self.runner.sink.text()}
        return f'{{"kind": "ok", "printed": {json.dumps(self.runner.sink.text())}, "value": {outcome.value}}}'

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | str:
        """Dispatch one request to its handler."""
        op = request.get("op")
        if op == "load":
            return self.load(request["name"], request["source"], request["filename"])
        if op == "call":
            return self.call(request["name"], request["function"], request.get("args", []))
        if op == "replay":
            return run_replay(self.runner, request)
        if op == "roundtrip":
            return self._json_value(roundtrip(self.runner, self.modules, self.parse_cache, request))
        if op == "predict_frame":
            return self._json_value(predict_frame(self.runner, self.modules, self.parse_cache, request))
        if op == "batch":
            return self.batch(request["requests"])
        if op == "ping":
            return {"kind": "ok", "value": os.getpid()}
        return {"kind": "rejected", "reason": f"unknown request {op!r}"}

    def batch(self, requests: list[Any]) -> str:
        """Answer several pipeline requests in one round trip: value = their replies, in order."""
        parts = []
        for sub in requests:
            if isinstance(sub, dict) and sub.get("op") in BATCHABLE:
                self.runner.sink.begin()
                reply = self.handle(sub)
            else:
                op = sub.get("op") if isinstance(sub, dict) else sub
                reply = {"kind": "rejected", "reason": f"request {op!r} cannot be batched"}
            parts.append(reply if isinstance(reply, str) else json.dumps(reply))
        return '{"kind": "ok", "value": [' + ", ".join(parts) + "]}"

    def load(self, name: str, source: str, filename: str) -> dict[str, Any]:
        """Compile and execute an artifact; keep it under `name` when it loads."""
        loaded = self.runner.load(name, source, filename)
        self.parse_cache.key = None
        if loaded.errors:
            return {"kind": "rejected", "errors": list(loaded.errors), "warnings": list(loaded.warnings)}
        reply = _outcome_reply(loaded.outcome)
        if loaded.namespace is not None:
            self.modules[name] = loaded.namespace
            reply.update(names=loaded.public_names(), warnings=list(loaded.warnings))
        return reply

    def call(self, name: str, function: str, args: list[Any]) -> dict[str, Any] | str:
        """Call a loaded artifact's function with JSON arguments; reply with its JSON result."""
        namespace = self.modules.get(name)
        if namespace is None:
            return {"kind": "rejected", "reason": f"artifact '{name}' is not loaded"}
        target = namespace.get(function)
        if function.startswith("_") or not callable(target):
            return {"kind": "rejected", "reason": f"artifact '{name}' has no function '{function}'"}
        outcome = self.runner.run(target, *decode_args(args))
        if outcome.ok:
            outcome = self.runner.run(_encode_result, outcome.value)
        printed = self.runner.sink.text()
        if not outcome.ok:
            return {**_outcome_reply(outcome), "printed": printed}
        return f'{{"kind": "ok", "printed": {json.dumps(printed)}, "value": {outcome.value}}}'


def _encode_result(value: Any) -> str:
    try:
        return json.dumps(value, default=_json_default)
    except (TypeError, ValueError) as exc:
        raise ResultNotJSON(f"the result is not JSON-able: {exc}") from None


class ResultNotJSON(Exception):  # noqa: N818 - the name is the message shown to the artifact's owner
    """A function returned a value that cannot be sent back as JSON."""


def _outcome_reply(outcome: Outcome) -> dict[str, Any]:
    if outcome.limit:
        return {"kind": "killed", "reason": outcome.limit}
    if outcome.error:
        return {"kind": "error", "reason": outcome.error}
    return {"kind": "ok"}


def _answer(worker: Worker, body: bytes) -> tuple[str, bool]:
    """The reply text for one request and whether the worker must exit after sending it."""
    runner = worker.runner
    runner.sink.begin()
    try:
        reply = worker.handle(json.loads(body))
    except LimitExceeded as exc:
        reply = {"kind": "killed", "reason": exc.reason}
    except MemoryError:
        runner.must_restart = True
        reply = {"kind": "killed", "reason": MEMORY_LIMIT}
    except RecursionError:
        reply = {"kind": "killed", "reason": RECURSION_LIMIT}
    except (KeyError, TypeError, ValueError) as exc:
        reply = {"kind": "rejected", "reason": f"malformed request: {type(exc).__name__}: {exc}"}
    finally:
        runner.deadline.disarm()
    text = reply if isinstance(reply, str) else json.dumps(reply)
    if len(text) > worker.limits.result_bytes:
        text = json.dumps({"kind": "killed", "reason": OUTPUT_LIMIT})
    if runner.must_restart:
        text = text[:-1] + ', "restart": true}'
    return text, runner.must_restart


def serve(worker: Worker, read_fd: int, write_fd: int) -> None:
    """Answer requests until the parent closes the pipe (or a memory kill asks for a fresh process)."""
    write_frame(write_fd, encode_frame({"kind": "ready", "pid": os.getpid()}))
    while True:
        try:
            body = read_frame(read_fd, MAX_REQUEST_BYTES)
        except (EOFError, OSError):
            return
        text, must_exit = _answer(worker, body)
        write_frame(write_fd, encode_frame(text))
        if must_exit:
            return


def exit_with_parent(interval_s: float = 1.0) -> None:
    """Exit when the parent dies, even if artifact code is stuck in a loop that swallows the deadline."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval_s)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def main(argv: list[str] | None = None) -> None:
    """Entry point: take private copies of the pipe ends, drop the environment, apply limits, serve."""
    args = sys.argv[1:] if argv is None else argv
    limits = Limits.from_json(json.loads(args[0]))
    read_fd, write_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # stray writes to stdout must not corrupt the protocol
    os.environ.clear()
    exit_with_parent()
    worker = Worker(limits)
    apply_process_limits(limits)
    serve(worker, read_fd, write_fd)


if __name__ == "__main__":
    main()
