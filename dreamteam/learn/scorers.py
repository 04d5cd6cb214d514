"""The two learned tactic scorers, `latent` (DreamPhase) and `critic` (PNLC), for the scorer registry.

Both are built as `factory(checkpoint)`: the checkpoint and its JSON config are read and checked, the jitted
scoring function is compiled on a dummy frame, and every problem raises ScorerError there, before any game
starts. This module imports JAX only inside the constructors, so naming the class costs nothing and a missing
install gives a clear message instead of an ImportError.

Tactic counts are padded to a bucket (8, 16, 32, ...) so a step with a different number of tactics reuses a
compiled function; scoring is deterministic given the step number.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dreamteam.errors import ScorerError
from dreamteam.learn import INSTALL_HINT, jax_missing
from dreamteam.learn.dataset import LEVEL_UP, LOSE, SIZE, pad_frame
from dreamteam.protocols import Score
from dreamteam.types import Observation, Tactic

MAX_NOTE_TOKENS = 30
MAX_GOALS = 4
"""The critic scores the first MAX_GOALS goals (most urgent first) plus lose_level."""


def _require(kind: str) -> None:
    missing = jax_missing()
    if missing:
        raise ScorerError(f"the {kind} scorer needs {missing}, which is not installed: {INSTALL_HINT}")


def _bucket(n: int) -> int:
    b = 8
    while b < n:
        b *= 2
    return b


def _triples(t: Tactic) -> list[tuple[int, int, int]]:
    return [(a.id, a.x if a.x is not None else -1, a.y if a.y is not None else -1) for a in t.actions]


def clip_tokens(text: str, limit: int = MAX_NOTE_TOKENS) -> str:
    """At most `limit` whitespace-separated tokens."""
    words = text.split()
    return " ".join(words[:limit])


def _short(name: str, n: int = 32) -> str:
    return name if len(name) <= n else name[:n - 1] + "~"


def _step_of(state: Observation, context: Mapping[str, Any]) -> int:
    step = context.get("step", state.step)
    return int(step) if isinstance(step, int | float) else int(state.step)


class LatentScorer:
    """DreamPhase: imagined rollouts in the latent world model; abstains when the MC-dropout uncertainty u
    exceeds the checkpoint's calibrated tau. value = G - beta * u."""

    name = "latent"

    def __init__(self, checkpoint: str | None = None, *, tau: float | None = None, beta: float | None = None) -> None:
        _require(self.name)
        import jax
        import jax.numpy as jnp

        from dreamteam.learn import checkpoint as ckpt
        from dreamteam.learn import latent

        model, config = ckpt.load(checkpoint, latent.KIND, latent.skeleton)
        try:
            latent.LatentConfig.from_json(config["model"])
            im = config["imagine"]
            self.n_masks, self.n_samples, self.horizon = int(im["n_masks"]), int(im["n_samples"]), int(im["horizon"])
            self.tau = float(tau if tau is not None else im["tau"])
            self.beta = float(beta if beta is not None else im["beta"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ScorerError(f"latent checkpoint config for {checkpoint} is incomplete: {exc!r}") from None
        self.checkpoint, self.config = str(checkpoint), config
        self._jax, self._jnp = jax, jnp
        self._tactic_actions = latent.tactic_actions
        self._model, self._imagine_fn = model, latent.imagine
        try:  # compile now, and prove the weights fit the computation, before any game starts
            dummy = np.zeros((8, self.n_samples, self.horizon, 11), np.float32)
            out = self._imagine(jnp.zeros((SIZE, SIZE), jnp.int8), jnp.asarray(dummy), jax.random.PRNGKey(0))
            if not np.all(np.isfinite(np.asarray(out[0]))):
                raise ValueError("the model's values are not finite")
        except Exception as exc:
            raise ScorerError(f"latent checkpoint {checkpoint} does not run: {type(exc).__name__}: {exc}") from None
        self.last_ms = 0.0

    def _imagine(self, frame: Any, acts: Any, key: Any) -> Any:
        return self._imagine_fn(self._model, frame, acts, key, self.n_masks)

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        if not tactics:
            return []
        start = time.perf_counter()
        step = _step_of(state, context)
        rng = np.random.default_rng(step)
        available = context.get("available_actions") or state.available_actions
        triples = [_triples(t) for t in tactics]
        padded = triples + [[(1, -1, -1)]] * (_bucket(len(triples)) - len(triples))
        acts = self._tactic_actions(padded, [int(a) for a in available], self.n_samples, self.horizon, rng)
        g, u, p_up, p_over = self._imagine(self._jnp.asarray(pad_frame(state.grid)), self._jnp.asarray(acts),
                                           self._jax.random.PRNGKey(step))
        g, u, p_up, p_over = (np.asarray(x) for x in (g, u, p_up, p_over))
        out = []
        for i, t in enumerate(tactics):
            ui = float(u[i])
            note = self.reflection(t.name, p_up[i], p_over[i], float(g[i]), ui)
            value = None if ui > self.tau else float(g[i]) - self.beta * ui
            out.append(Score(value=value, uncertainty=ui, note=note))
        self.last_ms = 1000 * (time.perf_counter() - start)
        return out

    def reflection(self, name: str, p_up: np.ndarray[Any, Any], p_over: np.ndarray[Any, Any], g: float, u: float) -> str:
        """At most 30 tokens: when a level-up-like frame comes, the game-over risk, and the gate."""
        k = int(np.argmax(p_up))
        j = int(np.argmax(p_over))
        if p_up[k] >= 0.2:
            head = f"tactic {_short(name)} reaches a level-up-like frame in {k + 1} steps (p {p_up[k]:.2f})"
        else:
            head = f"tactic {_short(name)}: no level-up in {len(p_up)} imagined steps (G {g:.2f})"
        risk = (f"risk: game over by step {j + 1} (p {p_over[j]:.2f})" if p_over[j] >= 0.1
                else "risk: low")
        gate = f"abstain: u {u:.2f} > tau {self.tau:.2f}" if u > self.tau else f"u {u:.2f}"
        return clip_tokens(f"{head}; {risk}; {gate}")


class CriticScorer:
    """PNLC: value = the urgency-weighted Q of the goals (most urgent first, weights 1, 1/2, 1/4, ...) minus
    the Q of losing the level; uncertainty = the twin heads' disagreement. `last_critique` holds the critique
    of the last call (see `critique`)."""

    name = "critic"

    def __init__(self, checkpoint: str | None = None) -> None:
        _require(self.name)
        import jax.numpy as jnp

        from dreamteam.learn import checkpoint as ckpt
        from dreamteam.learn import critic

        model, config = ckpt.load(checkpoint, critic.KIND, critic.skeleton)
        try:
            self.cfg = critic.CriticConfig.from_json(config["model"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ScorerError(f"critic checkpoint config for {checkpoint} is incomplete: {exc!r}") from None
        self.checkpoint, self.config = str(checkpoint), config
        self._jnp = jnp
        self._critic = critic
        self._goal_cache: dict[str, np.ndarray[Any, Any]] = {}
        self._model = model
        self._table = critic.q_table
        try:
            q1, _ = self._run(np.zeros((SIZE, SIZE), np.int8), [[(1, -1, -1)]], [LEVEL_UP])
            if not np.all(np.isfinite(q1)):
                raise ValueError("the model's values are not finite")
        except Exception as exc:
            raise ScorerError(f"critic checkpoint {checkpoint} does not run: {type(exc).__name__}: {exc}") from None
        self.last_critique: list[str] = []
        self.last_ms = 0.0

    def _goal(self, name: str) -> np.ndarray[Any, Any]:
        if name not in self._goal_cache:
            from dreamteam.learn.nets import goal_features

            self._goal_cache[name] = goal_features(name, self.cfg.goal_dim)
        return self._goal_cache[name]

    def _run(self, frame: np.ndarray[Any, Any], triples: list[list[tuple[int, int, int]]],
             goals: list[str]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        t = len(triples)
        feats = np.zeros((_bucket(t), self.cfg.tactic_dim), np.float32)
        for i, tr in enumerate(triples):
            feats[i] = self._critic.tactic_features(tr, self.cfg.tactic_len)
        gm = np.zeros((MAX_GOALS + 1, self.cfg.goal_dim), np.float32)
        for j, g in enumerate(goals[:MAX_GOALS + 1]):
            gm[j] = self._goal(g)
        jnp = self._jnp
        q1, q2 = self._table(self._model, jnp.asarray(frame), jnp.asarray(feats), jnp.asarray(gm))
        return np.asarray(q1)[:t, :len(goals)], np.asarray(q2)[:t, :len(goals)]

    @staticmethod
    def goal_list(goals: Sequence[str]) -> list[str]:
        """The positive goals scored: the first MAX_GOALS that are not lose_level (level_up when none)."""
        positive = [g for g in dict.fromkeys(goals) if g != LOSE][:MAX_GOALS]
        return positive or [LEVEL_UP]

    def q_table(self, state: Observation, tactics: Sequence[Tactic],
                goals: Sequence[str]) -> tuple[list[str], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """(positive goals, Q (T, G) as min of the twin heads, Q of lose_level (T,), |Q1 - Q2| (T,))."""
        positive = self.goal_list(goals)
        q1, q2 = self._run(pad_frame(state.grid), [_triples(t) for t in tactics], [*positive, LOSE])
        q = np.minimum(q1, q2)
        return positive, q[:, :-1], q[:, -1], np.abs(q1 - q2).mean(1)

    def score(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str],
              context: Mapping[str, Any]) -> list[Score]:
        if not tactics:
            self.last_critique = []
            return []
        start = time.perf_counter()
        positive, q, q_lose, spread = self.q_table(state, tactics, goals)
        w = 0.5 ** np.arange(len(positive))
        value = (q * w).sum(1) / w.sum() - q_lose
        names = [t.name for t in tactics]
        self.last_critique = self._critic.critique(names, positive, q, q_lose)
        out = []
        for i, t in enumerate(tactics):
            note = (f"critic: Q {_short(positive[0], 24)} {q[i, 0]:.2f}, Q lose {q_lose[i]:.2f}, "
                    f"rank {int(np.sum(value > value[i])) + 1}/{len(tactics)} for {_short(t.name)}")
            out.append(Score(value=float(value[i]), uncertainty=float(spread[i]), note=clip_tokens(note)))
        self.last_ms = 1000 * (time.perf_counter() - start)
        return out

    def critique(self, state: Observation, tactics: Sequence[Tactic], goals: Sequence[str]) -> str:
        """The critic's natural-language critique of these tactics (one sentence per line), for the Critic
        role's routed feedback in critique.json (to the leader and the Inductive Explorer)."""
        if not tactics:
            return ""
        positive, q, q_lose, _ = self.q_table(state, tactics, goals)
        return "\n".join(self._critic.critique([t.name for t in tactics], positive, q, q_lose))
