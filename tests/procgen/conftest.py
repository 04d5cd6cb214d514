"""Fixtures of the procedural-variant tests: variants of each family for SEEDS, written once per session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dreamteam.env.procgen import write_variant

SEEDS = (1, 2, 3)

WrittenVariants = Callable[[str], dict[int, Path]]


@pytest.fixture(scope="session")
def written_variants(tmp_path_factory: pytest.TempPathFactory) -> WrittenVariants:
    """A lookup of a family's version directories for SEEDS, written (and toolkit-verified) on first use."""
    out = tmp_path_factory.mktemp("variants")
    cache: dict[str, dict[int, Path]] = {}

    def of_family(family: str) -> dict[int, Path]:
        if family not in cache:
            cache[family] = {seed: write_variant(family, seed, out) for seed in SEEDS}
        return cache[family]

    return of_family


@pytest.fixture()
def written(request: pytest.FixtureRequest, written_variants: WrittenVariants) -> dict[int, Path]:
    """Version directories of the test module's FAMILY for SEEDS."""
    return written_variants(request.module.FAMILY)
