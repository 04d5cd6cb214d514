"""A loopback HTTP server that speaks just enough of the Anthropic Messages and OpenAI Chat APIs."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Canned:
    """One scripted HTTP response: status, JSON body (or raw bytes), headers, and a delay before it."""

    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class Received:
    """One request the server saw."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeVendor:
    """Serves canned responses in order and records every request."""

    def __init__(self) -> None:
        self.queue: list[Canned] = []
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.server.handle_error = lambda request, address: None  # client hung up after a timeout
        self.port = self.server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def push(self, *responses: Canned) -> None:
        with self._lock:
            self.queue.extend(responses)

    def _next(self, received: Received) -> Canned:
        with self._lock:
            self.received.append(received)
            if not self.queue:
                return Canned({"error": {"message": "fake vendor: no canned response left"}}, status=418)
            return self.queue.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        vendor = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                canned = vendor._next(Received(self.path, headers, json.loads(raw or b"{}")))
                time.sleep(canned.delay_s)
                data = canned.body if isinstance(canned.body, bytes) else json.dumps(canned.body).encode()
                self.send_response(canned.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in canned.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler


@contextmanager
def running_vendor() -> Iterator[FakeVendor]:
    vendor = FakeVendor()
    thread = threading.Thread(target=vendor.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield vendor
    finally:
        vendor.server.shutdown()
        vendor.server.server_close()


def anthropic_tool_reply(
    tool_input: Any, *, input_tokens: int = 1200, output_tokens: int = 300, model: str = "claude-sonnet-4-5",
    stop_reason: str = "tool_use",
) -> Canned:
    """A Messages API answer whose content is one `reply` tool_use block."""
    return Canned({
        "id": "msg_1", "type": "message", "role": "assistant", "model": model, "stop_reason": stop_reason,
        "stop_sequence": None,
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "reply", "input": tool_input}],
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    })


def openai_reply(
    content: str | None = None, *, arguments: str | None = None, prompt_tokens: int = 1200,
    completion_tokens: int = 300, model: str = "gpt-4.1-mini", finish_reason: str = "stop",
) -> Canned:
    """A Chat Completions answer: message content, or (with `arguments`) one `reply` tool call."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if arguments is not None:
        message["tool_calls"] = [
            {"id": "call_1", "type": "function", "function": {"name": "reply", "arguments": arguments}}
        ]
    return Canned({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
        "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    })


def error_reply(status: int, headers: dict[str, str] | None = None) -> Canned:
    """An error answer in the shape both vendors use."""
    body = {"type": "error", "error": {"type": "api_error", "message": f"status {status}"}}
    return Canned(body, status=status, headers=headers or {})


def truncated_reply() -> Canned:
    """A 200 whose JSON body is cut off mid-way."""
    return Canned(b'{"id":"msg_1","type":"message","content":[{"type":"tool_use","inp')


ROLE_REPLIES: dict[str, dict[str, Any]] = {
    "observer": {"patch": None, "notes": "nothing to change"},
    "simulator": {"patch": None, "notes": "nothing to change"},
    "inductive": {"patch": None, "notes": "no tactic", "tactics": []},
    "transductive": {"probes": [{"actions": [{"action": "ACTION1"}], "expected_effect": "something moves",
                                 "target_hypothesis": "ACTION1 moves the player"}], "notes": "one probe"},
    "critic": {"flags": [], "feedback": {}, "notes": "nothing to report"},
    "leader": {"goal": "DISCOVER", "plan": [{"action": "ACTION1"}], "source": "probe-0", "confidence": 0.5,
               "reason": "probe first"},
}
"""A valid, do-nothing reply per role: no patch, no tactic, one probe, a one-action plan."""


class RoleVendor:
    """A loopback Anthropic Messages API for a whole team called in parallel: each call waits `delay_s`, then
    gets its role's reply (the role is read from the system prompt, so the order of calls does not matter).
    It records the roles called and the calls in flight at each moment."""

    def __init__(self, delay_s: float = 0.0, replies: dict[str, dict[str, Any]] | None = None) -> None:
        self.delay_s = delay_s
        self.replies = replies or ROLE_REPLIES
        self.calls: list[str] = []
        self.in_flight: set[str] = set()
        self.peak = 0
        self.overlaps: list[tuple[str, ...]] = []
        """The roles in flight each time a call started while another one was running."""
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.server.handle_error = lambda request, address: None  # a killed client hung up
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> RoleVendor:
        """Serve in a daemon thread."""
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """Wait, then answer the role the request's system prompt names."""
        system = body.get("system")
        found = re.search(r"You are the (\w+) of DreamTeam", system if isinstance(system, str) else json.dumps(system))
        role = found.group(1) if found else "?"
        with self.lock:
            token = f"{role}#{len(self.calls)}"
            self.calls.append(role)
            self.in_flight.add(token)
            self.peak = max(self.peak, len(self.in_flight))
            if len(self.in_flight) > 1:
                self.overlaps.append(tuple(sorted(t.split("#")[0] for t in self.in_flight)))
        try:
            time.sleep(self.delay_s)
        finally:
            with self.lock:
                self.in_flight.discard(token)
        return anthropic_tool_reply(self.replies.get(role, {})).body  # type: ignore[no-any-return]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        vendor = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                data = json.dumps(vendor.reply(json.loads(raw or b"{}"))).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
