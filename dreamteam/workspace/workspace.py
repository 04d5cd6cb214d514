"""The workspace: a git repository of surface artifacts plus evidence, with one commit per environment step."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import git

from dreamteam.codec import normalise_transition
from dreamteam.workspace import evidence as ev
from dreamteam.workspace.errors import UnknownStepError, WorkspaceError
from dreamteam.workspace.gitstore import tag_bytes, update_ref
from dreamteam.workspace.packfile import PackBuffer
from dreamteam.workspace.records import StepLogEntry, StepRecord, commit_message
from dreamteam.workspace.regression import DEFAULT_PINNED_CAP, DEFAULT_WINDOW, RegressionWindow
from dreamteam.workspace.repository import StepIndex, init_repo, open_repo, step_entries
from dreamteam.workspace.seeds import read_seed
from dreamteam.workspace.surfaces import Surface, surface
from dreamteam.workspace.writer import Writer, load_writer

Revision = int | str | None
"""A step number, a git revision (tag, sha, "seed", "HEAD") or None for the latest commit."""

TAG_KINDS = ("start", "solved")
MAINTAIN_EVERY = 50
log = logging.getLogger(__name__)


class Workspace:
    """A git-versioned workspace; create with `Workspace.create`, reopen with `Workspace.open`."""

    def __init__(self, root: Path, repo: git.Repo, clock: Callable[[], float] = time.time) -> None:
        self.root = root
        self.repo = repo
        self.clock = clock
        self.git_dir = Path(repo.git_dir)
        self._writer: Writer | None = None
        self._index = StepIndex(repo, repo.head.commit.hexsha)
        self.restored: list[str] = []
        """Tracked files an interrupted step had left changed; restored to HEAD when writing resumed."""
        self.maintain_every = MAINTAIN_EVERY
        """Merge the one-pack-per-step packs every this many step commits (0: never)."""
        self._since_maintain = 0

    # ----- creating and opening -------------------------------------------------------------------

    @classmethod
    def create(
        cls, path: Path, seed_dir: Path, *, window_size: int = DEFAULT_WINDOW,
        pinned_cap: int = DEFAULT_PINNED_CAP, clock: Callable[[], float] = time.time,
    ) -> Workspace:
        """Create a workspace at `path` (absent or empty) from a seed folder and make the seed commit."""
        path = Path(path)
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise WorkspaceError(f"cannot create a workspace at {path}: it exists and is not an empty folder")
        files = read_seed(Path(seed_dir))
        path.mkdir(parents=True, exist_ok=True)
        repo = init_repo(path)
        writer = Writer(path, Path(repo.git_dir), None, RegressionWindow(window_size, pinned_cap))
        for rel, data in files.items():
            writer.stage(rel, data)
        writer.stage(".gitignore", ev.GITIGNORE.encode())
        writer.stage(ev.WINDOW, ev.dump_json(writer.window.manifest()))
        writer.stage(ev.REPLAY_REPORT, ev.dump_json({}))
        for view in ev.MATERIALISED:
            writer.write_view(view, b"")
        name = Path(seed_dir).resolve().name
        when = int(clock())
        sha = writer.commit(f"seed workspace {name}\n\nDreamTeam-Seed: {name}\n", when)
        _write_tag(writer.git_dir, "seed", sha, f"seed workspace {name}", when)
        workspace = cls(path, repo, clock)
        workspace._writer = writer
        return workspace

    @classmethod
    def open(cls, path: Path, *, clock: Callable[[], float] = time.time) -> Workspace:
        """Open an existing workspace; reading never changes files (writing first repairs an interrupted step)."""
        path = Path(path)
        return cls(path, open_repo(path), clock)

    def close(self) -> None:
        """Stop GitPython's helper processes."""
        self.repo.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # ----- writing --------------------------------------------------------------------------------

    def _w(self) -> Writer:
        if self._writer is None:
            self._writer, self.restored = load_writer(self.repo, self.root, self.head_sha)
        return self._writer

    def write_surface(self, name: str, text: str) -> None:
        """Write a surface's artifact (staged for the next step commit); JSON surfaces must hold an object."""
        target = surface(name)
        if target.kind == "json":
            _check_json_object(target, text)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise WorkspaceError(f"{target.path} text is not encodable as UTF-8: {exc}") from None
        self._w().stage(target.path, data)

    def add_transition(self, transition: Mapping[str, Any]) -> dict[str, Any]:
        """Record a transition (shared format) in the evidence and the regression window; returns it normalised."""
        normal = normalise_transition(transition)
        writer = self._w()
        if normal["step"] <= writer.window.last_step:
            raise WorkspaceError(f"transition step {normal['step']} is not after step {writer.window.last_step}")
        writer.add_transition(normal)
        return writer.window.get(normal["step"]) or normal

    def add_prediction(self, record: ev.PredictionRecord) -> None:
        """Append one line to evidence/predictions.jsonl."""
        self._w().add_prediction(json.dumps(record.to_json(), separators=(",", ":")), record.step)

    def write_replay_report(self, report: Mapping[str, Any]) -> None:
        """Replace evidence/replay_report.json with the last replay report."""
        self._w().stage(ev.REPLAY_REPORT, ev.dump_json(dict(report)))

    def commit_step(self, record: StepRecord) -> str:
        """Commit the step (staged surfaces and evidence, possibly nothing) and return the commit sha."""
        last = max(self._index.steps, default=-1)
        if record.step <= last:
            raise WorkspaceError(f"step {record.step} is not after the last committed step {last}")
        sha = self._w().commit(commit_message(record), int(self.clock()))
        self._index.add(record.step, sha)
        self._since_maintain += 1
        if self.maintain_every and self._since_maintain >= self.maintain_every:
            self.maintain()
        return sha

    def maintain(self) -> None:
        """Merge small packs (`git repack --geometric=2`); a failure is logged, never raised."""
        self._since_maintain = 0
        try:
            self.repo.git.repack("-d", "-q", "--geometric=2")
        except git.GitCommandError as exc:
            log.warning("workspace maintenance (git repack) failed: %s", exc)

    def tag_level(self, level: int, kind: str, at: Revision = None, *, message: str = "", move: bool = False) -> str:
        """Tag a level boundary (`level-N-start` / `level-N-solved`) at a step (default: the latest commit)."""
        if kind not in TAG_KINDS or level < 0:
            raise WorkspaceError(f"a level tag needs level >= 0 and kind in {TAG_KINDS}, got {level}, {kind!r}")
        name = f"level-{level}-{kind}"
        sha = self.sha_for(at)
        existing = self._tag_target(name)
        if existing is not None and existing != sha and not move:
            raise WorkspaceError(f"tag {name} already marks commit {existing[:12]}; pass move=True to move it")
        if existing != sha:
            _write_tag(self.git_dir, name, sha, message or f"level {level} {kind}", int(self.clock()))
        return name

    def reset_to(self, at: Revision) -> str:
        """Move the workspace back to a committed step (resume after a crash); later commits and tags go."""
        sha = self.sha_for(at)
        self.repo.git.reset("--hard", "--quiet", sha)
        for tag in list(self.repo.tags):
            if not self.repo.is_ancestor(tag.commit, self.repo.commit(sha)):
                self.repo.delete_tag(tag)
        self._writer = None
        self._index.rebuild(self.repo)
        self._w()
        return sha

    # ----- reading --------------------------------------------------------------------------------

    @property
    def head_sha(self) -> str:
        """The sha of the latest commit."""
        if self._writer is not None and self._writer.head is not None:
            return self._writer.head
        return self.repo.head.commit.hexsha

    @property
    def last_step(self) -> int | None:
        """The newest committed step (None before the first step commit)."""
        return max(self._index.steps, default=None)

    def steps(self) -> dict[int, str]:
        """Every committed step and its commit sha."""
        return dict(self._index.steps)

    def sha_for(self, at: Revision = None) -> str:
        """Resolve a step number, revision string or None (latest) to a commit sha."""
        if at is None:
            return self.head_sha
        if isinstance(at, int) or at.isdigit():
            return self._index.sha(int(at))
        try:
            return str(self.repo.git.rev_parse("--verify", "--quiet", f"{at}^{{commit}}"))
        except git.GitCommandError:
            raise UnknownStepError(f"unknown revision {at!r} (use a step number, a tag such as seed, or a sha)") from None

    def read_file(self, path: str, at: Revision = None) -> bytes:
        """The bytes of a tracked file at a step (default: the latest commit)."""
        commit = self.repo.commit(self.sha_for(at))
        try:
            blob = commit.tree / path
        except KeyError:
            raise WorkspaceError(f"{path} is not in the workspace at commit {commit.hexsha[:12]}") from None
        data: bytes = blob.data_stream.read()
        return data

    def read_surface(self, name: str, at: Revision = None) -> str:
        """A surface's artifact text as committed at the end of a step (default: the latest commit)."""
        return self.read_file(surface(name).path, at).decode("utf-8")

    def diff(self, a: Revision, b: Revision, surface_name: str | None = None) -> str:
        """Unified diff between two steps (or revisions), optionally of one surface only."""
        paths = [surface(surface_name).path] if surface_name else []
        return str(self.repo.git.diff("--no-color", "--no-ext-diff", self.sha_for(a), self.sha_for(b), "--", *paths))

    def show(self, at: Revision, surface_name: str | None = None) -> str:
        """A step's commit message and its diff against the previous commit (optionally one surface)."""
        paths = [surface(surface_name).path] if surface_name else []
        sha = self.sha_for(at)
        header = str(self.repo.git.show("--no-patch", "--format=medium", sha))
        patch = str(self.repo.git.show("--no-color", "--no-ext-diff", "--format=", sha, "--", *paths)).strip("\n")
        return f"{header}\n\n{patch or '(no change to ' + ', '.join(paths or ['any file']) + ' in this commit)'}\n"

    def log(self) -> list[StepLogEntry]:
        """Every step commit, oldest first, read from the commit trailers."""
        return step_entries(self.repo, self.head_sha)

    def regression(self) -> list[dict[str, Any]]:
        """The current regression window R_t (transitions in the shared format, oldest first)."""
        if self._writer is None:
            return self.regression_at(None)
        return [dict(t) for t in self._writer.window.transitions()]

    def regression_at(self, at: Revision) -> list[dict[str, Any]]:
        """The regression window as it was committed at a step, read back from git."""
        manifest = json.loads(self.read_file(ev.WINDOW, at))
        return [json.loads(self.read_file(ev.transition_path(int(s)), at)) for s in manifest.get("steps", [])]

    def predictions(self, last: int | None = None) -> list[dict[str, Any]]:
        """The prediction lines of evidence/predictions.jsonl (the `last` ones when given)."""
        rows = ev.read_jsonl(self.root / ev.PREDICTIONS)
        return rows[-last:] if last else rows

    def _tag_target(self, name: str) -> str | None:
        try:
            return str(self.repo.git.rev_parse("--verify", "--quiet", f"refs/tags/{name}^{{commit}}"))
        except git.GitCommandError:
            return None


def _write_tag(git_dir: Path, name: str, target: str, message: str, when: int) -> None:
    pack = PackBuffer(git_dir)
    tag = pack.write_object("tag", tag_bytes(target, name, message, when)).hex()
    pack.flush()
    update_ref(git_dir, f"refs/tags/{name}", tag, None, f"tag: {name}", when, reflog=False)


def _check_json_object(target: Surface, text: str) -> None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise WorkspaceError(f"{target.path} must be valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise WorkspaceError(f"{target.path} must hold a JSON object")

