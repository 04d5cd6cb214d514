"""The learned scorers: the TacticScorer contract, the gate, bad checkpoints before any game, no JAX at start-up."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dreamteam.errors import ScorerError
from dreamteam.learn import scorers
from dreamteam.learn.scorers import CriticScorer, LatentScorer
from dreamteam.protocols import Score, TacticScorer
from dreamteam.types import Action, Observation, Tactic

from .conftest import synthetic


def observation() -> Observation:
    grid = synthetic(episodes=1, steps=1).frame[0]
    return Observation(grid=grid, frames=(grid,), state="NOT_FINISHED", levels_completed=0, win_levels=1,
                       available_actions=(1, 2, 3, 4, 6), step=7)


TACTICS = [Tactic("right", "enter:colour9", (Action(4), Action(4)), "moves right"),
           Tactic("left", "enter:colour9", (Action(3),), "moves left"),
           Tactic("click", "enter:colour9", (Action(6, 10, 10),), "clicks the door")]


def test_latent_scorer_contract_and_gate(latent_ckpt: tuple[Path, Any, dict[str, Any]]) -> None:
    path = str(latent_ckpt[0])
    s = LatentScorer(path)
    assert isinstance(s, TacticScorer) and s.name == "latent"
    out = s.score(observation(), TACTICS, ["enter:colour9"], {"step": 7})
    assert len(out) == len(TACTICS) and all(isinstance(x, Score) for x in out)
    assert all(x.uncertainty >= 0 and len(x.note.split()) <= 30 for x in out)
    assert out[0].note.startswith("tactic right")
    # deterministic for a step, and cheap once compiled
    assert s.score(observation(), TACTICS, [], {"step": 7}) == out
    assert s.score(observation(), [], [], {}) == []
    # the gate: every tactic above tau abstains (value None), none below
    closed = LatentScorer(path, tau=-1.0).score(observation(), TACTICS, [], {"step": 7})
    assert all(x.value is None and "abstain" in x.note for x in closed)
    opened = LatentScorer(path, tau=float("inf"), beta=0.0).score(observation(), TACTICS, [], {"step": 7})
    assert all(x.value is not None and np.isfinite(x.value) for x in opened)
    # more tactics than a bucket still gives one score each
    many = [Tactic(f"t{i}", "g", (Action(1 + i % 4),), "") for i in range(11)]
    assert len(s.score(observation(), many, [], {"step": 8})) == 11


def test_critic_scorer_contract_and_critique(critic_ckpt: tuple[Path, Any, dict[str, Any]]) -> None:
    s = CriticScorer(str(critic_ckpt[0]))
    assert isinstance(s, TacticScorer) and s.name == "critic"
    out = s.score(observation(), TACTICS, ["enter:colour9", "lose_level", "frontier"], {"step": 1})
    assert len(out) == 3 and all(x.value is not None and np.isfinite(x.value) for x in out)
    assert all(len(x.note.split()) <= 30 for x in out)
    assert s.last_critique and s.last_critique[0].startswith("for enter:colour9: tactic ")
    text = s.critique(observation(), TACTICS, ["enter:colour9"])
    assert text.splitlines()[0] == s.last_critique[0]
    assert CriticScorer.goal_list(["lose_level"]) == ["level_up"]


def _copy(src: Path, dst: Path) -> Path:
    shutil.copy(src, dst)
    shutil.copy(str(src) + ".json", str(dst) + ".json")
    return dst


@pytest.mark.parametrize("cls", [LatentScorer, CriticScorer])
def test_bad_checkpoints_fail_at_construction(cls: type, tmp_path: Path,
                                              latent_ckpt: tuple[Path, Any, dict[str, Any]],
                                              critic_ckpt: tuple[Path, Any, dict[str, Any]]) -> None:
    good = latent_ckpt[0] if cls is LatentScorer else critic_ckpt[0]
    other = critic_ckpt[0] if cls is LatentScorer else latent_ckpt[0]
    with pytest.raises(ScorerError, match="needs a checkpoint"):
        cls(None)
    with pytest.raises(ScorerError, match="does not exist"):
        cls(str(tmp_path / "nope.eqx"))
    lone = tmp_path / "lone.eqx"
    shutil.copy(good, lone)
    with pytest.raises(ScorerError, match="no config"):
        cls(str(lone))
    with pytest.raises(ScorerError, match="is not a"):
        cls(str(_copy(other, tmp_path / "other.eqx")))
    # corrupt: truncated weights (the sha256 in the config catches it) ...
    cut = _copy(good, tmp_path / "cut.eqx")
    cut.write_bytes(cut.read_bytes()[:100])
    with pytest.raises(ScorerError, match="does not match its config"):
        cls(str(cut))
    # ... and without the sha256, reading them fails
    cfg_file = Path(str(cut) + ".json")
    cfg = json.loads(cfg_file.read_text())
    del cfg["weights_sha256"]
    cfg_file.write_text(json.dumps(cfg))
    with pytest.raises(ScorerError, match="cannot be read"):
        cls(str(cut))
    # wrong shapes: the config describes a bigger model than the weights hold
    wide = _copy(good, tmp_path / "wide.eqx")
    cfg = json.loads(Path(str(wide) + ".json").read_text())
    cfg["model"]["width"] = cfg["model"]["width"] * 2
    Path(str(wide) + ".json").write_text(json.dumps(cfg))
    with pytest.raises(ScorerError, match="wrong shapes"):
        cls(str(wide))
    broken = _copy(good, tmp_path / "broken.eqx")
    Path(str(broken) + ".json").write_text("{not json")
    with pytest.raises(ScorerError, match="not valid JSON"):
        cls(str(broken))


def test_without_jax_the_scorers_and_train_say_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import dreamteam.learn as learn
    from dreamteam.cli import main

    monkeypatch.setattr(scorers, "jax_missing", lambda: "jax")
    monkeypatch.setattr(learn, "jax_missing", lambda: "jax")
    with pytest.raises(ScorerError, match=r"pip install 'dreamteam\[learn\]'"):
        LatentScorer("whatever.eqx")
    with pytest.raises(ScorerError, match=r"pip install 'dreamteam\[learn\]'"):
        CriticScorer("whatever.eqx")
    assert main(["train", "latent", "--runs", "x", "--out", "y"]) != 0
    assert "pip install 'dreamteam[learn]'" in capsys.readouterr().err


def test_the_command_line_does_not_import_jax() -> None:
    code = ("import sys; from dreamteam.cli import build_parser; build_parser(); "
            "import dreamteam.learn.scorers, dreamteam.learn.dataset; "
            "print(sorted(m for m in ('jax', 'optax', 'equinox') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_train_command_writes_a_checkpoint_the_scorer_loads(tmp_path: Path, synthetic_ds: Any,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from dreamteam.cli import main

    data = tmp_path / "d.npz"
    synthetic_ds.save(data)
    out = tmp_path / "c.eqx"
    assert main(["train", "critic", "--runs", str(data), "--out", str(out), "--epochs", "1", "--seed", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["metrics"]["pairs"] > 0 and "ranking_accuracy" in printed["metrics"]
    assert json.loads(Path(str(out) + ".json").read_text())["training"]["seed"] == 2
    assert len(CriticScorer(str(out)).score(observation(), TACTICS, [], {})) == 3
