"""The shared training loop: seeded batches, Adam, a rich progress bar, a held-out validation pass per epoch."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import equinox as eqx
import jax
import numpy as np
import optax

Batch = dict[str, Any]
LossFn = Callable[[Any, Batch, jax.Array], tuple[jax.Array, dict[str, jax.Array]]]


@functools.lru_cache(maxsize=8)
def optimizer(lr: float) -> Any:
    """Adam with global-norm clipping; one object per learning rate, so compiled steps are reused."""
    return optax.chain(optax.clip_by_global_norm(1.0), optax.adam(lr))


@eqx.filter_jit
def _step(model: Any, opt_state: Any, batch: Batch, key: jax.Array, loss_fn: LossFn,
          opt: Any) -> tuple[Any, Any, jax.Array]:
    (loss, _aux), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model, batch, key)
    updates, opt_state = opt.update(grads, opt_state, eqx.filter(model, eqx.is_inexact_array))
    return eqx.apply_updates(model, updates), opt_state, loss


def fit(model: Any, loss_fn: LossFn,
        make_batch: Callable[[np.ndarray[Any, Any]], Batch], train_idx: np.ndarray[Any, Any], *, epochs: int,
        batch_size: int, lr: float, seed: int, label: str,
        evaluate: Callable[[Any], dict[str, float]] | None = None,
        progress: bool = True) -> tuple[Any, dict[str, Any]]:
    """Train `model` on minibatches of `train_idx`; returns the model and a history (losses, eval, time).

    Deterministic under `seed`: the batch order comes from numpy's seeded generator and the JAX keys from
    `seed` folded with the step number. `loss_fn` must be a module-level function (it is a static argument
    of the compiled step, so a second training of the same shapes reuses the compilation)."""
    opt = optimizer(lr)
    opt_state = opt.init(eqx.filter(model, eqx.is_inexact_array))

    rng = np.random.default_rng(seed)
    base = jax.random.PRNGKey(seed)
    n = len(train_idx)
    bs = max(1, min(batch_size, n))
    per_epoch = max(1, n // bs)
    history: dict[str, Any] = {"loss": [], "eval": []}
    start = time.perf_counter()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(f"[bold]{label}[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[status]}"), console=Console(stderr=True), disable=not progress, transient=False) as bar:
        task = bar.add_task(label, total=epochs * per_epoch, status="")
        k = 0
        for epoch in range(epochs):
            order = rng.permutation(train_idx)
            losses = []
            for b in range(per_epoch):
                idx = order[b * bs:(b + 1) * bs]
                model, opt_state, loss = _step(model, opt_state, make_batch(idx), jax.random.fold_in(base, k),
                                               loss_fn, opt)
                losses.append(float(loss))
                k += 1
                bar.update(task, advance=1, status=f"epoch {epoch + 1}/{epochs} loss {np.mean(losses):.4f}")
            history["loss"].append(float(np.mean(losses)))
            if evaluate is not None:
                ev = evaluate(model)
                history["eval"].append(ev)
                shown = " ".join(f"{key}={value:.3f}" for key, value in list(ev.items())[:3])
                bar.update(task, status=f"epoch {epoch + 1}/{epochs} loss {history['loss'][-1]:.4f} val {shown}")
    history["train_seconds"] = round(time.perf_counter() - start, 2)
    history["steps"] = k
    return model, history
