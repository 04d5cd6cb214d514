"""Tactic scorers by name or dotted path, loaded (and checked) before a game starts.

A scorer spec is a comma-separated list of entries:

- `NAME` or `NAME:CHECKPOINT` for a registered name (`rollout`, `latent`, `critic`), e.g. `latent:ckpt/latent.npz`;
- `MODULE:ATTR` or `MODULE:ATTR@CHECKPOINT` for any other factory, e.g. `mypkg.scorers:Reverse@model.bin`.

An entry whose text before the first `:` is a registered name is a registered scorer (the rest is its
checkpoint); any other entry with a `:` is a dotted path (the checkpoint follows the first `@`, which no
Python name holds). A checkpoint
path cannot hold a comma. Every factory is called as `factory(checkpoint)` (None without one) and returns a
`TacticScorer`. An unknown name, a path that does not import, a missing checkpoint file or a factory that
raises all become a `ScorerError` whose message says what to fix.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamteam.errors import ScorerError
from dreamteam.protocols import TacticScorer

SCORERS: dict[str, str] = {
    "rollout": "dreamteam.scorers.rollout:RolloutScorer",
    "latent": "dreamteam.learn.scorers:LatentScorer",
    "critic": "dreamteam.learn.scorers:CriticScorer",
}
DEFAULT_SPEC = "rollout"
LEARNING_DOCS = "docs/learning.md"

ScorerFactory = Callable[[str | None], TacticScorer]
"""`factory(checkpoint) -> TacticScorer`: what every registered or dotted `module:attr` is."""

_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_ATTR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True, slots=True)
class ScorerEntry:
    """One parsed spec entry: the registered name or dotted path, where it is found, and the checkpoint."""

    ref: str
    """The registered name (`rollout`) or the dotted path (`pkg.mod:Attr`) as written."""
    target: str
    """The `module:attr` of the factory."""
    checkpoint: str | None = None

    def spec(self) -> str:
        """The entry written back in spec syntax."""
        if self.checkpoint is None:
            return self.ref
        return f"{self.ref}:{self.checkpoint}" if self.ref in SCORERS else f"{self.ref}@{self.checkpoint}"


@dataclass(frozen=True, slots=True)
class LoadedScorer:
    """A scorer built from one entry, with the sha256 of its checkpoint file (None without one)."""

    entry: ScorerEntry
    scorer: TacticScorer
    sha256: str | None = None

    @property
    def name(self) -> str:
        """The scorer's own name (the key of its scores in every record)."""
        return str(self.scorer.name)

    def summary(self) -> dict[str, Any]:
        """What run.json records of this scorer."""
        return {"name": self.name, "ref": self.entry.ref, "factory": self.entry.target,
                "checkpoint": self.entry.checkpoint, "sha256": self.sha256,
                "gate": gate_of(self.scorer), "weight": weight_of(self.scorer)}


def gate_of(scorer: Any) -> float | None:
    """The scorer's uncertainty gate (its `gate` attribute; None: no gate)."""
    gate = getattr(scorer, "gate", None)
    return float(gate) if isinstance(gate, int | float) and not isinstance(gate, bool) else None


def weight_of(scorer: Any) -> float:
    """The scorer's weight in the combination (its `weight` attribute; 1.0 by default)."""
    weight = getattr(scorer, "weight", 1.0)
    return float(weight) if isinstance(weight, int | float) and not isinstance(weight, bool) else 1.0


def parse_spec(spec: str) -> list[ScorerEntry]:
    """The entries of a spec (see the module docstring); ScorerError for an empty or malformed one."""
    entries: list[ScorerEntry] = []
    for raw in spec.split(","):
        text = raw.strip()
        if not text:
            raise ScorerError(f"bad scorer spec {spec!r}: an empty entry (the syntax is "
                              "NAME[:CHECKPOINT][,NAME[:CHECKPOINT]...], NAME a registered name or MODULE:ATTR[@CHECKPOINT])")
        entries.append(_parse_entry(text))
    return entries


