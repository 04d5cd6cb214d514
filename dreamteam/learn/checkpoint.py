"""Checkpoints: equinox's own leaf serialisation (`FILE`) plus a JSON config beside it (`FILE.json`).

The config holds the model kind, its shapes and hyper-parameters (enough to build the skeleton the weights
are read into), the training data summary and the held-out metrics, and the weights file's sha256. Every
problem (no file, no config, another kind, a changed or corrupt weights file, shapes that do not match)
raises ScorerError with the path and what to do, so a bad checkpoint stops `dreamteam play` before the game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamteam.errors import ScorerError


def config_path(path: Path) -> Path:
    """Where the JSON config of checkpoint `path` lives."""
    return Path(str(path) + ".json")


def sha256(path: Path) -> str:
    """The file's sha256 hex digest."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save(path: Path, model: Any, config: dict[str, Any]) -> dict[str, Any]:
    """Write the weights and the config (with the weights' sha256); returns the config written."""
    import equinox as eqx

    path.parent.mkdir(parents=True, exist_ok=True)
    eqx.tree_serialise_leaves(str(path), model)
    config = {**config, "weights_sha256": sha256(path), "weights_file": path.name}
    config_path(path).write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    return config


def read_config(path: Path | str | None, kind: str) -> dict[str, Any]:
    """The config of a checkpoint of this kind, checked against its weights file."""
    if path is None or str(path) == "":
        raise ScorerError(f"the {kind} scorer needs a checkpoint: --scorer {kind}:FILE "
                          f"(train one with `dreamteam train {kind} --runs DIR --out FILE`)")
    path = Path(path)
    if not path.is_file():
        raise ScorerError(f"{kind} checkpoint {path} does not exist")
    cfg_file = config_path(path)
    if not cfg_file.is_file():
        raise ScorerError(f"{kind} checkpoint {path} has no config {cfg_file.name} beside it "
                          f"(`dreamteam train` writes both; copy them together)")
    try:
        config = json.loads(cfg_file.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScorerError(f"{kind} checkpoint config {cfg_file} is not valid JSON: {exc}") from None
    if not isinstance(config, dict) or config.get("kind") != kind:
        found = config.get("kind") if isinstance(config, dict) else None
        raise ScorerError(f"{path} is not a {kind} checkpoint (its config says kind={found!r})")
    want = config.get("weights_sha256")
    if want and sha256(path) != want:
        raise ScorerError(f"{kind} checkpoint {path} does not match its config (sha256 differs): "
                          "the weights file was changed, truncated or replaced")
    return config


def load[M](path: Path | str | None, kind: str, skeleton: Callable[[dict[str, Any]], M]) -> tuple[M, dict[str, Any]]:
    """(model, config): the skeleton built from the config with the weights read into it."""
    config = read_config(path, kind)
    from dreamteam.learn import INSTALL_HINT, jax_missing

    missing = jax_missing()
    if missing:
        raise ScorerError(f"the {kind} scorer needs {missing}: {INSTALL_HINT}")
    import equinox as eqx

    try:
        like = skeleton(config)
    except (KeyError, TypeError, ValueError) as exc:
        raise ScorerError(f"{kind} checkpoint config {config_path(Path(str(path)))} is incomplete: {exc!r}") from None
    try:
        model = eqx.tree_deserialise_leaves(str(path), like)
    except Exception as exc:  # equinox/numpy raise several kinds for a wrong shape or a short file
        raise ScorerError(f"{kind} checkpoint {path} cannot be read into the model its config describes "
                          f"(wrong shapes or a corrupt file): {type(exc).__name__}: {exc}") from None
    return model, config
