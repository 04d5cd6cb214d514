"""Tiny latent models and critics: training on synthetic transitions, metrics, determinism, round trips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jax
import numpy as np
import pytest

from dreamteam.learn import checkpoint, critic, latent
from dreamteam.learn.dataset import Dataset, split
from dreamteam.learn.nets import goal_features
from tests.learn.conftest import TINY_LATENT


def leaves(model: Any) -> list[np.ndarray]:
    import equinox as eqx

    return [np.asarray(x) for x in jax.tree_util.tree_leaves(eqx.filter(model, eqx.is_array))]


def test_latent_trains_and_reports_held_out_metrics(latent_ckpt: tuple[Path, Any, dict[str, Any]]) -> None:
    _path, _model, config = latent_ckpt
    m = config["metrics"]
    assert 0.0 <= m["cell_accuracy"] <= 1.0 and 0.0 <= m["copy_baseline_accuracy"] <= 1.0
    assert m["transitions"] == config["training"]["val_transitions"] > 0
    assert config["training"]["loss"][-1] < config["training"]["loss"][0]   # it learns something
    assert np.isfinite(config["imagine"]["tau"]) and config["data"]["transitions"] == 40
    assert config["model"]["z_dim"] == TINY_LATENT["z_dim"]
    gate = config["gate_calibration"]
    assert gate["accepted"] + gate["rejected"] == gate["u_samples"] and gate["accepted"] >= 1
    assert 0.0 <= gate["first_prediction_wrong_accepted"] <= 1.0


def test_latent_training_is_deterministic_under_a_seed(latent_ckpt: tuple[Path, Any, dict[str, Any]],
                                                       synthetic_ds: Dataset) -> None:
    _path, model, config = latent_ckpt
    again, config2 = latent.train(synthetic_ds, epochs=2, seed=0, batch_size=16, progress=False,
                                  cfg=latent.LatentConfig(**TINY_LATENT))
    for a, b in zip(leaves(model), leaves(again), strict=True):
        assert np.array_equal(a, b)
    assert config2["metrics"] == config["metrics"]


def test_checkpoint_round_trip(latent_ckpt: tuple[Path, Any, dict[str, Any]],
                               critic_ckpt: tuple[Path, Any, dict[str, Any]]) -> None:
    for (path, model, _config), mod in ((latent_ckpt, latent), (critic_ckpt, critic)):
        loaded, config = checkpoint.load(path, mod.KIND, mod.skeleton)
        assert config["weights_sha256"] == checkpoint.sha256(path)
        for a, b in zip(leaves(model), leaves(loaded), strict=True):
            assert np.array_equal(a, b)


def test_the_split_holds_out_whole_runs(synthetic_ds: Dataset) -> None:
    tr, va = split(synthetic_ds, 0.25, seed=1)
    assert len(tr) + len(va) == len(synthetic_ds) and len(va) > 0
    assert not set(synthetic_ds.episode[tr]) & set(synthetic_ds.episode[va])
    assert np.array_equal(split(synthetic_ds, 0.25, seed=1)[1], va)


def test_critic_samples_relabel_goals_in_hindsight(synthetic_ds: Dataset) -> None:
    cfg = critic.CriticConfig(tactic_len=2)
    sm = critic.build_samples(synthetic_ds, np.arange(len(synthetic_ds)), cfg, seed=0)
    ups = np.flatnonzero(synthetic_ds.level_up)
    assert len(ups)
    t = int(ups[0])
    row = np.flatnonzero((sm.start == t) & (sm.goal == 0))[0]
    assert sm.reward[row] == 1.0 and sm.done[row] == 1.0            # the goal held on the first step
    if t > 0 and synthetic_ds.episode[t - 1] == synthetic_ds.episode[t]:
        prev = np.flatnonzero((sm.start == t - 1) & (sm.goal == 0))[0]
        assert sm.reward[prev] == pytest.approx(cfg.gamma)           # one step later: discounted once
    assert set(np.unique(sm.goal)) <= {0, 1, 2}


def test_critic_metrics_and_critique(critic_ckpt: tuple[Path, Any, dict[str, Any]]) -> None:
    _path, _model, config = critic_ckpt
    m = config["metrics"]
    assert m["pairs"] > 0 and 0.0 <= m["ranking_accuracy"] <= 1.0
    lines = critic.critique(["A", "B"], ["reach the door"], np.array([[0.5], [0.1]]), np.array([0.05, 0.7]))
    assert lines[0].startswith("for reach the door: tactic A ranks first")
    assert lines[1] == "tactic B is likely to lose the level before reaching reach the door (Q lose 0.70 vs 0.10)"


def test_goal_features_share_words() -> None:
    a, b, c = (goal_features(n, 64) for n in ("enter:colour14", "enter:colour3", "lose_level"))
    assert float(a @ b) > float(a @ c)
    assert np.allclose(goal_features("enter:colour14", 64), a)
