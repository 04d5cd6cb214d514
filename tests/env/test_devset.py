"""The development set's families and held-out share."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamteam.env.devset import family_of, heldout_families, one_per_family, share


def test_family_is_the_base_id_without_its_number() -> None:
    assert family_of("bn02-63be02fb") == "bn"
    assert family_of("ab01-v1") == "ab"
    assert family_of("maze") == "maze"
    assert family_of("123") == "123"


def test_every_fifth_family_by_sorted_id_is_held_out() -> None:
    ids = [f"{chr(97 + i)}x{n:02d}-v1" for i in range(12) for n in (1, 2)]
    assert heldout_families(ids) == {"ex", "jx"}
    assert share(ids, "heldout") == ["ex01-v1", "ex02-v1", "jx01-v1", "jx02-v1"]
    assert len(share(ids, "dev")) == 20 and len(share(ids, "all")) == 24
    assert one_per_family(ids)[:2] == ["ax01-v1", "bx01-v1"]
    with pytest.raises(ValueError, match="unknown share"):
        share(ids, "test")


@given(st.lists(st.from_regex(r"[a-z]{2}[0-9]{2}", fullmatch=True), max_size=40))
def test_shares_partition_the_games_and_keep_families_whole(ids: list[str]) -> None:
    dev, held = share(ids, "dev"), share(ids, "heldout")
    assert sorted(dev + held) == sorted(ids)
    assert not {family_of(g) for g in dev} & {family_of(g) for g in held}
