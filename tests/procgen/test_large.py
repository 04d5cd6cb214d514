"""Checks every family's `large` size profile passes: written and verified, deterministic, bigger than standard."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from statistics import mean

import pytest

from dreamteam.env.procgen import family_names, generate, load_family, write_variant
from dreamteam.env.procgen.common import VariantData, read_variant_block
from dreamteam.errors import UserError
from tests.procgen.helpers import files_of, metadata, module_source

families = pytest.mark.parametrize("family", family_names())

STANDARD_DIGESTS: dict[str, str] = {
    "copy": "e7a2952b2c99f7a419d01c12fc6832b0",
    "flip": "05330efbc15992131cfe8d1e90662a07",
    "fuse": "9c25b1db6f3410a6dd3b4ef025de6007",
    "keys": "5ace529c4b5a14426dac7289744cfe82",
    "lava": "e67591709ec7cd3c514c290f67299b5f",
    "maze": "b61df9470adcf2b6f9ff67774b5de668",
    "push": "d95bc93db5c5b336a0fc5544b7db2b1c",
    "twin": "b2f23e36bcd91352de95ec3002484e02",
}
"""Digests of the standard variants of seeds 1, 2, 3, 1000 and 13000, taken before the large profile existed:
held-out results reported in docs/benchmarks.md stay comparable only while these games stay the same."""


def baselines(data: VariantData) -> list[int]:
    """The planner's solution length per level."""
    return [len(s) for s in load_family(data.family).plan(data)]


@families
def test_standard_variants_are_unchanged(family: str) -> None:
    variants = [generate(family, seed).variant for seed in (1, 2, 3, 1000, 13000)]
    digest = hashlib.md5(json.dumps(variants, sort_keys=True).encode()).hexdigest()
    assert digest == STANDARD_DIGESTS[family]


@families
def test_large_variant_is_written_verified_and_deterministic(family: str, tmp_path: Path) -> None:
    directory = write_variant(family, 1, tmp_path / "a", "large")
    assert (directory.parent.name, directory.name) == (family, "l0001")
    meta = metadata(directory)
    assert meta["game_id"] == f"{family}-l0001"
    assert "large" in meta["title"] and "procedural" in meta["tags"]
    data = generate(family, 1, "large")
    assert data.size == "large" and data.version == "l0001"
    assert read_variant_block(module_source(directory)) == data.variant
    assert meta["baseline_actions"] == baselines(data)
    assert len(meta["baseline_actions"]) >= 5
    again = write_variant(family, 1, tmp_path / "b", "large")
    assert files_of(again) == files_of(directory)


@families
def test_large_levels_need_more_actions_than_standard_ones(family: str) -> None:
    for seed in (1, 2):
        standard = baselines(generate(family, seed))
        large = baselines(generate(family, seed, "large"))
        assert mean(large) >= 1.5 * mean(standard), (standard, large)
        assert min(large) >= sorted(standard)[len(standard) // 2], (standard, large)


@families
def test_large_seeds_differ_from_each_other_and_from_standard(family: str) -> None:
    first, second = (generate(family, seed, "large").variant for seed in (1, 2))
    assert first != second
    assert first["levels"] != generate(family, 1).variant["levels"]


def test_an_unknown_size_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="unknown variant size 'huge'"):
        write_variant("maze", 1, tmp_path, "huge")
