"""Length-prefixed JSON frames between the parent and the worker (no pickle in either direction)."""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

_HEADER = struct.Struct(">I")
MAX_REQUEST_BYTES = 512 * 1024 * 1024


class FrameTooLarge(Exception):  # noqa: N818 - names the condition, like the toolkit's errors
    """The peer announced a frame over the agreed size."""

    def __init__(self, size: int) -> None:
        super().__init__(f"frame of {size} bytes is over the limit")
        self.size = size


class FrameTimeout(Exception):  # noqa: N818
    """No complete frame arrived before the deadline."""


def encode_frame(payload: Any) -> bytes:
    """Serialize a JSON value (or pre-encoded JSON text) as one frame."""
    body = payload.encode("utf-8") if isinstance(payload, str) else json.dumps(payload).encode("utf-8")
    return _HEADER.pack(len(body)) + body


def write_frame(fd: int, frame: bytes) -> None:
    """Write a whole frame to a blocking file descriptor."""
    view = memoryview(frame)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise FrameTimeout()
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise EOFError("peer closed the pipe")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, max_bytes: int, deadline: float | None = None) -> bytes:
    """Read one frame body; raise FrameTimeout past `deadline` (monotonic), FrameTooLarge, or EOFError."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > max_bytes:
        raise FrameTooLarge(size)
    return _read_exact(fd, size, deadline)
