"""The development set's families and its held-out share.

A community collection names its games `<family letters><number>` (`bn01`, `bn02`, ... are one family of
mechanics). Development looks only at the development share; every fifth family by sorted id is held out,
and its scores are read but its games are never studied.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

HELDOUT_EVERY = 5
"""Every HELDOUT_EVERY-th family (by sorted id, counting from the first) is held out."""

SHARES = ("dev", "heldout", "all")


def family_of(game_id: str) -> str:
    """The family of a game id: the base id without its trailing number ('bn02-63be02fb' -> 'bn')."""
    base = game_id.split("-", 1)[0]
    return re.sub(r"\d+$", "", base) or base


def heldout_families(game_ids: Iterable[str]) -> set[str]:
    """The held-out families among these games: every fifth family by sorted id (the 5th, 10th, ...)."""
    families = sorted({family_of(g) for g in game_ids})
    return {f for i, f in enumerate(families) if i % HELDOUT_EVERY == HELDOUT_EVERY - 1}


def share(game_ids: Iterable[str], which: str) -> list[str]:
    """The games of one share: 'dev' (families not held out), 'heldout', or 'all'."""
    if which not in SHARES:
        raise ValueError(f"unknown share {which!r} (known: {', '.join(SHARES)})")
    ids = sorted(game_ids)
    held = heldout_families(ids)
    if which == "all":
        return ids
    return [g for g in ids if (family_of(g) in held) == (which == "heldout")]


def one_per_family(game_ids: Iterable[str]) -> list[str]:
    """The first game (by sorted id) of each family: a fixed development sample."""
    picked: dict[str, str] = {}
    for g in sorted(game_ids):
        picked.setdefault(family_of(g), g)
    return sorted(picked.values())
