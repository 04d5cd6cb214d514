"""Seed workspaces (W_0): `seeds/<name>/` holds one file per surface."""

from __future__ import annotations

import os
from pathlib import Path

from dreamteam.workspace.errors import SeedError
from dreamteam.workspace.surfaces import SURFACES

REPO_ROOT = Path(__file__).resolve().parents[2]


def seeds_dir() -> Path:
    """The folder of seed workspaces: `seeds/` beside the package (override with DREAMTEAM_SEEDS_DIR)."""
    return Path(os.environ.get("DREAMTEAM_SEEDS_DIR", REPO_ROOT / "seeds"))


def available_seeds(root: Path | None = None) -> list[str]:
    """Names of the complete seed workspaces under `root` (default: `seeds_dir()`)."""
    base = root or seeds_dir()
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if p.is_dir() and not missing_files(p))


def missing_files(seed_dir: Path) -> list[str]:
    """The surface files a seed directory lacks."""
    return [s.path for s in SURFACES if not (seed_dir / s.path).is_file()]


def seed_path(name: str, root: Path | None = None) -> Path:
    """Resolve `--seed-workspace NAME` (or a path to a seed folder) to a complete seed directory."""
    base = root or seeds_dir()
    candidate = Path(name)
    seed_dir = candidate if ("/" in name or candidate.is_absolute()) and candidate.is_dir() else base / name
    if not seed_dir.is_dir():
        known = ", ".join(available_seeds(base)) or "none"
        raise SeedError(f"unknown seed workspace {name!r} (looked in {base}); available seeds: {known}")
    missing = missing_files(seed_dir)
    if missing:
        raise SeedError(f"seed workspace {seed_dir} lacks {', '.join(missing)}")
    return seed_dir


def read_seed(seed_dir: Path) -> dict[str, bytes]:
    """The surface files of a seed, by workspace path (other files in the folder are ignored)."""
    missing = missing_files(seed_dir)
    if missing:
        raise SeedError(f"seed workspace {seed_dir} lacks {', '.join(missing)}")
    return {s.path: (seed_dir / s.path).read_bytes() for s in SURFACES}
