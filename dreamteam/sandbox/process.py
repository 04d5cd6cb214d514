"""Parent-side handle on one worker process: start, framed request/reply with a hard deadline, kill."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from dreamteam.sandbox.limits import OUTPUT_LIMIT, Limits
from dreamteam.sandbox.protocol import FrameTimeout, FrameTooLarge, encode_frame, read_frame, write_frame

STARTUP_TIMEOUT_S = 60.0
_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
_WORKER_ENV = {
    "PYTHONPATH": _PROJECT_ROOT,
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONNOUSERSITE": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "LC_ALL": "C.UTF-8",
}
"""The worker's whole environment: nothing of the parent's (API keys included) is passed on."""


class WorkerStartError(RuntimeError):
    """The worker process could not be started (its stderr is in the message)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """A worker's answer, or why there was none (`lost` set when the worker had to be killed or died)."""

    data: dict[str, Any]
    lost: str = ""


def death_reason(returncode: int | None) -> str:
    """Describe how a worker ended: 'worker died (signal 9)' or 'worker exited with code 1'."""
    if returncode is not None and returncode < 0:
        return f"worker died (signal {-returncode})"
    return f"worker exited with code {returncode}"


class WorkerProcess:
    """One `python -m dreamteam.sandbox.worker` process in its own scratch directory."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.scratch = tempfile.mkdtemp(prefix="dreamteam-sandbox-")
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the worker
        command = [sys.executable, "-m", "dreamteam.sandbox.worker", json.dumps(limits.to_json())]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            cwd=self.scratch, env=_WORKER_ENV, bufsize=0, start_new_session=True,
        )
        self.pid = self.proc.pid
        self.ready = False

    def wait_ready(self, timeout: float = STARTUP_TIMEOUT_S) -> None:
        """Block until the worker announced itself; raise WorkerStartError when it cannot start."""
        if self.ready:
            return
        reply = self._read(time.monotonic() + timeout, 4096)
        if reply.lost or reply.data.get("kind") != "ready":
            self.kill()
            raise WorkerStartError(f"sandbox worker did not start ({reply.lost}): {self.stderr_tail()}")
        self.ready = True

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.proc.poll() is None

    def poll_ready(self) -> bool:
        """Non-blocking: whether the worker has announced itself (a dead worker is never ready)."""
        if self.ready or not self.alive():
            return self.ready
        assert self.proc.stdout is not None
        if select.select([self.proc.stdout.fileno()], [], [], 0)[0]:
            self.wait_ready(timeout=5.0)
        return self.ready

    def send(self, payload: dict[str, Any] | str) -> str:
        """Send one request (a JSON value, or JSON text); '' on success, else why the worker is gone."""
        self.wait_ready()
        assert self.proc.stdin is not None
        try:
            write_frame(self.proc.stdin.fileno(), encode_frame(payload))
        except (BrokenPipeError, OSError):
            return self._death()
        return ""

    def receive(self, timeout: float, on_timeout: str) -> Reply:
        """Wait up to `timeout` seconds for the reply to the last request; past it, kill the worker."""
        reply = self._read(time.monotonic() + max(0.0, timeout), self.limits.result_bytes + 4096)
        if reply.lost == "timeout":
            return Reply({}, on_timeout)
        return reply

    def request(self, payload: dict[str, Any], timeout: float, on_timeout: str) -> Reply:
        """Send one request and wait up to `timeout` seconds for the reply; past it, kill the worker."""
        lost = self.send(payload)
        return Reply({}, lost) if lost else self.receive(timeout, on_timeout)

    def _read(self, deadline: float, max_bytes: int) -> Reply:
        assert self.proc.stdout is not None
        try:
            body = read_frame(self.proc.stdout.fileno(), max_bytes, deadline)
        except FrameTimeout:
            self.kill()
            return Reply({}, "timeout")
        except FrameTooLarge:
            self.kill()
            return Reply({}, OUTPUT_LIMIT)
        except (EOFError, OSError):
            return Reply({}, self._death())
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            self.kill()
            return Reply({}, "worker sent a malformed reply")
        if not isinstance(data, dict):
            self.kill()
            return Reply({}, "worker sent a malformed reply")
        if data.get("restart"):
            self.kill()
        return Reply(data)

    def _death(self) -> str:
        try:
            returncode = self.proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self.kill()
            returncode = self.proc.returncode
        return death_reason(returncode)

    def stderr_tail(self, limit: int = 2000) -> str:
        """The last characters the worker wrote to stderr."""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")[-limit:].strip()

    def kill(self) -> None:
        """Kill the worker (and anything it started) and wait for it."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5.0)

    def close(self) -> None:
        """Kill the process and remove its scratch directory."""
        self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        self._stderr.close()
        shutil.rmtree(self.scratch, ignore_errors=True)
