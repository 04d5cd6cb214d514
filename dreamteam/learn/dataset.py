"""Transitions from recorded runs, with goals relabelled in hindsight (numpy only, no JAX).

A source is a run directory (`recording.jsonl` beside `run.json`, and for the team a `workspace/` git
repository), a recording file in any format `dreamteam.env.replay` reads (the toolkit's `<game>-<guid>.jsonl`,
the agents harness's `*.recording.jsonl`), or a directory searched for either.

Each transition i holds: `frame[i]` (the grid before the action), `action[i]` (0..7), `click[i]` ((x, y), or
(-1, -1) when not a click), `next_frame[i]`, `level_up[i]`, `game_over[i]`, `win[i]`, `level[i]` (levels
completed before the action), `episode[i]` (one id per source), `step[i]` (the action's index in its run) and
`goals[i]` (a multi-hot row over `meta["goals"]`: the goal names that held in the next frame). Frames are
padded to 64x64 with PAD (16, "outside the frame"); larger frames are cropped.

Hindsight goals (a goal "held" at transition i when it was true of next_frame[i]):
- `level_up`: the action completed a level; `steps_to_level_up[i]` counts the steps to the next level-up in the
  same source (-1 when none), so "a level-up within k steps" is `0 <= steps_to_level_up < k`;
- `lose_level`: the action ended in GAME_OVER (`steps_to_game_over` likewise);
- the workspace's sub-goal names: the names in `SUB_GOALS` of `strategy.py` at the step's commit (the goals in
  force when the action was chosen). The workspace keeps only their names and descriptions, not their tests,
  so whether one held is decided from the two frames by a proxy per family of names (`subgoal_held`): a
  name mentioning `colourN` held when some cell of colour N became another colour (entered, covered, taken); `frontier` held when the next frame was
  never seen before in the run; `level_up` as above. Names of other shapes are kept in force but never
  marked as held.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dreamteam.errors import UserError
from dreamteam.types import CLICK

SIZE = 64
PAD = 16
"""The colour index of cells outside a smaller frame (one more than the 16 colours)."""
CLASSES = 17
LEVEL_UP = "level_up"
LOSE = "lose_level"
NEGATIVE_GOALS = (LOSE,)
"""Goal names that are bad to reach (scored alike, subtracted by the scorers)."""
FORMAT_VERSION = 1

Array = npt.NDArray[Any]
_COLOUR = re.compile(r"colou?r(\d+)")


class DatasetError(UserError):
    """A source that holds no usable transitions, or a dataset file that cannot be read."""

    exit_code = 1


def pad_frame(grid: Array) -> npt.NDArray[np.int8]:
    """A grid padded (with PAD) or cropped to 64x64, as int8."""
    out = np.full((SIZE, SIZE), PAD, dtype=np.int8)
    g = np.asarray(grid)
    h, w = min(g.shape[0], SIZE), min(g.shape[1], SIZE)
    out[:h, :w] = g[:h, :w]
    return out


@dataclass
class Dataset:
    """Transitions as parallel arrays plus metadata (see the module docstring)."""

    frame: npt.NDArray[np.int8]
    action: npt.NDArray[np.int8]
    click: npt.NDArray[np.int8]
    next_frame: npt.NDArray[np.int8]
    level_up: npt.NDArray[np.bool_]
    game_over: npt.NDArray[np.bool_]
    win: npt.NDArray[np.bool_]
    level: npt.NDArray[np.int16]
    episode: npt.NDArray[np.int32]
    step: npt.NDArray[np.int32]
    steps_to_level_up: npt.NDArray[np.int32]
    steps_to_game_over: npt.NDArray[np.int32]
    goals: npt.NDArray[np.uint8]
    in_force: npt.NDArray[np.uint8]
    """Multi-hot over meta["goals"]: the goals in force when the action was chosen (level_up and lose_level
    always; the workspace's sub-goals when the source has a workspace)."""
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.action.shape[0])

    @property
    def goal_names(self) -> list[str]:
        """The goal vocabulary: column j of `goals` is goal_names[j]."""
        return list(self.meta.get("goals", []))

    def subset(self, idx: Array) -> Dataset:
        """The transitions at these indices (metadata shared)."""
        arrays = {k: getattr(self, k)[idx] for k in ARRAY_FIELDS}
        return Dataset(**arrays, meta=self.meta)

    def save(self, path: Path) -> None:
        """A compressed npz, plus the metadata as JSON inside it and beside it (`FILE.json`)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: getattr(self, k) for k in ARRAY_FIELDS}
        meta = json.dumps(self.meta, sort_keys=True)
        with path.open("wb") as fh:
            np.savez_compressed(fh, meta=np.frombuffer(meta.encode(), dtype=np.uint8), **arrays)
        Path(str(path) + ".json").write_text(json.dumps(self.meta, indent=2, sort_keys=True) + "\n")

    @staticmethod
    def load(path: Path) -> Dataset:
        """Read a file written by `save`."""
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in ARRAY_FIELDS}
                meta = json.loads(bytes(z["meta"]).decode())
        except FileNotFoundError:
            raise DatasetError(f"dataset {path} does not exist") from None
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            raise DatasetError(f"dataset {path} is not a DreamTeam dataset file: {exc}") from None
        return Dataset(**arrays, meta=meta)


ARRAY_FIELDS = ("frame", "action", "click", "next_frame", "level_up", "game_over", "win", "level", "episode",
                "step", "steps_to_level_up", "steps_to_game_over", "goals", "in_force")


# ----- finding sources ------------------------------------------------------------------------------

def find_sources(paths: Iterable[Path]) -> list[Path]:
    """Recording files under these paths: a run dir's recording.jsonl, a recording file, or a directory
    searched recursively (run dirs first; loose `.jsonl` recordings elsewhere)."""
    found: list[Path] = []
    for p in paths:
        if p.is_file():
            found.append(p)
        elif (p / "recording.jsonl").is_file():
            found.append(p / "recording.jsonl")
        elif p.is_dir():
            runs = sorted(r for r in p.rglob("recording.jsonl") if (r.parent / "run.json").exists())
            run_dirs = {r.parent for r in runs}
            loose = sorted(f for f in p.rglob("*.jsonl")
                           if f.name != "recording.jsonl" and f.parent not in run_dirs
                           and not any(d in f.parents for d in run_dirs))
            found.extend(runs + loose)
        else:
            raise DatasetError(f"{p} does not exist")
    if not found:
        raise DatasetError("no recordings found in " + ", ".join(str(p) for p in paths))
    return found


# ----- the workspace's sub-goals --------------------------------------------------------------------

def _git(ws: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(ws), *args], capture_output=True, text=True, check=False,
                         env={"GIT_CONFIG_NOSYSTEM": "1", "HOME": str(ws), "PATH": "/usr/bin:/bin:/usr/local/bin"})
    return out.stdout if out.returncode == 0 else ""


def parse_sub_goals(source: str) -> list[str]:
    """The names in a strategy.py's `SUB_GOALS = [...]` literal (empty when absent or not a literal)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    for node in tree.body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SUB_GOALS" for t in node.targets)):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return []
            names = []
            for g in value if isinstance(value, list) else []:
                name = g.get("name") if isinstance(g, dict) else g
                if isinstance(name, str) and name:
                    names.append(name)
            return names
    return []


