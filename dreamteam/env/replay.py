"""Read recordings and replay them offline through the toolkit, checking every frame and the scorecard.

Three recording formats are read, all JSON lines of `{"timestamp", "data": {...}}`:
- `dreamteam`: a run directory's `recording.jsonl` (written by `RecordingWriter`, beside run.json);
- `toolkit`: `arc_agi`'s own `<game_id>-<guid>.jsonl` (`save_recording=True`); like ours, the first line is the
  initial RESET the toolkit sends when a game is made;
- `agents`: the ARC-AGI-3-Agents harness's `*.recording.jsonl` (`FrameData` dumps, action ids as numbers, data
  with a `game_id` key). It does not record the initial frame, and its last line may be a scorecard entry.
Lines without `action_input` are kept as `extras` (scorecard entries), not replayed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from arcengine import FrameDataRaw, GameAction

from dreamteam.codec import grid_hash
from dreamteam.env.catalog import Catalog
from dreamteam.env.session import Arena, GameCrashed
from dreamteam.errors import UserError
from dreamteam.types import ACTION_NAMES, CLICK, Grid

FORMAT_DREAMTEAM = "dreamteam"
FORMAT_TOOLKIT = "toolkit"
FORMAT_AGENTS = "agents"
AGENTS_SUFFIX = ".recording.jsonl"
TOOLKIT_LOGGER = "dreamteam.toolkit"  # the logger Arena hands to arc_agi (see session.py)


class RecordingError(UserError):
    """A recording or scorecard that is damaged, truncated or not in a known format."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    """One recorded response: the action that produced it and what the game showed."""

    line: int
    action_id: int
    data: dict[str, Any]
    state: str
    levels_completed: int
    win_levels: int
    full_reset: bool
    available_actions: tuple[int, ...] | None
    frames: tuple[Grid, ...] | None
    """The frame layers (an animation has several; the last is the observation); None if not recorded."""

    @property
    def action_label(self) -> str:
        """ACTION3, or ACTION6@(x,y) for a click."""
        name = ACTION_NAMES[self.action_id]
        if self.action_id == CLICK and "x" in self.data and "y" in self.data:
            return f"{name}@({self.data['x']},{self.data['y']})"
        return name

    @property
    def grid(self) -> Grid | None:
        """The last frame layer (what an agent observes), None when frames were not recorded."""
        return self.frames[-1] if self.frames else None


@dataclass(frozen=True, slots=True)
class Recording:
    """A parsed recording file."""

    path: Path
    format: str
    game_id: str
    entries: tuple[RecordedFrame, ...]
    extras: tuple[dict[str, Any], ...]

    @property
    def has_initial_frame(self) -> bool:
        """Whether the first entry is the initial RESET the toolkit sends when the game is made."""
        return self.format != FORMAT_AGENTS

    @property
    def actions(self) -> tuple[RecordedFrame, ...]:
        """The entries produced by actions that were sent (the initial frame excluded)."""
        return self.entries[1:] if self.has_initial_frame else self.entries


def load_recording(path: Path, fmt: str | None = None) -> Recording:
    """Parse a recording file in any of the three formats (detected from its name and content)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordingError(f"recording {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingError(f"recording {path} is unreadable: {exc}") from None
    return parse_recording(path, text, fmt)


def parse_recording(path: Path, text: str, fmt: str | None = None) -> Recording:
    """Parse a recording's text (`path` names it in messages and decides the format when `fmt` is None)."""
    entries: list[RecordedFrame] = []
    extras: list[dict[str, Any]] = []
    lines = text.splitlines()
    last = max((i for i, line in enumerate(lines, start=1) if line.strip()), default=0)
    numeric_ids, game_ids = False, set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data = _line_data(path, line, number, cut_off=number == last and not text.endswith("\n"))
        if data.get("action_input") is None:
            extras.append(data)
            continue
        numeric_ids = numeric_ids or isinstance(data["action_input"].get("id"), int)
        game_ids.add(str(data.get("game_id", "")))
        entries.append(_entry(path, data, number))
    if not entries:
        raise RecordingError(f"recording {path} holds no recorded frames")
    if len(game_ids) != 1 or not next(iter(game_ids)):
        raise RecordingError(f"recording {path} must hold one game, found game ids {sorted(game_ids)}")
    fmt = fmt or _detect_format(path, numeric_ids)
    return Recording(path, fmt, game_ids.pop(), tuple(entries), tuple(extras))


def _detect_format(path: Path, numeric_ids: bool) -> str:
    if path.name.endswith(AGENTS_SUFFIX) or numeric_ids:
        return FORMAT_AGENTS
    if path.name == "recording.jsonl" and (path.parent / "run.json").exists():
        return FORMAT_DREAMTEAM
    return FORMAT_TOOLKIT


def _line_data(path: Path, line: str, number: int, *, cut_off: bool) -> dict[str, Any]:
    try:
        event = json.loads(line)
    except json.JSONDecodeError as exc:
        why = "is cut off (the recording was truncated)" if cut_off else f"is not valid JSON ({exc.msg})"
        raise RecordingError(f"{path.name} line {number} {why}") from None
    if not isinstance(event, dict) or not isinstance(event.get("data"), dict):
        raise RecordingError(f"{path.name} line {number} is not a recording event {{\"timestamp\", \"data\": {{...}}}}")
    data: dict[str, Any] = event["data"]
    return data


def _entry(path: Path, data: dict[str, Any], number: int) -> RecordedFrame:
    where = f"{path.name} line {number}"
    action = data["action_input"]
    if not isinstance(action, dict):
        raise RecordingError(f"{where}: action_input is not an object")
    payload = action.get("data") or {}
    if not isinstance(payload, dict):
        raise RecordingError(f"{where}: action_input.data is not an object")
    try:
        available = data.get("available_actions")
        return RecordedFrame(
            line=number, action_id=_action_id(action.get("id"), where), data=dict(payload),
            state=str(data.get("state", "")), levels_completed=int(data.get("levels_completed", 0)),
            win_levels=int(data.get("win_levels", 0)), full_reset=bool(data.get("full_reset", False)),
            available_actions=tuple(int(a) for a in available) if available is not None else None,
            frames=_layers(data["frame"], where) if "frame" in data else None,
        )
    except (TypeError, ValueError) as exc:
        raise RecordingError(f"{where}: malformed field: {exc}") from None


def _action_id(raw: Any, where: str) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(ACTION_NAMES):
        return raw
    if isinstance(raw, str):
        name = raw.strip().upper().removeprefix("GAMEACTION.")
        if name in ACTION_NAMES:
            return ACTION_NAMES.index(name)
    raise RecordingError(f"{where}: unknown action id {raw!r}")


def _layers(raw: Any, where: str) -> tuple[Grid, ...]:
    if not isinstance(raw, list):
        raise RecordingError(f"{where}: frame is not a list of grids")
    layers = []
    for layer in raw:
        try:
            arr = np.asarray(layer, dtype=np.int16)
        except (TypeError, ValueError):
            raise RecordingError(f"{where}: a frame layer is not a rectangular grid of integers") from None
        if arr.ndim != 2 or arr.size == 0 or arr.min() < 0 or arr.max() > 15:
            raise RecordingError(f"{where}: a frame layer is not a 2-D grid of colours 0..15")
        layers.append(arr.astype(np.int8))
    return tuple(layers)




# ----- replaying ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first recorded response that the replayed game does not reproduce."""

    step: int | None
    """Index of the action among those sent (0-based, the workspace's step number); None: the initial frame."""
    line: int
    action: str
    expected: str
    actual: str
    detail: str = ""

    def message(self) -> str:
        """One line naming the step, the recorded and the replayed response, and the first differing cell."""
        where = ("the initial frame" if self.step is None
                 else f"step {self.step} (action {self.step + 1}: {self.action})")
        text = f"diverged at {where}, recording line {self.line}: recorded {self.expected}; replayed {self.actual}"
        return text + (f"; {self.detail}" if self.detail else "")


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """What a replay found: how far it got, the first divergence (if any) and the recomputed scorecard."""

    recording: Recording
    actions_replayed: int
    frames_checked: int
    divergence: Divergence | None
    scorecard: dict[str, Any]

    @property
    def ok(self) -> bool:
        """True when every recorded response was reproduced."""
        return self.divergence is None


def frames_hash(frames: Sequence[Grid]) -> str:
    """A short stable hash of a response's whole frame list (every layer, in order)."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(f"{len(frames)}:".encode())
    for layer in frames:
        digest.update(grid_hash(layer).encode())
    return digest.hexdigest()


def require_game_version(catalog: Catalog, game_id: str) -> None:
    """Fail clearly unless exactly this game version (`maze-v1`) is among the local games."""
    if any(info.game_id == game_id for info in catalog.infos):
        return
    base = game_id.split("-", 1)[0]
    others = sorted(i.game_id for i in catalog.infos if i.game_id.split("-", 1)[0] == base)
    found = f" (found {', '.join(others)})" if others else ""
    raise UserError(f"game version {game_id} of the recording is not available locally{found}; pass --env-dir DIR "
                    f"with a game whose metadata.json has game_id {game_id!r}")


def replay_recording(recording: Recording, catalog: Catalog) -> ReplayOutcome:
    """Send the recorded actions to a fresh offline game and compare every response with the recording."""
    require_game_version(catalog, recording.game_id)
    arena = Arena(catalog)
    card = arena.new_scorecard(tags=["dreamteam", "replay"])
    replayed = checked = 0
    divergence: Divergence | None = None
    with _toolkit_errors() as errors:
        try:
            env = arena.open(recording.game_id, card).env
        except GameCrashed as exc:
            raise GameCrashed(f"{exc}: {errors[0]}" if errors else str(exc)) from None
        if recording.has_initial_frame:
            first = env.observation_space
            assert first is not None  # GameSession refuses a game without an initial frame
            divergence, checked = _check(recording.entries[0], first, None), 1
        for step, entry in enumerate(recording.actions):
            if divergence is not None:
                break
            resp = env.step(GameAction.from_id(entry.action_id), data=dict(entry.data))
            replayed += 1
            if resp is None:
                why = errors[-1] if errors else "no response"
                divergence = Divergence(step, entry.line, entry.action_label, _describe_entry(entry),
                                        "no frame: the game failed", why)
                break
            divergence = _check(entry, resp, step)
            checked += 1
    return ReplayOutcome(recording, replayed, checked, divergence, arena.scorecard(card))


@contextmanager
def _toolkit_errors() -> Iterator[list[str]]:
    """Collect the toolkit's error log lines (one line each, no traceback) instead of printing them."""
    logger = logging.getLogger(TOOLKIT_LOGGER)
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(" ".join(record.getMessage().split()))

    handler, propagate = Collect(level=logging.ERROR), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _check(entry: RecordedFrame, resp: FrameDataRaw, step: int | None) -> Divergence | None:
    frames = tuple(np.asarray(f, dtype=np.int8) for f in resp.frame)
    state = resp.state.name if hasattr(resp.state, "name") else str(resp.state)
    differs = []
    if entry.state != state:
        differs.append("state")
    if entry.levels_completed != int(resp.levels_completed):
        differs.append("levels")
    cell = ""
    if entry.frames is not None:
        cell = _first_difference(entry.frames, frames)
        if cell:
            differs.append("frame")
    if entry.available_actions is not None and entry.available_actions != tuple(resp.available_actions):
        differs.append(f"available actions {list(entry.available_actions)} vs {list(resp.available_actions)}")
    if not differs:
        return None
    actual = _describe(state, int(resp.levels_completed), frames)
    detail = "; ".join(part for part in (f"differs in {', '.join(differs)}", cell) if part)
    return Divergence(step, entry.line, entry.action_label, _describe_entry(entry), actual, detail)


def _describe_entry(entry: RecordedFrame) -> str:
    return _describe(entry.state, entry.levels_completed, entry.frames)


def _describe(state: str, levels: int, frames: Sequence[Grid] | None) -> str:
    shown = f"frame {frames_hash(frames)}" if frames is not None else "frame not recorded"
    return f"state {state}, levels {levels}, {shown}"


def _first_difference(expected: Sequence[Grid], actual: Sequence[Grid]) -> str:
    if len(expected) != len(actual):
        return f"{len(expected)} frame layers recorded, {len(actual)} replayed"
    for index, (want, got) in enumerate(zip(expected, actual, strict=True), start=1):
        if want.shape != got.shape:
            return f"layer {index}: shape {want.shape} recorded, {got.shape} replayed"
        cells = np.argwhere(want != got)
        if len(cells):
            y, x = (int(v) for v in cells[0])
            return (f"first differing cell x={x} y={y} (layer {index} of {len(expected)}): recorded colour "
                    f"{int(want[y, x])}, replayed {int(got[y, x])}; {len(cells)} cells differ")
    return ""


# ----- scorecards ---------------------------------------------------------------------------------

ENVIRONMENT_FIELDS = ("score", "levels_completed", "actions", "resets")
PLAY_FIELDS = ("score", "levels_completed", "actions", "resets", "state", "completed",
               "level_scores", "level_actions", "level_baseline_actions")


def scorecard_differences(recorded: Any, replayed: Any) -> list[str]:
    """The meaningful fields where two toolkit scorecards differ (card ids, guids and times are ignored)."""
    envs_a, envs_b = _environments(recorded, "the recorded scorecard"), _environments(replayed, "the replayed one")
    out = [] if _same(recorded.get("score"), replayed.get("score")) else [
        f"total score: recorded {_fmt(recorded.get('score'))}, replayed {_fmt(replayed.get('score'))}"]
    for game_id in sorted(set(envs_a) | set(envs_b)):
        a, b = envs_a.get(game_id), envs_b.get(game_id)
        if a is None or b is None:
            out.append(f"{game_id}: only in the {'replayed' if a is None else 'recorded'} scorecard")
            continue
        out += _field_differences(game_id, a, b, ENVIRONMENT_FIELDS)
        plays_a, plays_b = a["runs"], b["runs"]
        if len(plays_a) != len(plays_b):
            out.append(f"{game_id}: {len(plays_a)} plays recorded, {len(plays_b)} replayed")
        for number, (pa, pb) in enumerate(zip(plays_a, plays_b, strict=False), start=1):
            out += _field_differences(f"{game_id} play {number}", pa, pb, PLAY_FIELDS)
    return out


def embedded_score_differences(recording: Recording, replayed: dict[str, Any]) -> list[str] | None:
    """Compare a scorecard entry written into the recording (agents harness) with the replay; None if none."""
    entries = [e for e in recording.extras if {"score", "levels_completed", "actions"} <= set(e)]
    if not entries:
        return None
    envs = _environments(replayed, "the replayed scorecard")
    env = envs.get(recording.game_id)
    if env is None:
        return [f"{recording.game_id}: not in the replayed scorecard"]
    return _field_differences(recording.game_id, entries[-1], env, ("score", "levels_completed", "actions"))


def _environments(card: Any, source: str) -> dict[str, dict[str, Any]]:
    if not isinstance(card, dict) or not isinstance(card.get("environments"), list):
        raise RecordingError(f"{source} is not a toolkit scorecard (no 'environments' list)")
    envs: dict[str, dict[str, Any]] = {}
    for env in card["environments"]:
        if not isinstance(env, dict) or not isinstance(env.get("id"), str) or not isinstance(env.get("runs"), list) \
                or not all(isinstance(run, dict) for run in env["runs"]):
            raise RecordingError(f"{source} has a malformed environment entry: {str(env)[:80]}")
        envs[env["id"]] = env
    return envs


def _field_differences(label: str, a: dict[str, Any], b: dict[str, Any], fields: Sequence[str]) -> list[str]:
    return [f"{label} {name}: recorded {_fmt(a.get(name))}, replayed {_fmt(b.get(name))}"
            for name in fields if not _same(a.get(name), b.get(name))]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return bool(a == b)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)
