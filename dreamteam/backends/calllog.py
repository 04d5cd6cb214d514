"""The model-call log: one JSON line per call in `calls.jsonl`, and totals for `run.json`."""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from time import gmtime, strftime
from time import time as now
from typing import Any


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One model call: who asked, which model answered, what it cost, and whether it worked."""

    role: str
    task: str
    backend: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    latency_s: float = 0.0
    ok: bool = True
    error: str | None = None
    attempt: str = "initial"
    retries: int = 0
    time: float = field(default_factory=now)

    def to_json(self) -> dict[str, Any]:
        """The JSON line's fields; `time` as ISO-8601 UTC."""
        out = asdict(self)
        out["time"] = strftime("%Y-%m-%dT%H:%M:%SZ", gmtime(self.time))
        out["latency_s"] = round(self.latency_s, 4)
        return out


class CallLog:
    """Appends `CallRecord`s to a JSONL file (or memory only when `path` is None) and sums them."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._rows: list[dict[str, Any]] = self._read_existing()

    def _read_existing(self) -> list[dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def append(self, record: CallRecord) -> None:
        """Write one line (thread-safe) and keep it for `totals()`."""
        row = record.to_json()
        with self._lock:
            self._rows.append(row)
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row, sort_keys=True) + "\n")

    def records(self) -> list[dict[str, Any]]:
        """All lines so far (including those a resumed run found in the file)."""
        with self._lock:
            return list(self._rows)

    def totals(self) -> dict[str, Any]:
        """Sums for run.json: calls, failures, tokens, cost, latency; overall and per role."""
        rows = self.records()
        by_role: dict[str, dict[str, Any]] = {}
        for row in rows:
            _add(by_role.setdefault(row["role"], _zero()), row)
        overall = _zero()
        for row in rows:
            _add(overall, row)
        return {**overall, "by_role": by_role}


def _zero() -> dict[str, Any]:
    return {"calls": 0, "failed": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0,
            "unpriced_calls": 0, "latency_s": 0.0}


def _add(total: dict[str, Any], row: dict[str, Any]) -> None:
    total["calls"] += 1
    total["failed"] += 0 if row.get("ok", True) else 1
    total["input_tokens"] += int(row.get("input_tokens", 0))
    total["output_tokens"] += int(row.get("output_tokens", 0))
    cost = row.get("cost_usd")
    if cost is None:
        total["unpriced_calls"] += 1
    else:
        total["cost_usd"] = round(total["cost_usd"] + float(cost), 6)
    total["latency_s"] = round(total["latency_s"] + float(row.get("latency_s", 0.0)), 4)