def workspace_sub_goals(ws: Path) -> dict[int, list[str]]:
    """Step -> the sub-goal names in strategy.py at that step's commit (only the steps where it changed;
    forward-fill for the others). Empty when `ws` is not a git workspace."""
    if not (ws / ".git").exists():
        return {}
    log = _git(ws, "log", "--reverse", "--format=%H %(trailers:key=DreamTeam-Step,valueonly,separator=)",
               "--", "strategy.py")
    changes: dict[int, list[str]] = {}
    for line in log.splitlines():
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            continue  # the seed commit (no step) or an unreadable line
        changes[int(parts[1])] = parse_sub_goals(_git(ws, "show", f"{parts[0]}:strategy.py"))
    return changes


def _forward_fill(changes: dict[int, list[str]], n: int) -> list[list[str]]:
    out: list[list[str]] = []
    current: list[str] = []
    for step in range(n):
        current = changes.get(step, current)
        out.append(current)
    return out


def subgoal_held(name: str, frame: Array, next_frame: Array, level_up: bool, novel: bool) -> bool:
    """Whether a workspace sub-goal held in the next frame, judged from the frames alone (see module doc)."""
    if name == LEVEL_UP or name.startswith("level_up"):
        return level_up
    if name == "frontier":
        return novel
    m = _COLOUR.search(name)
    if m:
        c = int(m.group(1))
        return bool(np.any((frame == c) & (next_frame != c)))
    return False


