"""The writing half of a workspace: staged files, the regression window and one fast commit per step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import git

from dreamteam.codec import transition_to_pretty
from dreamteam.workspace import evidence as ev
from dreamteam.workspace.gitstore import IndexWriter, TreeCache, commit_bytes, update_ref
from dreamteam.workspace.packfile import PackBuffer, object_id
from dreamteam.workspace.regression import RegressionWindow

HEAD_REF = "refs/heads/main"


class Writer:
    """Holds what the next commit needs: the last tree, the index, staged files and the evidence caches."""

    def __init__(self, root: Path, git_dir: Path, head: str | None, window: RegressionWindow) -> None:
        self.root = root
        self.git_dir = git_dir
        self.head = head
        self.window = window
        self.objects = PackBuffer(git_dir)
        self.tree = TreeCache()
        self.index = IndexWriter(git_dir, root)
        self.staged: dict[str, bytes] = {}
        self.regression_cache: dict[int, bytes] = {}
        self.bucket_text: dict[str, bytes] = {}

    def stage(self, path: str, data: bytes) -> None:
        """Write a tracked file to the working tree and stage it for the next commit."""
        ev.write_file(self.root / path, data)
        self.staged[path] = data

    def write_view(self, path: str, data: bytes) -> None:
        """Write an untracked materialised view (never committed)."""
        ev.write_file(self.root / path, data)

    def commit(self, message: str, when: int) -> str:
        """Commit everything staged on top of HEAD (an unchanged tree is fine) and move main to it."""
        for path, data in self.staged.items():
            sha = self.objects.write_object("blob", data)
            self.tree.set(path, sha)
            self.index.set(path, sha)
        tree = self.tree.write(self.objects)
        commit = self.objects.write_object("commit", commit_bytes(tree, self.head, message, when)).hex()
        self.objects.flush()
        subject = message.splitlines()[0] if message else ""
        reason = f"commit{' (initial)' if self.head is None else ''}: {subject}"
        update_ref(self.git_dir, HEAD_REF, commit, self.head, reason, when)
        self.index.write()
        self.staged.clear()
        self.head = commit
        return commit

    def add_transition(self, transition: dict[str, Any]) -> None:
        """Store a transition file, slide the window and refresh window.json and regression.jsonl."""
        step = int(transition["step"])
        self.window.add(transition)
        stored = self.window.get(step) or transition
        self.stage(ev.transition_path(step), transition_to_pretty(stored).encode())
        self.stage(ev.WINDOW, ev.dump_json(self.window.manifest()))
        self.write_view(ev.REGRESSION, ev.window_lines(self.window.transitions(), self.regression_cache))

    def add_prediction(self, line: str, step: int) -> None:
        """Append a prediction line to its tracked bucket and to the materialised predictions.jsonl."""
        bucket = ev.prediction_bucket_path(step)
        if bucket not in self.bucket_text:
            path = self.root / bucket
            self.bucket_text = {bucket: path.read_bytes() if path.exists() else b""}
        data = self.bucket_text[bucket] + (line + "\n").encode()
        self.bucket_text[bucket] = data
        self.stage(bucket, data)
        with open(self.root / ev.PREDICTIONS, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def load_writer(repo: git.Repo, root: Path, head: str) -> tuple[Writer, list[str]]:
    """Rebuild the writer of an existing workspace; files that differ from HEAD are restored (returned)."""
    git_dir = Path(repo.git_dir)
    listing = repo.git.ls_tree("-r", "-t", "--full-tree", head)
    writer = Writer(root, git_dir, head, RegressionWindow())
    blobs: dict[str, bytes] = {}
    for line in listing.splitlines():
        meta, _, path = line.partition("\t")
        _, kind, hexsha = meta.split()
        if kind == "blob":
            blobs[path] = bytes.fromhex(hexsha)
            writer.tree.set(path, blobs[path])
    restored = _restore_files(repo, root, blobs, writer)
    _remove_untracked_evidence(root, blobs)
    writer.window = _load_window(root)
    _rebuild_views(writer, blobs)
    writer.index.write()
    return writer, restored


def _restore_files(repo: git.Repo, root: Path, blobs: dict[str, bytes], writer: Writer) -> list[str]:
    restored = []
    for path, sha in blobs.items():
        file = root / path
        if not file.is_file() or object_id("blob", file.read_bytes()) != sha:
            ev.write_file(file, repo.odb.stream(sha).read())
            restored.append(path)
        writer.index.set(path, sha)
    return sorted(restored)


def _remove_untracked_evidence(root: Path, blobs: dict[str, bytes]) -> None:
    for folder in (ev.TRANSITIONS_DIR, ev.PREDICTION_BUCKETS_DIR):
        base = root / folder
        if base.is_dir():
            for file in base.rglob("*"):
                if file.is_file() and file.relative_to(root).as_posix() not in blobs:
                    file.unlink()


def _load_window(root: Path) -> RegressionWindow:
    manifest_file = root / ev.WINDOW
    manifest = json.loads(manifest_file.read_text(encoding="utf-8")) if manifest_file.exists() else {}
    steps = [int(s) for s in manifest.get("steps", [])]
    transitions = {s: json.loads((root / ev.transition_path(s)).read_text(encoding="utf-8")) for s in steps}
    return RegressionWindow.restore(manifest, transitions)


def _rebuild_views(writer: Writer, blobs: dict[str, bytes]) -> None:
    writer.write_view(ev.REGRESSION, ev.window_lines(writer.window.transitions(), writer.regression_cache))
    buckets = sorted(p for p in blobs if p.startswith(ev.PREDICTION_BUCKETS_DIR + "/"))
    writer.write_view(ev.PREDICTIONS, b"".join((writer.root / p).read_bytes() for p in buckets))
