"""Tiny synthetic transitions and tiny trained models shared by the learn tests (trained once per session)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")

from dreamteam.learn.dataset import LEVEL_UP, LOSE, PAD, Dataset, _steps_to  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run these tests last: once JAX is imported its threads make the os.fork() of later tests (the
    sandbox's subprocesses) warn about deadlocks."""
    here = Path(__file__).parent
    items.sort(key=lambda item: here in Path(str(item.path)).parents)


TINY_LATENT = {"z_dim": 8, "width": 4, "hidden": 32, "action_dim": 8}
TINY_CRITIC = {"width": 4, "state_dim": 16, "goal_dim": 16, "hidden": 32}


def synthetic(episodes: int = 4, steps: int = 10, seed: int = 0) -> Dataset:
    """A 12x12 room (padded to 64x64) where a colour-3 dot moves with ACTION1-4; reaching the colour-9 door
    in the corner is a level-up, touching the colour-2 wall at the left is a game over."""
    rng = np.random.default_rng(seed)
    moves = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}
    rows: dict[str, list[Any]] = {k: [] for k in ("frame", "next", "action", "up", "over", "ep", "step", "goals")}

    def draw(x: int, y: int) -> np.ndarray:
        g = np.full((64, 64), PAD, np.int8)
        g[:12, :12] = 0
        g[:, 0][:12] = 2
        g[10, 10] = 9
        g[y, x] = 3
        return g

    for e in range(episodes):
        x, y = 7, 7
        for s in range(steps):
            a = int(rng.integers(1, 5)) if rng.random() < 0.25 else (4 if x < 10 else 2)
            dx, dy = moves[a]
            nx, ny = min(max(x + dx, 0), 11), min(max(y + dy, 0), 11)
            up, over = (nx, ny) == (10, 10), nx == 0
            rows["frame"].append(draw(x, y))
            rows["next"].append(draw(nx, ny))
            rows["action"].append(a)
            rows["up"].append(up)
            rows["over"].append(over)
            rows["ep"].append(e)
            rows["step"].append(s)
            rows["goals"].append([up, over, (nx, ny) == (10, 10) or ny == 10])
            x, y = (7, 7) if up or over else (nx, ny)
    n = len(rows["action"])
    up = np.asarray(rows["up"])
    over = np.asarray(rows["over"])
    ep = np.asarray(rows["ep"], np.int32)
    stl = np.concatenate([_steps_to(up[ep == e]) for e in range(episodes)])
    stg = np.concatenate([_steps_to(over[ep == e]) for e in range(episodes)])
    ds = Dataset(frame=np.stack(rows["frame"]), action=np.asarray(rows["action"], np.int8),
                 click=np.full((n, 2), -1, np.int8), next_frame=np.stack(rows["next"]), level_up=up,
                 game_over=over, win=np.zeros(n, bool), level=np.zeros(n, np.int16), episode=ep,
                 step=np.asarray(rows["step"], np.int32), steps_to_level_up=stl.astype(np.int32),
                 steps_to_game_over=stg.astype(np.int32), goals=np.asarray(rows["goals"], np.uint8),
                 in_force=np.ones((n, 3), np.uint8))
    ds.meta = {"goals": [LEVEL_UP, LOSE, "enter:colour9"], "games": ["synthetic-v1"], "sources": [],
               "fingerprint": "synthetic"}
    return ds


@pytest.fixture(scope="session")
def synthetic_ds() -> Dataset:
    return synthetic()


@pytest.fixture(scope="session")
def latent_ckpt(tmp_path_factory: pytest.TempPathFactory, synthetic_ds: Dataset) -> tuple[Path, Any, dict[str, Any]]:
    """A tiny latent model trained for 2 epochs, saved; (path, model, config)."""
    from dreamteam.learn import checkpoint, latent

    model, config = latent.train(synthetic_ds, epochs=2, seed=0, batch_size=16, progress=False,
                                 cfg=latent.LatentConfig(**TINY_LATENT))
    path = tmp_path_factory.mktemp("latent") / "latent.eqx"
    config = checkpoint.save(path, model, config)
    return path, model, config


@pytest.fixture(scope="session")
def critic_ckpt(tmp_path_factory: pytest.TempPathFactory, synthetic_ds: Dataset) -> tuple[Path, Any, dict[str, Any]]:
    """A tiny critic trained for 2 epochs, saved; (path, model, config)."""
    from dreamteam.learn import checkpoint, critic

    model, config = critic.train(synthetic_ds, epochs=2, seed=0, batch_size=32, progress=False,
                                 cfg=critic.CriticConfig(**TINY_CRITIC))
    path = tmp_path_factory.mktemp("critic") / "critic.eqx"
    config = checkpoint.save(path, model, config)
    return path, model, config
