"""Drive headless Chromium for the viewer tests: `--dump-dom` and a small Chrome DevTools protocol client.

The DevTools client talks to the browser over a loopback websocket (`websockets`, already installed as a
dependency of langgraph-sdk); it loads a page, evaluates JavaScript, sends real key events and takes
screenshots. Nothing here touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")
KEY_CODES = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, "PageDown": 34, "PageUp": 33}


def chromium_binary() -> str | None:
    """The Chromium (or Chrome) executable, from $CHROMIUM or the PATH; None when there is none."""
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name) if name else None
        if found:
            return found
    return None


def dump_dom(binary: str, url: str, *, timeout: float = 60.0) -> str:
    """The DOM after the page's scripts ran (`chromium --headless --dump-dom URL`)."""
    with tempfile.TemporaryDirectory(prefix="dt-chromium-", ignore_cleanup_errors=True) as profile:
        done = subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                              capture_output=True, text=True, timeout=timeout, check=True)
    return done.stdout


class DevTools:
    """A headless Chromium with one page, controlled over the DevTools protocol."""

    def __init__(self, binary: str, *, width: int = 1400, height: int = 1100) -> None:
        from websockets.sync.client import connect

        # Chromium's helper processes may still write to the profile for a moment after the browser exits;
        # the profile is a throwaway temp dir, so a failed cleanup is not a test failure.
        self._profile = tempfile.TemporaryDirectory(prefix="dt-chromium-", ignore_cleanup_errors=True)
        self._proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self._profile.name}", "--remote-debugging-port=0",
             f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port = self._port(Path(self._profile.name) / "DevToolsActivePort")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as reply:
            pages = [t for t in json.load(reply) if t.get("type") == "page"]
        self._stack = contextlib.ExitStack()
        self._ws = self._stack.enter_context(connect(pages[0]["webSocketDebuggerUrl"], max_size=None, open_timeout=10))
        self._next_id = 0

    def _port(self, marker: Path, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker.exists() and marker.read_text().strip():
                return int(marker.read_text().split()[0])
            if self._proc.poll() is not None:
                raise RuntimeError(f"chromium exited with code {self._proc.returncode}")
            time.sleep(0.05)
        raise TimeoutError("chromium did not open its DevTools port")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its result (events in between are dropped)."""
        self._next_id += 1
        self._ws.send(json.dumps({"id": self._next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self._ws.recv(timeout=30))
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    def evaluate(self, expression: str) -> Any:
        """Evaluate JavaScript in the page and return its value (JSON-able values only)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        """Navigate and wait until the page says it is ready (`document.body.dataset.ready`)."""
        self.call("Page.navigate", url=url)
        page = json.dumps(url.split("#")[0])
        self.wait_for(f"document.body && document.body.dataset.ready === '1' && location.href.split('#')[0] === {page}")

    def wait_for(self, expression: str, timeout: float = 30.0) -> None:
        """Poll until a JavaScript expression is true."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"!!({expression})"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {expression}")
            time.sleep(0.05)

    def press(self, key: str) -> None:
        """A real key press (keyDown + keyUp) sent to the focused page."""
        code = KEY_CODES[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code)

    def screenshot(self, path: Path) -> None:
        """Save a PNG of the viewport."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        """Stop the browser and remove its profile."""
        try:
            self._stack.close()
        finally:
            self._stop_process_group()
            self._profile.cleanup()

    def _stop_process_group(self) -> None:
        """Stop the browser and every helper process it started (they share its session)."""
        for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self._proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self._proc.wait(timeout=wait)
                time.sleep(0.2)  # let the helpers of the group exit too
                return
            except subprocess.TimeoutExpired:
                continue

    def __enter__(self) -> DevTools:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
