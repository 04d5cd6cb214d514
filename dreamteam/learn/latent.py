"""DreamPhase: a latent world model over one-hot frames with an uncertainty gate (imports JAX: load lazily).

- Encoder q(z | frame) = N(mu, sigma) from a small conv net over the 17 one-hot planes.
- Transition p(z' | z, a) = N(mu', sigma') from an MLP over [z, action embedding]; its hidden layers take
  explicit dropout masks, so Monte-Carlo dropout is N passes with N masks.
- Decoder: z' -> next-frame logits per cell (transposed convs), plus a learned per-colour copy term on the
  current frame (most cells do not change; the decoder learns the change).
- Event head on z': none / level-up / game over (unweighted, so its probabilities stay calibrated). Value head V(z) on discounted level-up returns.
- Loss: per-cell cross-entropy + kl_weight * (KL(q || N(0,I)) + KL(p || N(0,I))) + event cross-entropy
  + value MSE + a consistency term pulling mu' toward the encoder's mean of the real next frame (so several
  latent steps stay where frames live).

Imagination (`imagine`): for T tactics, N dropout masks and M latent samples, H steps in latent space (the
tactic's actions, then uniformly random available actions), batched with vmap under one jit. Per tactic:
G = sum_t gamma^t (P(level-up)_t - P(game over)_t) + gamma^H V(z_H), averaged over masks and samples, and
u = the mutual information between the event at each step and the dropout mask (BALD: entropy of the mean
prediction minus the mean entropy), summed over the horizon, plus the spread of G across masks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from dreamteam.learn.dataset import CLASSES, SIZE, Dataset
from dreamteam.learn.nets import (
    ACTION_FEATURES,
    MLP,
    Encoder,
    action_features,
    dropout_masks,
    numpy_init,
    one_hot_frames,
)

KIND = "latent"
EVENTS = ("none", "level_up", "game_over")


@dataclass(frozen=True)
class LatentConfig:
    """Shapes and hyper-parameters (stored in the checkpoint's JSON config)."""

    z_dim: int = 32
    width: int = 16
    hidden: int = 128
    action_dim: int = 16
    keep: float = 0.9
    kl_weight: float = 0.01
    gamma: float = 0.9

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @staticmethod
    def from_json(d: dict[str, Any]) -> LatentConfig:
        return LatentConfig(**{k: d[k] for k in LatentConfig().__dict__})


class LatentModel(eqx.Module):
    """The DreamPhase network (see the module docstring)."""

    encoder: Encoder
    action_embed: eqx.nn.Linear
    transition: MLP
    dec_in: eqx.nn.Linear
    deconvs: tuple[eqx.nn.ConvTranspose2d, ...]
    copy: jax.Array
    events: MLP
    value: MLP
    z_dim: int = eqx.field(static=True)
    width: int = eqx.field(static=True)
    hidden: int = eqx.field(static=True)
    keep: float = eqx.field(static=True)
    gamma: float = eqx.field(static=True)
    kl_weight: float = eqx.field(static=True)

    def __init__(self, cfg: LatentConfig, *, key: jax.Array) -> None:
        ks = jax.random.split(key, 9)
        w = cfg.width
        self.z_dim, self.width, self.hidden = cfg.z_dim, w, cfg.hidden
        self.keep, self.gamma, self.kl_weight = cfg.keep, cfg.gamma, cfg.kl_weight
        self.encoder = Encoder(w, 2 * cfg.z_dim, key=ks[0])
        self.action_embed = eqx.nn.Linear(ACTION_FEATURES, cfg.action_dim, key=ks[1])
        self.transition = MLP([cfg.z_dim + cfg.action_dim, cfg.hidden, cfg.hidden, 2 * cfg.z_dim], key=ks[2])
        self.dec_in = eqx.nn.Linear(cfg.z_dim, 2 * w * (SIZE // 8) ** 2, key=ks[3])
        self.deconvs = (eqx.nn.ConvTranspose2d(2 * w, 2 * w, 4, stride=2, padding=1, key=ks[4]),
                        eqx.nn.ConvTranspose2d(2 * w, w, 4, stride=2, padding=1, key=ks[5]),
                        eqx.nn.ConvTranspose2d(w, CLASSES, 4, stride=2, padding=1, key=ks[6]))
        self.copy = jnp.full((CLASSES,), 5.0)
        self.events = MLP([cfg.z_dim, 64, len(EVENTS)], key=ks[7])
        self.value = MLP([cfg.z_dim, 64, 1], key=ks[8])

    def encode(self, frame: jax.Array) -> tuple[jax.Array, jax.Array]:
        """(mu, log sigma) of q(z | frame)."""
        h = self.encoder(frame)
        return h[:self.z_dim], jnp.clip(h[self.z_dim:], -6.0, 2.0)

    def step(self, z: jax.Array, act: jax.Array, masks: jax.Array | None = None) -> tuple[jax.Array, jax.Array]:
        """(mu', log sigma') of p(z' | z, a); `act` is the 11 action features."""
        h = self.transition(jnp.concatenate([z, jax.nn.relu(self.action_embed(act))]), masks)
        return z + h[:self.z_dim], jnp.clip(h[self.z_dim:], -6.0, 2.0)

    def decode(self, z: jax.Array, frame: jax.Array) -> jax.Array:
        """Next-frame logits (64, 64, 17) from z' and the current frame (the copy term)."""
        h = jax.nn.relu(self.dec_in(z)).reshape(2 * self.width, SIZE // 8, SIZE // 8)
        for i, conv in enumerate(self.deconvs):
            h = conv(h)
            if i < len(self.deconvs) - 1:
                h = jax.nn.relu(h)
        logits = h + self.copy[:, None, None] * one_hot_frames(frame)
        return jnp.moveaxis(logits, 0, -1)

    def event_logits(self, z: jax.Array) -> jax.Array:
        return self.events(z)

    def v(self, z: jax.Array) -> jax.Array:
        return self.value(z)[0]


def _kl(mu: jax.Array, logs: jax.Array) -> jax.Array:
    return 0.5 * jnp.sum(jnp.exp(2 * logs) + mu ** 2 - 1.0 - 2 * logs)


def make_batches(ds: Dataset, gamma: float) -> Any:
    """A function idx -> batch dict (numpy) for the training loop."""
    acts = action_features(ds.action, ds.click)
    events = np.where(ds.level_up, 1, np.where(ds.game_over, 2, 0)).astype(np.int32)
    ret = np.where(ds.steps_to_level_up >= 0, gamma ** ds.steps_to_level_up.astype(np.float32), 0.0).astype(np.float32)
    weights = event_weights(ds)

    def make(idx: np.ndarray[Any, Any]) -> dict[str, Any]:
        return {"frame": ds.frame[idx], "next": ds.next_frame[idx], "act": acts[idx], "event": events[idx],
                "ret": ret[idx], "ew": weights}
    return make


def event_weights(ds: Dataset) -> np.ndarray[Any, Any]:
    """Class weights for the event head: all 1, so its probabilities stay calibrated (imagination sums them
    over the horizon as expected rewards; inverse-frequency weights made a game over look likely everywhere)."""
    return np.ones(len(EVENTS), dtype=np.float32)


def _one_loss(model: LatentModel, frame: jax.Array, nxt: jax.Array, act: jax.Array, event: jax.Array,
              ret: jax.Array, ew: jax.Array, key: jax.Array) -> tuple[jax.Array, ...]:
    k1, k2, k3 = jax.random.split(key, 3)
    mu, logs = model.encode(frame)
    z = mu + jnp.exp(logs) * jax.random.normal(k1, mu.shape)
    masks = dropout_masks(k3, 1, 2, model.hidden, model.keep)[0]
    mu2, logs2 = model.step(z, act, masks)
    z2 = mu2 + jnp.exp(logs2) * jax.random.normal(k2, mu2.shape)
    logits = model.decode(z2, frame)
    ce = -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(nxt.astype(jnp.int32), CLASSES), -1))
    target_mu, _ = model.encode(nxt)
    cons = jnp.mean((mu2 - jax.lax.stop_gradient(target_mu)) ** 2)
    ev = -jax.nn.log_softmax(model.event_logits(z2))[event] * ew[event]
    val = (model.v(z) - ret) ** 2
    kl = _kl(mu, logs) + _kl(mu2, logs2)
    return ce, cons, ev, val, kl


def loss(model: LatentModel, batch: dict[str, Any], key: jax.Array) -> tuple[jax.Array, dict[str, jax.Array]]:
    """The training loss: cross-entropy + consistency + 0.1 event + value + KL (weighted per latent dim)."""
    keys = jax.random.split(key, batch["frame"].shape[0])
    ce, cons, ev, val, kl = jax.vmap(_one_loss, in_axes=(None, 0, 0, 0, 0, 0, None, 0))(
        model, batch["frame"], batch["next"], batch["act"], batch["event"], batch["ret"], batch["ew"], keys)
    total = ce.mean() + cons.mean() + 0.1 * ev.mean() + val.mean() + model.kl_weight * kl.mean() / model.z_dim
    return total, {"ce": ce.mean(), "kl": kl.mean(), "event": ev.mean(), "value": val.mean()}


@eqx.filter_jit
def predict_next(model: LatentModel, frames: jax.Array, acts: jax.Array) -> jax.Array:
    """The most likely next frame for each (frame, action), using the means (no sampling, no dropout)."""
    def one(frame: jax.Array, act: jax.Array) -> jax.Array:
        mu, _ = model.encode(frame)
        mu2, _ = model.step(mu, act)
        return jnp.argmax(model.decode(mu2, frame), -1).astype(jnp.int8)
    return jax.vmap(one)(frames, acts)


def evaluate(model: LatentModel, ds: Dataset, idx: np.ndarray[Any, Any], batch: int = 64) -> dict[str, float]:
    """Held-out next-frame cell accuracy (all cells, and the cells that changed) against copying the frame."""
    if len(idx) == 0:
        return {}
    acts = action_features(ds.action, ds.click)
    right = changed = changed_right = total = copy_right = 0
    for b in range(0, len(idx), batch):
        sel = idx[b:b + batch]
        pad = np.concatenate([sel, np.repeat(sel[:1], batch - len(sel))])   # one compiled shape
        pred = np.asarray(predict_next(model, jnp.asarray(ds.frame[pad]), jnp.asarray(acts[pad])))[:len(sel)]
        nxt, cur = ds.next_frame[sel], ds.frame[sel]
        right += int(np.sum(pred == nxt))
        copy_right += int(np.sum(cur == nxt))
        mask = cur != nxt
        changed += int(mask.sum())
        changed_right += int(np.sum((pred == nxt) & mask))
        total += nxt.size
    return {"cell_accuracy": right / total, "copy_baseline_accuracy": copy_right / total,
            "changed_cell_accuracy": changed_right / changed if changed else float("nan"),
            "changed_cells": float(changed), "transitions": float(len(idx))}


# ----- imagination ---------------------------------------------------------------------------------

def _rollout(model: LatentModel, z0: jax.Array, acts: jax.Array, masks: jax.Array,
             key: jax.Array) -> tuple[jax.Array, jax.Array]:
    def body(z: jax.Array, inp: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        act, k = inp
        mu, logs = model.step(z, act, masks)
        z2 = mu + jnp.exp(logs) * jax.random.normal(k, mu.shape)
        return z2, jax.nn.softmax(model.event_logits(z2))
    keys = jax.random.split(key, acts.shape[0])
    z_end, probs = jax.lax.scan(body, z0, (acts, keys))
    return probs, model.v(z_end)


def _entropy(p: jax.Array) -> jax.Array:
    return -jnp.sum(p * jnp.log(jnp.clip(p, 1e-8, 1.0)), -1)


@eqx.filter_jit
def imagine(model: LatentModel, frame: jax.Array, acts: jax.Array, key: jax.Array,
            n_masks: int) -> tuple[jax.Array, ...]:
    """Imagined rollouts for T tactics: acts (T, M, H, 11) -> G (T,), u (T,), P(level-up) (T, H),
    P(game over) (T, H). Compiled once per model shape, T, M, H and n_masks."""
    t, n_samples, horizon = acts.shape[0], acts.shape[1], acts.shape[2]
    mu, _ = model.encode(frame)
    k_mask, k_roll = jax.random.split(key)
    masks = dropout_masks(k_mask, n_masks, 2, model.hidden, model.keep)
    keys = jax.random.split(k_roll, t * n_masks * n_samples).reshape(t, n_masks, n_samples, -1)
    roll = functools.partial(_rollout, model)
    per_sample = jax.vmap(roll, in_axes=(None, 0, None, 0))          # over M samples
    per_mask = jax.vmap(per_sample, in_axes=(None, None, 0, 0))      # over N masks
    per_tactic = jax.vmap(per_mask, in_axes=(None, 0, None, 0))      # over T tactics
    probs, v_end = per_tactic(mu, acts, masks, keys)                 # (T, N, M, H, 3), (T, N, M)
    disc = model.gamma ** jnp.arange(horizon, dtype=jnp.float32)
    g = jnp.sum(disc * (probs[..., 1] - probs[..., 2]), -1) + model.gamma ** horizon * v_end   # (T, N, M)
    g_mask = g.mean(-1)                                              # (T, N)
    p_mask = probs.mean(2)                                           # (T, N, H, 3)
    p_mean = p_mask.mean(1)                                          # (T, H, 3)
    mi = _entropy(p_mean) - _entropy(p_mask).mean(1)                 # (T, H)
    u = jnp.sum(mi, -1) + jnp.std(g_mask, -1)
    return g_mask.mean(-1), u, p_mean[..., 1], p_mean[..., 2]


def tactic_actions(tactics_actions: list[list[tuple[int, int, int]]], available: list[int], n_samples: int,
                   horizon: int, rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """(T, M, H, 11) action features: each tactic's actions (id, x, y), then uniformly random available
    actions (a click at a random cell when ACTION6 is drawn) up to the horizon."""
    t = len(tactics_actions)
    ids = np.zeros((t, n_samples, horizon), dtype=np.int64)
    clicks = np.full((t, n_samples, horizon, 2), -1, dtype=np.int64)
    pool = [a for a in available if 1 <= a <= 7] or [1, 2, 3, 4]
    for i, acts in enumerate(tactics_actions):
        for m in range(n_samples):
            for h in range(horizon):
                if h < len(acts):
                    a, x, y = acts[h]
                else:
                    a = int(rng.choice(pool))
                    x, y = (int(rng.integers(0, SIZE)), int(rng.integers(0, SIZE))) if a == 6 else (-1, -1)
                ids[i, m, h] = a
                if a == 6:
                    clicks[i, m, h] = (x, y)
    feats = action_features(ids.reshape(-1), clicks.reshape(-1, 2))
    return feats.reshape(t, n_samples, horizon, ACTION_FEATURES)


def calibrate_tau(model: LatentModel, cfg: LatentConfig, ds: Dataset, idx: np.ndarray[Any, Any], *, n_masks: int,
                  n_samples: int, horizon: int, seed: int, quantile: float = 0.9, limit: int = 64) -> dict[str, float]:
    """The gate threshold: the `quantile` of u over held-out transitions (each scored as a one-action tactic);
    so on data like the training data about 1 - quantile of tactics are gated."""
    if len(idx) == 0:
        return {"tau": float("inf"), "u_median": float("nan")}
    rng = np.random.default_rng(seed)
    sel = idx if len(idx) <= limit else np.sort(rng.choice(idx, limit, replace=False))
    us = []
    for j, i in enumerate(sel):
        a, (x, y) = int(ds.action[i]), (int(ds.click[i, 0]), int(ds.click[i, 1]))
        acts = tactic_actions([[(a, x, y)]], [1, 2, 3, 4, 5, 6, 7], n_samples, horizon, rng)
        _g, u, _pu, _po = imagine(model, jnp.asarray(ds.frame[i]), jnp.asarray(acts), jax.random.PRNGKey(seed + j),
                                  n_masks)
        us.append(float(u[0]))
    arr = np.asarray(us)
    tau = float(np.quantile(arr, quantile))
    # the gate's calibration: how often the first predicted frame was wrong (any cell) where the gate would
    # accept (u <= tau) against where it would abstain
    acts = action_features(ds.action[sel], ds.click[sel])
    pred = np.asarray(predict_next(model, jnp.asarray(ds.frame[sel]), jnp.asarray(acts)))
    wrong = np.any(pred != ds.next_frame[sel], axis=(1, 2))
    accepted = arr <= tau
    return {"tau": tau, "u_median": float(np.median(arr)), "u_quantile": quantile, "u_samples": float(len(arr)),
            "first_prediction_wrong_accepted": float(wrong[accepted].mean()) if accepted.any() else float("nan"),
            "first_prediction_wrong_rejected": float(wrong[~accepted].mean()) if (~accepted).any() else float("nan"),
            "accepted": float(accepted.sum()), "rejected": float((~accepted).sum())}


def new_model(cfg: LatentConfig, seed: int) -> LatentModel:
    """A freshly initialised model, deterministic in `seed` (weights drawn by `nets.numpy_init`)."""
    model: LatentModel = numpy_init(skeleton({"model": cfg.to_json()}), seed)
    fresh: LatentModel = eqx.tree_at(lambda m: m.copy, model, jnp.full((CLASSES,), 5.0))
    return fresh


def skeleton(config: dict[str, Any]) -> LatentModel:
    """The shapes of the model a checkpoint config describes (abstract leaves, nothing computed), to read
    the weights into."""
    cfg = LatentConfig.from_json(config["model"])
    return eqx.filter_eval_shape(lambda: LatentModel(cfg, key=jax.random.PRNGKey(0)))  # type: ignore[no-any-return]


IMAGINE_DEFAULTS: dict[str, Any] = {"n_masks": 8, "n_samples": 4, "horizon": 8, "beta": 1.0}


def train(ds: Dataset, *, epochs: int, seed: int, batch_size: int = 32, lr: float = 1e-3,
          val_fraction: float = 0.2, max_train: int | None = None, cfg: LatentConfig | None = None, progress: bool = True) -> tuple[LatentModel, dict[str, Any]]:
    """Train on a dataset with a held-out split; returns the model and its config (metrics included)."""
    from dreamteam.learn.dataset import split
    from dreamteam.learn.training import fit

    cfg = cfg or LatentConfig()
    train_idx, val_idx = split(ds, val_fraction, seed)
    if max_train and len(train_idx) > max_train:   # a seeded subset, to bound the time per epoch
        train_idx = np.sort(np.random.default_rng(seed).choice(train_idx, max_train, replace=False))
    model = new_model(cfg, seed)
    model, history = fit(model, loss, make_batches(ds, cfg.gamma), train_idx,
                         epochs=epochs, batch_size=batch_size, lr=lr, seed=seed, label="train latent",
                         progress=progress)
    metrics = evaluate(model, ds, val_idx)
    metrics["train_cell_accuracy"] = evaluate(model, ds, train_idx[:256])["cell_accuracy"]
    gate = calibrate_tau(model, cfg, ds, val_idx if len(val_idx) else train_idx, seed=seed,
                         n_masks=IMAGINE_DEFAULTS["n_masks"], n_samples=IMAGINE_DEFAULTS["n_samples"],
                         horizon=IMAGINE_DEFAULTS["horizon"])
    config = {"kind": KIND, "model": cfg.to_json(),
              "imagine": {**IMAGINE_DEFAULTS, "tau": gate["tau"]},
              "gate_calibration": gate,
              "training": {"epochs": epochs, "seed": seed, "batch_size": batch_size, "lr": lr,
                           "val_fraction": val_fraction, "max_train": max_train, "train_transitions": len(train_idx),
                           "val_transitions": len(val_idx), "loss": history["loss"],
                           "train_seconds": history["train_seconds"], "steps": history["steps"]},
              "data": data_summary(ds),
              "metrics": metrics}
    return model, config


def data_summary(ds: Dataset) -> dict[str, Any]:
    """What a checkpoint was trained on (kept in its config)."""
    return {"transitions": len(ds), "games": ds.meta.get("games", []), "fingerprint": ds.meta.get("fingerprint"),
            "level_ups": int(ds.level_up.sum()), "game_overs": int(ds.game_over.sum()),
            "sources": len(ds.meta.get("sources", [])), "goals": len(ds.goal_names)}
