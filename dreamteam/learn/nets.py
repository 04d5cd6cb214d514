"""Building blocks shared by the latent world model and the critic (imports JAX: load lazily).

Frames arrive as int8 grids (B, 64, 64) of colours 0..15 plus PAD (16); the networks see one-hot planes.
Actions are encoded as 11 features: one-hot id (8), click x / 63, click y / 63, and 1 for a click.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from dreamteam.learn.dataset import CLASSES, SIZE

ACTION_FEATURES = 11


def one_hot_frames(frames: jax.Array) -> jax.Array:
    """(..., 64, 64) int -> (..., 17, 64, 64) float32 one-hot planes."""
    oh = jax.nn.one_hot(frames.astype(jnp.int32), CLASSES, dtype=jnp.float32)
    return jnp.moveaxis(oh, -1, -3)


def action_features(ids: Any, clicks: Any) -> np.ndarray[Any, Any]:
    """(N,) action ids and (N, 2) clicks ((-1, -1) when none) -> (N, 11) float32 features (numpy)."""
    ids = np.asarray(ids, dtype=np.int64).reshape(-1)
    clicks = np.asarray(clicks, dtype=np.float32).reshape(-1, 2)
    out = np.zeros((ids.shape[0], ACTION_FEATURES), dtype=np.float32)
    out[np.arange(ids.shape[0]), np.clip(ids, 0, 7)] = 1.0
    is_click = clicks[:, 0] >= 0
    out[:, 8] = np.where(is_click, clicks[:, 0] / 63.0, 0.0)
    out[:, 9] = np.where(is_click, clicks[:, 1] / 63.0, 0.0)
    out[:, 10] = is_click.astype(np.float32)
    return out


class Encoder(eqx.Module):
    """A small conv net: 17x64x64 one-hot -> a feature vector (three stride-2 convs, then a linear map)."""

    convs: tuple[eqx.nn.Conv2d, ...]
    out: eqx.nn.Linear

    def __init__(self, width: int, out_dim: int, *, key: jax.Array) -> None:
        k1, k2, k3, k4 = jax.random.split(key, 4)
        self.convs = (eqx.nn.Conv2d(CLASSES, width, 4, stride=2, padding=1, key=k1),
                      eqx.nn.Conv2d(width, 2 * width, 4, stride=2, padding=1, key=k2),
                      eqx.nn.Conv2d(2 * width, 2 * width, 4, stride=2, padding=1, key=k3))
        self.out = eqx.nn.Linear(2 * width * (SIZE // 8) ** 2, out_dim, key=k4)

    def __call__(self, frame: jax.Array) -> jax.Array:
        """One int frame (64, 64) -> (out_dim,)."""
        h = one_hot_frames(frame)
        for conv in self.convs:
            h = jax.nn.relu(conv(h))
        return self.out(h.reshape(-1))


class MLP(eqx.Module):
    """Linear layers with ReLU between them; optional explicit dropout masks on the hidden layers (for
    Monte-Carlo dropout the caller passes a mask per hidden layer; None means no dropout)."""

    layers: tuple[eqx.nn.Linear, ...]

    def __init__(self, sizes: Sequence[int], *, key: jax.Array) -> None:
        keys = jax.random.split(key, len(sizes) - 1)
        self.layers = tuple(eqx.nn.Linear(a, b, key=k) for a, b, k in zip(sizes[:-1], sizes[1:], keys, strict=True))

    def __call__(self, x: jax.Array, masks: jax.Array | None = None) -> jax.Array:
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = jax.nn.relu(x)
                if masks is not None:
                    x = x * masks[i]
        return x


_TOKEN = re.compile(r"[a-z]+|\d+")


def goal_features(name: str, dim: int) -> np.ndarray[Any, Any]:
    """A goal name -> a hashed bag of words and character trigrams (dim float32, L2-normalised).

    Names of the same shape share words ('enter:colour14' and 'enter:colour3' share 'enter', 'colour'), so
    the critic can score a goal it never saw in training from the parts it did."""
    v = np.zeros(dim, dtype=np.float32)
    low = name.lower()
    tokens = _TOKEN.findall(low)
    grams = [f"#{low[i:i + 3]}" for i in range(max(1, len(low) - 2))]
    for tok in [*tokens, *grams]:
        h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "little")
        v[h % dim] += 1.0 if (h >> 32) & 1 else -1.0
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def dropout_masks(key: jax.Array, n: int, layers: int, width: int, keep: float) -> jax.Array:
    """n sets of inverted-dropout masks (n, layers, width)."""
    return jax.random.bernoulli(key, keep, (n, layers, width)).astype(jnp.float32) / keep


def numpy_init(abstract: Any, seed: int) -> Any:
    """Concrete weights for a model given as abstract shapes (`eqx.filter_eval_shape`), drawn with numpy:
    weights uniform in +-1/sqrt(fan in) (fan in = the product of all but the first axis), vectors zero.
    Initialising through JAX would compile hundreds of small random ops (tens of seconds on a busy CPU)."""
    rng = np.random.default_rng(seed)

    def fill(leaf: Any) -> Any:
        if not isinstance(leaf, jax.ShapeDtypeStruct):
            return leaf
        shape = tuple(leaf.shape)
        if len(shape) < 2:
            return jnp.zeros(shape, leaf.dtype)
        bound = 1.0 / np.sqrt(float(np.prod(shape[1:])))
        return jnp.asarray(rng.uniform(-bound, bound, shape).astype(np.float32), dtype=leaf.dtype)

    return jax.tree_util.tree_map(fill, abstract)