# ----- building ------------------------------------------------------------------------------------

def _steps_to(flags: Array) -> npt.NDArray[np.int32]:
    """For each i, the number of steps until the next True at or after i (0 when flags[i]), -1 when none."""
    out = np.full(len(flags), -1, dtype=np.int32)
    nxt = -1
    for i in range(len(flags) - 1, -1, -1):
        if flags[i]:
            nxt = i
        out[i] = nxt - i if nxt >= 0 else -1
    return out


@dataclass
class _Source:
    frames: list[Array]
    nexts: list[Array]
    actions: list[int]
    clicks: list[tuple[int, int]]
    level_up: list[bool]
    game_over: list[bool]
    win: list[bool]
    level: list[int]
    steps: list[int]
    in_force: list[list[str]]
    held: list[list[str]]
    info: dict[str, Any]


def read_source(path: Path) -> _Source:
    """The transitions of one recording (and its workspace's sub-goals when beside a run's workspace)."""
    from dreamteam.env.replay import load_recording

    rec = load_recording(path)
    entries = list(rec.entries)
    prev = entries[0] if rec.has_initial_frame else None
    todo = entries[1:] if rec.has_initial_frame else entries
    ws = path.parent / "workspace"
    sub_goals = _forward_fill(workspace_sub_goals(ws), len(todo)) if ws.is_dir() else [[] for _ in todo]
    src = _Source([], [], [], [], [], [], [], [], [], [], [], {})
    seen: set[bytes] = set()
    if prev is not None and prev.grid is not None:
        seen.add(pad_frame(prev.grid).tobytes())
    for k, entry in enumerate(todo):
        if prev is None or prev.grid is None or entry.grid is None:
            prev = entry
            continue
        f, nf = pad_frame(prev.grid), pad_frame(entry.grid)
        key = nf.tobytes()
        novel = key not in seen
        seen.add(key)
        up = entry.levels_completed > prev.levels_completed and not entry.full_reset
        lost = entry.state == "GAME_OVER"
        x, y = (int(entry.data.get("x", -1)), int(entry.data.get("y", -1))) if entry.action_id == CLICK else (-1, -1)
        names = sub_goals[k]
        held = [LEVEL_UP] if up else []
        if lost:
            held.append(LOSE)
        held += [n for n in names if n not in (LEVEL_UP, LOSE) and subgoal_held(n, f, nf, up, novel)]
        src.frames.append(f)
        src.nexts.append(nf)
        src.actions.append(entry.action_id)
        src.clicks.append((x, y))
        src.level_up.append(up)
        src.game_over.append(lost)
        src.win.append(entry.state == "WIN")
        src.level.append(prev.levels_completed)
        src.steps.append(k)
        src.in_force.append(list(dict.fromkeys([LEVEL_UP, LOSE, *names])))
        src.held.append(held)
        prev = entry
    src.info = {"path": str(path), "game_id": rec.game_id, "format": rec.format, "transitions": len(src.actions),
                "level_ups": int(sum(src.level_up)), "game_overs": int(sum(src.game_over)),
                "workspace_sub_goals": bool(any(sub_goals))}
    return src


