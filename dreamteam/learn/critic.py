"""PNLC: a goal-conditioned critic trained offline with implicit Q-learning (imports JAX: load lazily).

Q(s, tactic, g) (twin heads) and V(s, g) over a shared conv encoding of the frame, a tactic encoding (its
first L actions, 11 features each, plus a length feature) and a goal encoding (a hashed bag of the words and
character trigrams of the goal's name, `nets.goal_features`), so a sub-goal name never seen in training is
scored from the parts of it that were.

Training samples come from the recorded runs: for transition t the "tactic" is the next l = min(L, steps
left in the run) actions actually taken, and each goal in force at t (level_up, lose_level, the workspace's
sub-goals) gets the reward gamma^j if it first held j steps into the chunk, else 0 (hindsight relabelling).
Implicit Q-learning: V is fitted to min(Q1, Q2) by expectile regression (tau_e = 0.7; no action outside the
data is ever queried during training) and Q to r + gamma^l * (1 - done) * V(s', g). Positive and negative
goals are scored alike; the scorers subtract the negative ones (lose_level).

`critique(...)` turns Q's ranking per goal into sentences for the leader and the Inductive Explorer, e.g.
"for enter:colour14, tactic B is likely to lose the level before reaching it (Q lose 0.61 vs 0.08)".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from dreamteam.learn.dataset import LOSE, Dataset
from dreamteam.learn.nets import ACTION_FEATURES, MLP, Encoder, action_features, goal_features, numpy_init

KIND = "critic"


@dataclass(frozen=True)
class CriticConfig:
    """Shapes and hyper-parameters (stored in the checkpoint's JSON config)."""

    width: int = 16
    state_dim: int = 128
    goal_dim: int = 64
    tactic_len: int = 4
    hidden: int = 256
    gamma: float = 0.9
    expectile: float = 0.7
    goals_per_state: int = 6

    @property
    def tactic_dim(self) -> int:
        return self.tactic_len * ACTION_FEATURES + 1

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @staticmethod
    def from_json(d: dict[str, Any]) -> CriticConfig:
        return CriticConfig(**{k: d[k] for k in CriticConfig().__dict__})


class CriticModel(eqx.Module):
    """Twin Q heads and a V head over [state encoding, tactic, goal]."""

    encoder: Encoder
    q1: MLP
    q2: MLP
    v: MLP
    expectile: float = eqx.field(static=True)

    def __init__(self, cfg: CriticConfig, *, key: jax.Array) -> None:
        ks = jax.random.split(key, 4)
        self.expectile = cfg.expectile
        self.encoder = Encoder(cfg.width, cfg.state_dim, key=ks[0])
        qin = cfg.state_dim + cfg.tactic_dim + cfg.goal_dim
        self.q1 = MLP([qin, cfg.hidden, cfg.hidden, 1], key=ks[1])
        self.q2 = MLP([qin, cfg.hidden, cfg.hidden, 1], key=ks[2])
        self.v = MLP([cfg.state_dim + cfg.goal_dim, cfg.hidden, 1], key=ks[3])

    def state(self, frame: jax.Array) -> jax.Array:
        return jax.nn.relu(self.encoder(frame))

    def qs(self, s: jax.Array, tactic: jax.Array, goal: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = jnp.concatenate([s, tactic, goal])
        return self.q1(x)[0], self.q2(x)[0]

    def value(self, s: jax.Array, goal: jax.Array) -> jax.Array:
        return self.v(jnp.concatenate([s, goal]))[0]


def tactic_features(actions: Sequence[tuple[int, int, int]], length: int) -> np.ndarray[Any, Any]:
    """A tactic's first `length` actions (id, x, y; x = y = -1 when not a click) -> (length * 11 + 1,)."""
    acts = list(actions)[:length]
    out = np.zeros((length, ACTION_FEATURES), dtype=np.float32)
    if acts:
        out[:len(acts)] = action_features([a for a, _, _ in acts], [(x, y) for _, x, y in acts])
    return np.concatenate([out.reshape(-1), np.asarray([len(acts) / length], dtype=np.float32)])


@dataclass
class Samples:
    """IQL training tuples: start index, tactic features, goal id, reward, done, index of s' (next_frame)."""

    start: np.ndarray[Any, Any]
    tactic: np.ndarray[Any, Any]
    goal: np.ndarray[Any, Any]
    reward: np.ndarray[Any, Any]
    done: np.ndarray[Any, Any]
    discount: np.ndarray[Any, Any]
    end: np.ndarray[Any, Any]
    mc: np.ndarray[Any, Any]
    """The Monte-Carlo return to the end of the run: gamma^k for the first k where the goal held (0 if never)."""


def build_samples(ds: Dataset, idx: np.ndarray[Any, Any], cfg: CriticConfig, seed: int) -> Samples:
    """Hindsight-relabelled (s, tactic, g, r, s') tuples starting at the transitions `idx`."""
    rng = np.random.default_rng(seed)
    n = len(ds)
    cols: dict[str, list[Any]] = {k: [] for k in Samples.__dataclass_fields__}
    L = cfg.tactic_len
    # the last index of each transition's run (runs are contiguous)
    boundary = np.flatnonzero(np.diff(ds.episode) != 0)
    ends = np.append(boundary, n - 1)
    run_end = ends[np.searchsorted(ends, np.arange(n))]
    for t in (int(i) for i in idx):
        ep_end = int(run_end[t])
        span = min(L, ep_end - t + 1)
        acts = [(int(ds.action[j]), int(ds.click[j, 0]), int(ds.click[j, 1])) for j in range(t, t + span)]
        feats = tactic_features(acts, L)
        force = np.flatnonzero(ds.in_force[t])
        held_soon = np.flatnonzero(ds.goals[t:t + span].any(0))
        must = [g for g in (0, 1) if g in force]
        rest = [int(g) for g in force if g not in must]
        rng.shuffle(rest)
        chosen: list[int] = list(dict.fromkeys([*must, *[int(g) for g in held_soon], *rest]))[:cfg.goals_per_state]
        for g in chosen:
            hits = np.flatnonzero(ds.goals[t:t + span, g])
            lost = np.flatnonzero(ds.game_over[t:t + span])
            mc_hits = np.flatnonzero(ds.goals[t:ep_end + 1, g])
            if len(hits):
                r, done, disc = cfg.gamma ** int(hits[0]), 1.0, 0.0
            else:
                r = 0.0
                done = 1.0 if (len(lost) or t + span - 1 == ep_end) else 0.0
                disc = cfg.gamma ** span
            cols["start"].append(t)
            cols["tactic"].append(feats)
            cols["goal"].append(g)
            cols["reward"].append(r)
            cols["done"].append(done)
            cols["discount"].append(disc)
            cols["end"].append(t + span - 1)
            cols["mc"].append(cfg.gamma ** int(mc_hits[0]) if len(mc_hits) else 0.0)
    return Samples(start=np.asarray(cols["start"], dtype=np.int64),
                   tactic=np.asarray(cols["tactic"], dtype=np.float32).reshape(-1, cfg.tactic_dim),
                   goal=np.asarray(cols["goal"], dtype=np.int64), reward=np.asarray(cols["reward"], dtype=np.float32),
                   done=np.asarray(cols["done"], dtype=np.float32),
                   discount=np.asarray(cols["discount"], dtype=np.float32),
                   end=np.asarray(cols["end"], dtype=np.int64), mc=np.asarray(cols["mc"], dtype=np.float32))


def goal_matrix(names: Sequence[str], dim: int) -> np.ndarray[Any, Any]:
    return np.stack([goal_features(n, dim) for n in names]) if names else np.zeros((0, dim), np.float32)


def loss(model: CriticModel, b: dict[str, Any], key: jax.Array) -> tuple[jax.Array, dict[str, jax.Array]]:
    """IQL: expectile regression for V on min(Q1, Q2), TD regression for Q on r + discount * V(s')."""
    s = jax.vmap(model.state)(b["frame"])
    s2 = jax.lax.stop_gradient(jax.vmap(model.state)(b["next"]))
    q1, q2 = jax.vmap(model.qs)(s, b["tactic"], b["goal"])
    v = jax.vmap(model.value)(jax.lax.stop_gradient(s), b["goal"])
    qmin = jax.lax.stop_gradient(jnp.minimum(q1, q2))
    diff = qmin - v
    weight = jnp.where(diff > 0, model.expectile, 1.0 - model.expectile)
    v_loss = jnp.mean(weight * diff ** 2)
    v_next = jax.lax.stop_gradient(jax.vmap(model.value)(s2, b["goal"]))
    target = b["reward"] + (1.0 - b["done"]) * b["discount"] * v_next
    q_loss = jnp.mean((q1 - target) ** 2 + (q2 - target) ** 2)
    return q_loss + v_loss, {"q": q_loss, "v": v_loss}


@eqx.filter_jit
def q_table(model: CriticModel, frame: jax.Array, tactics: jax.Array, goals: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Q1, Q2 as (T, G) tables for one frame, T tactics and G goals (the frame is encoded once)."""
    s = model.state(frame)
    def one(tac: jax.Array, g: jax.Array) -> tuple[jax.Array, jax.Array]:
        return model.qs(s, tac, g)
    per_goal = jax.vmap(one, in_axes=(None, 0))
    q1, q2 = jax.vmap(per_goal, in_axes=(0, None))(tactics, goals)
    return q1, q2


def make_batches(ds: Dataset, sm: Samples, goals: np.ndarray[Any, Any]) -> Any:
    def make(idx: np.ndarray[Any, Any]) -> dict[str, Any]:
        return {"frame": ds.frame[sm.start[idx]], "next": ds.next_frame[sm.end[idx]], "tactic": sm.tactic[idx],
                "goal": goals[sm.goal[idx]], "reward": sm.reward[idx], "done": sm.done[idx],
                "discount": sm.discount[idx]}
    return make


@eqx.filter_jit
def q_values(model: CriticModel, frames: jax.Array, tactics: jax.Array, goals: jax.Array) -> tuple[jax.Array, ...]:
    """Batched (B,) q1, q2 and v for aligned (frame, tactic, goal) rows."""
    s = jax.vmap(model.state)(frames)
    q1, q2 = jax.vmap(model.qs)(s, tactics, goals)
    v = jax.vmap(model.value)(s, goals)
    return q1, q2, v


def ranking_accuracy(model: CriticModel, ds: Dataset, sm: Samples, goals: np.ndarray[Any, Any], seed: int,
                     pairs: int = 4000, batch: int = 128) -> dict[str, float]:
    """Pairwise ranking accuracy on held-out tuples: for random pairs with the same goal and different
    Monte-Carlo returns, how often Q orders them as the returns do (0.5 is chance); the same for V(s, g)
    alone (the state without the tactic) and for the tuples that start in the same state."""
    if len(sm.start) < 2:
        return {}
    q = np.zeros(len(sm.start), np.float32)
    v = np.zeros(len(sm.start), np.float32)
    for b in range(0, len(sm.start), batch):
        sel = np.arange(b, min(b + batch, len(sm.start)))
        pad = np.concatenate([sel, np.repeat(sel[:1], batch - len(sel))])   # one compiled shape
        q1, q2, vv = q_values(model, jnp.asarray(ds.frame[sm.start[pad]]), jnp.asarray(sm.tactic[pad]),
                              jnp.asarray(goals[sm.goal[pad]]))
        q[sel] = np.minimum(np.asarray(q1), np.asarray(q2))[:len(sel)]
        v[sel] = np.asarray(vv)[:len(sel)]
    rng = np.random.default_rng(seed)
    right_q = right_v = total = 0
    for g in np.unique(sm.goal):
        rows = np.flatnonzero(sm.goal == g)
        if len(rows) < 2:
            continue
        first = rng.choice(rows, pairs // max(1, len(np.unique(sm.goal))) + 1)
        second = rng.choice(rows, len(first))
        keep = sm.mc[first] != sm.mc[second]
        first, second = first[keep], second[keep]
        sign = np.sign(sm.mc[first] - sm.mc[second])
        right_q += int(np.sum(np.sign(q[first] - q[second]) == sign))
        right_v += int(np.sum(np.sign(v[first] - v[second]) == sign))
        total += len(first)
    out = {"pairs": float(total)}
    if total:
        out.update(ranking_accuracy=right_q / total, state_only_ranking_accuracy=right_v / total)
    return out


def new_model(cfg: CriticConfig, seed: int) -> CriticModel:
    """A freshly initialised model, deterministic in `seed` (weights drawn by `nets.numpy_init`)."""
    model: CriticModel = numpy_init(skeleton({"model": cfg.to_json()}), seed)
    return model


def skeleton(config: dict[str, Any]) -> CriticModel:
    """The shapes of the model a checkpoint config describes (abstract leaves, nothing computed), to read
    the weights into."""
    cfg = CriticConfig.from_json(config["model"])
    return eqx.filter_eval_shape(lambda: CriticModel(cfg, key=jax.random.PRNGKey(0)))  # type: ignore[no-any-return]


def train(ds: Dataset, *, epochs: int, seed: int, batch_size: int = 64, lr: float = 3e-4,
          val_fraction: float = 0.2, max_train: int | None = None, cfg: CriticConfig | None = None, progress: bool = True) -> tuple[CriticModel, dict[str, Any]]:
    """Train on a dataset with a held-out split; returns the model and its config (metrics included)."""
    from dreamteam.learn.dataset import split
    from dreamteam.learn.latent import data_summary
    from dreamteam.learn.training import fit

    cfg = cfg or CriticConfig()
    train_idx, val_idx = split(ds, val_fraction, seed)
    if max_train and len(train_idx) > max_train:   # a seeded subset, to bound the time per epoch
        train_idx = np.sort(np.random.default_rng(seed).choice(train_idx, max_train, replace=False))
    goals = goal_matrix(ds.goal_names, cfg.goal_dim)
    tr = build_samples(ds, train_idx, cfg, seed)
    va = build_samples(ds, val_idx, cfg, seed + 1)
    model = new_model(cfg, seed)
    model, history = fit(model, loss, make_batches(ds, tr, goals), np.arange(len(tr.start)), epochs=epochs,
                         batch_size=batch_size, lr=lr, seed=seed, label="train critic", progress=progress)
    metrics = ranking_accuracy(model, ds, va, goals, seed)
    metrics["val_samples"] = float(len(va.start))
    metrics["train_ranking_accuracy"] = ranking_accuracy(model, ds, tr, goals, seed).get("ranking_accuracy",
                                                                                          float("nan"))
    config = {"kind": KIND, "model": cfg.to_json(),
              "training": {"epochs": epochs, "seed": seed, "batch_size": batch_size, "lr": lr,
                           "val_fraction": val_fraction, "max_train": max_train, "train_samples": len(tr.start),
                           "val_samples": len(va.start), "train_transitions": len(train_idx),
                           "val_transitions": len(val_idx), "loss": history["loss"],
                           "train_seconds": history["train_seconds"], "steps": history["steps"]},
              "goals_seen": ds.goal_names, "negative_goals": [LOSE],
              "data": data_summary(ds), "metrics": metrics}
    return model, config


# ----- critique ------------------------------------------------------------------------------------

def critique(names: Sequence[str], goals: Sequence[str], q: np.ndarray[Any, Any], q_lose: np.ndarray[Any, Any],
             *, limit: int = 3) -> list[str]:
    """Sentences from Q's ranking per goal. `q` is (tactics, goals), `q_lose` (tactics,) the Q of
    lose_level. Says which tactic ranks first for each goal, and which are likely to lose the level first."""
    lines: list[str] = []
    if not names:
        return lines
    for j, goal in enumerate(list(goals)[:limit]):
        order = np.argsort(-q[:, j], kind="stable")
        best = int(order[0])
        line = f"for {goal}: tactic {names[best]} ranks first (Q {q[best, j]:.2f})"
        if len(order) > 1:
            line += f", then {names[int(order[1])]} ({q[int(order[1]), j]:.2f})"
        lines.append(line)
        risky = [i for i in range(len(names)) if q_lose[i] > max(0.2, q[i, j])]
        for i in risky[:2]:
            lines.append(f"tactic {names[i]} is likely to lose the level before reaching {goal} "
                         f"(Q lose {q_lose[i]:.2f} vs {q[i, j]:.2f})")
    return lines
