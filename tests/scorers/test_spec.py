"""Scorer specs: parsing, loading, and the clear errors of a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.errors import ScorerError, UserError
from dreamteam.protocols import TacticScorer
from dreamteam.scorers import SCORERS, ScorerEntry, ScorerSet, parse_spec
from dreamteam.scorers.registry import sha256_file

PLUGINS = "tests.scorers.plugins"


def test_registered_names_and_checkpoints() -> None:
    assert parse_spec("rollout") == [ScorerEntry("rollout", SCORERS["rollout"], None)]
    assert parse_spec(" latent:ckpt/a.npz , critic:/abs/c:1.bin,rollout") == [
        ScorerEntry("latent", "dreamteam.learn.scorers:LatentScorer", "ckpt/a.npz"),
        ScorerEntry("critic", "dreamteam.learn.scorers:CriticScorer", "/abs/c:1.bin"),  # the first ':' splits
        ScorerEntry("rollout", SCORERS["rollout"], None),
    ]


def test_dotted_paths_take_a_checkpoint_after_the_first_at() -> None:
    assert parse_spec(f"{PLUGINS}:Reverse") == [ScorerEntry(f"{PLUGINS}:Reverse", f"{PLUGINS}:Reverse", None)]
    assert parse_spec("pkg.mod:Outer.Inner@me@host/model.bin") == [
        ScorerEntry("pkg.mod:Outer.Inner", "pkg.mod:Outer.Inner", "me@host/model.bin")]
    entry = parse_spec("mymodule:Factory@weights.bin")[0]
    assert (entry.ref, entry.target, entry.checkpoint) == ("mymodule:Factory", "mymodule:Factory", "weights.bin")
    assert entry.spec() == "mymodule:Factory@weights.bin"
    assert parse_spec("latent:x.npz")[0].spec() == "latent:x.npz"


@pytest.mark.parametrize(("spec", "message"), [
    ("", "empty entry"),
    ("rollout,,latent", "empty entry"),
    ("rolout", "unknown scorer 'rolout'; scorers are: rollout, latent, critic"),
    ("latent:", "empty checkpoint"),
    ("pkg.mod:Attr@", "empty checkpoint"),
    ("not a path:Attr", "not a dotted path"),
    ("pkg.mod:", "not a dotted path"),
])
def test_malformed_specs(spec: str, message: str) -> None:
    with pytest.raises(ScorerError, match=message.replace("(", r"\(")):
        parse_spec(spec)


def test_scorer_error_is_a_user_error() -> None:
    assert issubclass(ScorerError, UserError)


def test_load_default_and_dotted() -> None:
    default = ScorerSet.load()
    assert default.names == ["rollout"] and default.spec == "rollout"
    both = ScorerSet.load(f"rollout,{PLUGINS}:Reverse")
    assert both.names == ["rollout", "reverse"]
    assert all(isinstance(s.scorer, TacticScorer) for s in both.loaded)


def test_checkpoint_is_passed_hashed_and_recorded(tmp_path: Path) -> None:
    ckpt = tmp_path / "values.txt"
    ckpt.write_text("1 3 2\n", encoding="utf-8")
    loaded = ScorerSet.load(f"{PLUGINS}:FromFile@{ckpt}")
    assert loaded.loaded[0].scorer.values == [1.0, 3.0, 2.0]  # type: ignore[attr-defined]
    summary = loaded.summary()
    assert summary["spec"] == f"{PLUGINS}:FromFile@{ckpt}"
    (item,) = summary["scorers"]
    assert item["name"] == "fromfile" and item["checkpoint"] == str(ckpt.resolve())
    assert item["sha256"] == sha256_file(ckpt) and len(item["sha256"]) == 64
    assert ScorerSet.load("rollout").summary()["scorers"][0]["sha256"] is None


@pytest.mark.parametrize(("spec", "message"), [
    ("latent:/no/such/ckpt.npz", "checkpoint '/no/such/ckpt.npz' does not exist"),
    ("no_such_package_xyz.mod:Scorer", "no module named 'no_such_package_xyz.mod'"),
    (f"{PLUGINS}:Missing", "has no attribute 'Missing'"),
    (f"{PLUGINS}:NOT_CALLABLE", "is not callable"),
    (f"{PLUGINS}:refuses", "could not be built.*wrong shape"),
    (f"{PLUGINS}:not_a_scorer", "is not a TacticScorer"),
    (f"{PLUGINS}:FromFile", "could not be built from 'no checkpoint'.*needs a checkpoint"),
    ("tests.scorers.needs_missing_dep:Scorer", "needs 'no_such_numeric_library_for_tests', which is not installed"),
    (f"rollout,{PLUGINS}:Reverse,rollout", "names 'rollout' more than once"),
])
def test_load_errors(spec: str, message: str) -> None:
    with pytest.raises(ScorerError, match=message):
        ScorerSet.load(spec)


def test_rollout_takes_no_checkpoint(tmp_path: Path) -> None:
    ckpt = tmp_path / "m.bin"
    ckpt.write_bytes(b"x")
    with pytest.raises(ScorerError, match="'rollout' takes no checkpoint"):
        ScorerSet.load(f"rollout:{ckpt}")


def test_directory_as_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(ScorerError, match="is a directory, not a file"):
        ScorerSet.load(f"{PLUGINS}:FromFile@{tmp_path}")


def test_learned_scorer_whose_module_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`latent` and `critic` live in a module of their own; without it the message says what is missing."""
    ckpt = tmp_path / "m.bin"
    ckpt.write_bytes(b"x")
    monkeypatch.setitem(SCORERS, "latent", "dreamteam.no_such_learning_module.scorers:LatentScorer")
    with pytest.raises(ScorerError, match=r"scorer 'latent' needs dreamteam\.no_such_learning_module\.scorers, "
                                          r"which is not part of this installation.*docs/learning\.md"):
        ScorerSet.load(f"latent:{ckpt}")


def test_learned_scorer_whose_library_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ckpt = tmp_path / "m.bin"
    ckpt.write_bytes(b"x")
    monkeypatch.setitem(SCORERS, "critic", "tests.scorers.needs_missing_dep:Scorer")
    with pytest.raises(ScorerError, match=r"scorer 'critic' needs the Python package "
                                          r"'no_such_numeric_library_for_tests', which is not installed"):
        ScorerSet.load(f"critic:{ckpt}")
