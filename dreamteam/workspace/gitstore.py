"""A fast single-writer path into a git repository: trees, commits, refs and the index.

Step commits are written with git's documented on-disk formats instead of `git add`/`git commit`
subprocesses (about 2 ms per spawn, 40 ms per step in all) or GitPython's index (slow for many
entries); see docs/workspace.md for the measurements. Everything written is ordinary git: `git fsck`
accepts it and `git status` stays clean.
"""

from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from dreamteam.workspace.errors import WorkspaceError

IDENTITY = "DreamTeam <dreamteam@localhost>"
FILE_MODE = "100644"
DIR_MODE = "40000"
ZERO_SHA = "0" * 40


@dataclass(slots=True)
class _Dir:
    entries: dict[str, bytes | _Dir]
    sha: bytes | None = None


class TreeCache:
    """The file tree of the last commit held in memory; only directories that changed are rewritten."""

    def __init__(self) -> None:
        self._root = _Dir({})

    def set(self, path: str, sha: bytes) -> None:
        """Record the blob id of a file (all files are mode 100644)."""
        *parents, name = path.split("/")
        node = self._root
        node.sha = None
        for part in parents:
            child = node.entries.get(part)
            if not isinstance(child, _Dir):
                child = node.entries[part] = _Dir({})
            child.sha = None
            node = child
        node.entries[name] = sha

    def get(self, path: str) -> bytes | None:
        """The blob id of a file, or None when the tree does not hold it."""
        node: bytes | _Dir | None = self._root
        for part in path.split("/"):
            if not isinstance(node, _Dir):
                return None
            node = node.entries.get(part)
        return node if isinstance(node, bytes) else None

    def write(self, store: ObjectStore) -> bytes:
        """Write every changed tree object; return the root tree id."""
        return self._write_dir(self._root, store)

    def _write_dir(self, node: _Dir, store: ObjectStore) -> bytes:
        if node.sha is not None:
            return node.sha
        items: list[tuple[bytes, bytes]] = []
        for name, child in node.entries.items():
            if isinstance(child, _Dir):
                items.append((name.encode() + b"/", f"{DIR_MODE} {name}\0".encode() + self._write_dir(child, store)))
            else:
                items.append((name.encode(), f"{FILE_MODE} {name}\0".encode() + child))
        items.sort()
        node.sha = store.write_object("tree", b"".join(entry for _, entry in items))
        return node.sha


class ObjectStore(Protocol):
    """Anything that stores a git object and returns its binary id (see `packfile.PackBuffer`)."""

    def write_object(self, kind: str, data: bytes) -> bytes:
        """Store an object of `kind` and return its binary id."""


def commit_bytes(tree: bytes, parent: str | None, message: str, when: int) -> bytes:
    """Serialise a commit object authored and committed by the fixed DreamTeam identity."""
    lines = [f"tree {tree.hex()}"]
    if parent:
        lines.append(f"parent {parent}")
    stamp = f"{IDENTITY} {when} +0000"
    lines += [f"author {stamp}", f"committer {stamp}", "", message]
    return "\n".join(lines).encode()


def tag_bytes(target: str, name: str, message: str, when: int) -> bytes:
    """Serialise an annotated tag object pointing at commit `target`."""
    head = f"object {target}\ntype commit\ntag {name}\ntagger {IDENTITY} {when} +0000\n\n"
    return (head + message.rstrip("\n") + "\n").encode()


def read_ref(git_dir: Path, ref: str) -> str | None:
    """The sha a ref points at, from its loose file or from packed-refs (None when it does not exist)."""
    loose = git_dir / ref
    if loose.is_file():
        return loose.read_text(encoding="ascii").strip()
    packed = git_dir / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="ascii").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha
    return None


def update_ref(
    git_dir: Path, ref: str, new: str, old: str | None, reason: str, when: int, *, reflog: bool = True,
) -> None:
    """Point `ref` at `new` under git's lock-file protocol (`old` is the value expected).

    With `reflog` the update is logged for the ref and for HEAD, as git does for the checked-out branch.
    """
    path = git_dir / ref
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise WorkspaceError(f"{lock} exists: another process is writing this workspace") from None
    try:
        current = read_ref(git_dir, ref)
        if old is not None and current != old:
            raise WorkspaceError(f"{ref} moved to {current} behind our back (expected {old})")
        os.write(fd, f"{new}\n".encode())
    except BaseException:
        os.close(fd)
        lock.unlink(missing_ok=True)
        raise
    os.close(fd)
    os.replace(lock, path)
    line = f"{old or ZERO_SHA} {new} {IDENTITY} {when} +0000\t{reason.splitlines()[0] if reason else ''}\n"
    for log in (git_dir / "logs" / ref, git_dir / "logs" / "HEAD") if reflog else ():
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(line)


class IndexWriter:
    """Keeps git's index (version 2) in step with the commits we write, so `git status` stays clean."""

    def __init__(self, git_dir: Path, work_tree: Path) -> None:
        self.path = git_dir / "index"
        self.work_tree = work_tree
        self._entries: dict[bytes, bytes] = {}

    def set(self, path: str, sha: bytes, clean: bool = True) -> None:
        """Record `path` with blob id `sha`; `clean` says the file on disk holds exactly that blob."""
        name = path.encode()
        fields = [0] * 10
        if clean:
            st = os.stat(self.work_tree / path)
            fields = [
                int(st.st_ctime), st.st_ctime_ns % 1_000_000_000, int(st.st_mtime), st.st_mtime_ns % 1_000_000_000,
                st.st_dev & 0xFFFFFFFF, st.st_ino & 0xFFFFFFFF, 0, st.st_uid, st.st_gid, st.st_size & 0xFFFFFFFF,
            ]
        fields[6] = 0o100644
        flags = min(len(name), 0xFFF)
        entry = struct.pack(">10I20sH", *fields, sha, flags) + name
        self._entries[name] = entry + b"\0" * (8 - len(entry) % 8)

    def write(self) -> None:
        """Write the index file (entries sorted by path, SHA-1 trailer) atomically."""
        body = b"DIRC" + struct.pack(">II", 2, len(self._entries))
        body += b"".join(self._entries[name] for name in sorted(self._entries))
        temp = self.path.with_name("index.dreamteam.tmp")
        temp.write_bytes(body + hashlib.sha1(body).digest())
        os.replace(temp, self.path)
