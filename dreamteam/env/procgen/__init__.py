"""Procedural variants of the bundled game families: a registry, and `write_variant` that writes and verifies one.

Seeds 1-99 are development seeds; seeds 1000 and up are held out for measurement (docs/procgen.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from dreamteam.env.procgen.common import SIZES, FamilySpec, VariantData, VariantError, write_and_verify
from dreamteam.errors import UserError

# Family name -> module exposing `FAMILY: FamilySpec`. Adding a family is adding one line here.
FAMILIES: dict[str, str] = {
    "maze": "dreamteam.env.procgen.maze",
    "keys": "dreamteam.env.procgen.keys",
    "push": "dreamteam.env.procgen.push",
    "flip": "dreamteam.env.procgen.flip",
    "copy": "dreamteam.env.procgen.copy",
    "lava": "dreamteam.env.procgen.lava",
    "twin": "dreamteam.env.procgen.twin",
    "fuse": "dreamteam.env.procgen.fuse",
}


def family_names() -> list[str]:
    """Every registered family, sorted."""
    return sorted(FAMILIES)


def load_family(name: str) -> FamilySpec:
    """The FamilySpec of a registered family (its module is imported only now)."""
    if name not in FAMILIES:
        raise UserError(f"unknown game family {name!r} (known: {', '.join(family_names())})")
    spec = importlib.import_module(FAMILIES[name]).FAMILY
    if not isinstance(spec, FamilySpec):
        raise TypeError(f"{FAMILIES[name]}.FAMILY must be a FamilySpec, got {type(spec).__name__}")
    return spec


def generator(spec: FamilySpec, size: str) -> Callable[[int], VariantData]:
    """The family's generator for a size profile (`standard` or `large`)."""
    if size not in SIZES:
        raise UserError(f"unknown variant size {size!r} (known: {', '.join(SIZES)})")
    made = spec.generate if size == "standard" else spec.generate_large
    if made is None:
        raise UserError(f"family {spec.name!r} has no {size} variants")
    return made


def generate(family: str, seed: int, size: str = "standard") -> VariantData:
    """The variant data of one family, seed and size profile (deterministic)."""
    return generator(load_family(family), size)(seed)


def write_variant(family: str, seed: int, out_dir: Path, size: str = "standard") -> Path:
    """Generate, plan, write `<out_dir>/<family>/<version>/` and verify it through the toolkit; return the directory.

    The version is `s<seed>` for standard variants and `l<seed>` for large ones. Raises VariantError
    with the reason when the toolkit cannot load the variant or the planner's solution does not
    complete every level.
    """
    spec = load_family(family)
    made = generator(spec, size)
    try:
        data = made(seed)
        solutions = spec.plan(data)
    except ValueError as exc:
        raise VariantError(f"{family} seed {seed}: generating or planning failed: {exc}") from exc
    return write_and_verify(Path(out_dir), data, solutions)