def _parse_entry(text: str) -> ScorerEntry:
    head, colon, rest = text.partition(":")
    if head in SCORERS:
        checkpoint = rest.strip() if colon else None
        if colon and not checkpoint:
            raise ScorerError(f"scorer {head!r}: an empty checkpoint after ':' (write {head} or {head}:FILE)")
        return ScorerEntry(head, SCORERS[head], checkpoint)
    if not colon:
        raise ScorerError(f"unknown scorer {text!r}; scorers are: {', '.join(SCORERS)}, "
                          "or a dotted path MODULE:ATTR[@CHECKPOINT] to your own")
    attr, at, checkpoint = rest.partition("@")
    module, attr = head.strip(), attr.strip()
    if not _MODULE.match(module) or not _ATTR.match(attr):
        raise ScorerError(f"bad scorer {text!r}: {head!r} is not a registered scorer ({', '.join(SCORERS)}) and "
                          f"{text!r} is not a dotted path MODULE:ATTR[@CHECKPOINT]")
    if at and not checkpoint.strip():
        raise ScorerError(f"scorer {module}:{attr}: an empty checkpoint after '@'")
    return ScorerEntry(f"{module}:{attr}", f"{module}:{attr}", checkpoint.strip() if at else None)


def load_factory(entry: ScorerEntry) -> ScorerFactory:
    """Import the entry's factory (ScorerError when the module or the attribute is missing)."""
    module_name, _, attribute = entry.target.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise ScorerError(_missing_module(entry, module_name, exc)) from None
    except Exception as exc:  # a module that fails while importing: its own error, in one line
        raise ScorerError(f"scorer {entry.ref!r}: importing {module_name} failed "
                          f"({type(exc).__name__}: {_first_line(exc)})") from None
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise ScorerError(f"scorer {entry.ref!r}: {module_name} has no attribute {attribute!r}")
        found = getattr(found, part)
    if not callable(found):
        raise ScorerError(f"scorer {entry.ref!r}: {entry.target} is not callable (it must be a factory "
                          "`factory(checkpoint) -> TacticScorer`, e.g. a class)")
    factory: ScorerFactory = found
    return factory


def _missing_module(entry: ScorerEntry, module_name: str, exc: ModuleNotFoundError) -> str:
    missing = exc.name or module_name
    if entry.ref in SCORERS and entry.ref != "rollout":
        if module_name == missing or module_name.startswith(missing + "."):
            return (f"scorer {entry.ref!r} needs {module_name}, which is not part of this installation; "
                    f"the learned scorers come with DreamTeam's learning package (see {LEARNING_DOCS})")
        return (f"scorer {entry.ref!r} needs the Python package {missing.split('.')[0]!r}, which is not installed "
                f"(see {LEARNING_DOCS} for what the learned scorers need and how to install it)")
    if module_name == missing or module_name.startswith(missing + "."):
        return (f"scorer {entry.ref!r}: no module named {module_name!r} (is it installed, or on PYTHONPATH?)")
    return f"scorer {entry.ref!r}: importing {module_name} needs {missing!r}, which is not installed"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_entry(entry: ScorerEntry) -> LoadedScorer:
    """Build one scorer: check its checkpoint file, import its factory, call it, check the result."""
    sha = None
    if entry.checkpoint is not None:
        path = Path(entry.checkpoint)
        if not path.is_file():
            what = "is a directory, not a file" if path.is_dir() else "does not exist"
            raise ScorerError(f"scorer {entry.ref!r}: checkpoint {entry.checkpoint!r} {what}")
        try:
            sha = sha256_file(path)
        except OSError as exc:
            raise ScorerError(f"scorer {entry.ref!r}: cannot read checkpoint {entry.checkpoint!r}: "
                              f"{exc.strerror or exc}") from None
    factory = load_factory(entry)
    try:
        scorer = factory(entry.checkpoint)
    except ScorerError:
        raise
    except Exception as exc:  # a factory's own failure (bad checkpoint, wrong arguments): one clear line
        raise ScorerError(f"scorer {entry.ref!r} could not be built from "
                          f"{entry.checkpoint or 'no checkpoint'!r}: {type(exc).__name__}: {_first_line(exc)}") from None
    if not isinstance(scorer, TacticScorer) or not isinstance(getattr(scorer, "name", None), str) \
            or not scorer.name.strip():
        raise ScorerError(f"scorer {entry.ref!r}: {entry.target} returned {type(scorer).__name__}, which is not a "
                          "TacticScorer (it needs a non-empty `name` and `score(state, tactics, goals, context)`)")
    return LoadedScorer(entry, scorer, sha)
