"""Fixtures of the procedural-variant tests: each test module names its family in `FAMILY`."""

from __future__ import annotations

from pathlib import Path

import pytest

from dreamteam.env.procgen import write_variant

SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def written(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Version directories of the module's FAMILY for SEEDS, written (and toolkit-verified) once per module."""
    out = tmp_path_factory.mktemp("variants")
    return {seed: write_variant(request.module.FAMILY, seed, out) for seed in SEEDS}
