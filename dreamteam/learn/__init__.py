"""Learned tactic scorers: the dataset from recorded runs, a latent world model and a goal-conditioned critic.

Nothing here imports JAX at package import time: `dataset` needs only numpy, and the models (`latent`,
`critic`, `training`) are imported when a scorer is built or `dreamteam train` runs. `require_jax()` turns a
missing install into a clear message.
"""

from __future__ import annotations

INSTALL_HINT = "pip install 'dreamteam[learn]' (JAX, optax and equinox on CPU)"


def jax_missing() -> str | None:
    """None when JAX, optax and equinox import, else the name of the first missing one."""
    import importlib.util

    for name in ("jax", "optax", "equinox"):
        if importlib.util.find_spec(name) is None:
            return name
    return None
