"""Write the objects of one commit as a single git pack (version 2, no deltas) plus its index (version 2).

One pack per step creates two files instead of one file per object (about ten per step); file
creation dominates the cost of a commit on ordinary disks. `git gc --auto` later merges the packs
and adds delta compression (see `Workspace.maintain`).
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from pathlib import Path

TYPE_CODES = {"commit": 1, "tree": 2, "blob": 3, "tag": 4}


def object_id(kind: str, data: bytes) -> bytes:
    """The binary object id git gives `data` stored as `kind`."""
    digest = hashlib.sha1(f"{kind} {len(data)}\0".encode())
    digest.update(data)
    return digest.digest()


def _entry_header(kind: str, size: int) -> bytes:
    byte = (TYPE_CODES[kind] << 4) | (size & 0x0F)
    size >>= 4
    out = bytearray()
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


class PackBuffer:
    """Collects objects in memory and writes them as one pack + index into `<git_dir>/objects/pack`."""

    def __init__(self, git_dir: Path, level: int = 1) -> None:
        self.pack_dir = git_dir / "objects" / "pack"
        self.level = level
        self._entries: dict[bytes, bytes] = {}

    def write_object(self, kind: str, data: bytes) -> bytes:
        """Buffer an object (blob, tree, commit, tag) and return its binary id."""
        sha = object_id(kind, data)
        if sha not in self._entries:
            self._entries[sha] = _entry_header(kind, len(data)) + zlib.compress(data, self.level)
        return sha

    def __len__(self) -> int:
        return len(self._entries)

    def flush(self) -> str | None:
        """Write the buffered objects as a pack (pack file first, then its index); returns the pack name."""
        if not self._entries:
            return None
        shas = sorted(self._entries)
        body = bytearray(b"PACK" + struct.pack(">II", 2, len(shas)))
        offsets, crcs = [], []
        for sha in shas:
            entry = self._entries[sha]
            offsets.append(len(body))
            crcs.append(zlib.crc32(entry))
            body += entry
        pack_sum = hashlib.sha1(body).digest()
        body += pack_sum
        name = f"pack-{pack_sum.hex()}"
        self.pack_dir.mkdir(parents=True, exist_ok=True)
        # git only sees a pack once its .idx exists, so the pack can be written in place; the index
        # appears atomically by rename.
        _write_readonly(self.pack_dir / f"{name}.pack", body)
        temp = self.pack_dir / f"tmp_{name}.idx"
        _write_readonly(temp, _index_bytes(shas, crcs, offsets, pack_sum))
        os.replace(temp, self.pack_dir / f"{name}.idx")
        self._entries.clear()
        return name


def _index_bytes(shas: list[bytes], crcs: list[int], offsets: list[int], pack_sum: bytes) -> bytes:
    if offsets and offsets[-1] >= 1 << 31:
        raise ValueError("pack too large for 32-bit offsets")
    fanout = [0] * 256
    for sha in shas:
        fanout[sha[0]] += 1
    running = 0
    for i in range(256):
        running += fanout[i]
        fanout[i] = running
    out = bytearray(b"\377tOc" + struct.pack(">I", 2))
    out += struct.pack(">256I", *fanout)
    out += b"".join(shas)
    out += struct.pack(f">{len(crcs)}I", *crcs)
    out += struct.pack(f">{len(offsets)}I", *offsets)
    out += pack_sum
    out += hashlib.sha1(out).digest()
    return bytes(out)


def _write_readonly(path: Path, data: bytes | bytearray) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o444)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