def build_dataset(paths: Sequence[Path], *, progress: Any = None) -> Dataset:
    """All transitions of the recordings found under `paths` (see `find_sources`)."""
    from dreamteam.env.replay import RecordingError

    sources = find_sources(paths)
    read: list[_Source] = []
    skipped: list[str] = []
    for p in sources:
        try:
            s = read_source(p)
        except RecordingError as exc:
            skipped.append(f"{p}: {exc}")
            continue
        if s.actions:
            read.append(s)
        if progress is not None:
            progress(p)
    if not read:
        raise DatasetError("no transitions in " + ", ".join(str(p) for p in paths)
                           + (f" (skipped: {'; '.join(skipped)})" if skipped else ""))
    vocab = [LEVEL_UP, LOSE]
    for s in read:
        for names in s.in_force:
            vocab.extend(n for n in names if n not in vocab)
    index = {n: i for i, n in enumerate(vocab)}
    n = sum(len(s.actions) for s in read)
    goals = np.zeros((n, len(vocab)), dtype=np.uint8)
    in_force = np.zeros((n, len(vocab)), dtype=np.uint8)
    row = 0
    for s in read:
        for held, force in zip(s.held, s.in_force, strict=True):
            goals[row, [index[g] for g in held]] = 1
            in_force[row, [index[g] for g in force]] = 1
            row += 1
    cat = np.concatenate
    ds = Dataset(
        frame=np.stack([f for s in read for f in s.frames]).astype(np.int8),
        action=np.asarray(cat([s.actions for s in read]), dtype=np.int8),
        click=np.asarray([c for s in read for c in s.clicks], dtype=np.int8).reshape(n, 2),
        next_frame=np.stack([f for s in read for f in s.nexts]).astype(np.int8),
        level_up=np.asarray(cat([s.level_up for s in read]), dtype=bool),
        game_over=np.asarray(cat([s.game_over for s in read]), dtype=bool),
        win=np.asarray(cat([s.win for s in read]), dtype=bool),
        level=np.asarray(cat([s.level for s in read]), dtype=np.int16),
        episode=np.asarray(cat([[e] * len(s.actions) for e, s in enumerate(read)]), dtype=np.int32),
        step=np.asarray(cat([s.steps for s in read]), dtype=np.int32),
        steps_to_level_up=cat([_steps_to(np.asarray(s.level_up)) for s in read]).astype(np.int32),
        steps_to_game_over=cat([_steps_to(np.asarray(s.game_over)) for s in read]).astype(np.int32),
        goals=goals, in_force=in_force,
    )
    ds.meta = {"format_version": FORMAT_VERSION, "goals": vocab, "negative_goals": list(NEGATIVE_GOALS),
               "sources": [s.info for s in read], "skipped": skipped, "transitions": n,
               "games": sorted({s.info["game_id"] for s in read}),
               "fingerprint": fingerprint(ds)}
    return ds


def fingerprint(ds: Dataset) -> str:
    """A short hash of the transitions (frames, actions, outcomes): which data a checkpoint saw."""
    h = hashlib.sha256()
    for k in ("frame", "action", "click", "next_frame", "level_up", "game_over"):
        h.update(np.ascontiguousarray(getattr(ds, k)).tobytes())
    return h.hexdigest()[:16]


def load_any(paths: Sequence[Path], *, progress: Any = None) -> Dataset:
    """A dataset from a single `.npz` file written by `dreamteam dataset`, or built from run directories."""
    if len(paths) == 1 and paths[0].suffix == ".npz":
        return Dataset.load(paths[0])
    if any(p.suffix == ".npz" for p in paths):
        raise DatasetError("give either one dataset .npz file or run directories / recordings, not both")
    return build_dataset(paths, progress=progress)


def split(ds: Dataset, val_fraction: float, seed: int) -> tuple[Array, Array]:
    """Train and validation indices, split by whole episodes when there are enough of them (so validation
    transitions come from runs the model never saw), else by a seeded shuffle of transitions."""
    rng = np.random.default_rng(seed)
    episodes = np.unique(ds.episode)
    n = len(ds)
    if len(episodes) >= 4:
        order = rng.permutation(episodes)
        val_eps: list[int] = []
        count = 0
        for e in order:
            if count >= val_fraction * n:
                break
            val_eps.append(int(e))
            count += int(np.sum(ds.episode == e))
        val_mask = np.isin(ds.episode, val_eps)
        if 0 < val_mask.sum() < n:
            return np.flatnonzero(~val_mask), np.flatnonzero(val_mask)
    perm = rng.permutation(n)
    k = max(1, int(round(val_fraction * n))) if n > 1 else 0
    return np.sort(perm[k:]), np.sort(perm[:k])
