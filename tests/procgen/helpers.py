"""Checks shared by the per-family procedural-variant tests."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from dreamteam.env.procgen import generate, load_family, write_variant
from dreamteam.env.procgen.common import (
    BACKGROUND_COLOURS,
    CONFUSABLE_COLOURS,
    DIRECTIONS,
    VariantData,
    VariantError,
    read_variant_block,
    replace_variant_block,
    template_dir,
    write_and_verify,
)


def files_of(directory: Path) -> dict[str, bytes]:
    """Every file of a directory by name, with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def metadata(directory: Path) -> dict[str, Any]:
    """A version directory's metadata.json."""
    meta: dict[str, Any] = json.loads((directory / "metadata.json").read_text())
    return meta


def module_source(directory: Path) -> str:
    """The game module's source in a version directory."""
    return (directory / f"{metadata(directory)['class_name'].lower()}.py").read_text()


def load_game(directory: Path) -> Any:
    """The game object of a written version directory, loaded the way the toolkit loads it."""
    meta = metadata(directory)
    source = directory / f"{meta['class_name'].lower()}.py"
    spec = importlib.util.spec_from_file_location(
        f"dt_procgen_{directory.parent.name}_{directory.name}", source
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, meta["class_name"])()


def check_written_variant(family: str, seed: int, directory: Path) -> None:
    """Layout, metadata and data block of one written variant agree with the generator and planner."""
    assert directory.name == f"s{seed:04d}" and directory.parent.name == family
    assert sorted(files_of(directory)) == sorted(["metadata.json", f"{metadata(directory)['class_name'].lower()}.py"])
    meta = metadata(directory)
    assert meta["game_id"] == f"{family}-s{seed:04d}"
    assert "procedural" in meta["tags"]
    data = generate(family, seed)
    assert read_variant_block(module_source(directory)) == data.variant
    solutions = load_family(family).plan(data)
    assert len(solutions) >= 5
    assert meta["baseline_actions"] == [len(s) for s in solutions]
    assert all(length > 0 for length in meta["baseline_actions"])


def check_deterministic(family: str, written: dict[int, Path], tmp_path: Path) -> None:
    """Writing the same seed again gives byte-identical files."""
    seed, first = next(iter(written.items()))
    again = write_variant(family, seed, tmp_path)
    assert files_of(again) == files_of(first)
    assert generate(family, seed) == generate(family, seed)


def check_seeds_differ(family: str, written: dict[int, Path], layout_key: str, rule_key: str) -> None:
    """Different seeds give different layouts, and across the seeds the palette and the rule vary too."""
    variants = [read_variant_block(module_source(d)) for d in written.values()]
    layouts = [[level[layout_key] for level in v["levels"]] for v in variants]
    assert len({json.dumps(x) for x in layouts}) == len(variants)
    assert len({json.dumps(v["palette"]) for v in variants}) > 1
    assert len({json.dumps(v[rule_key]) for v in variants}) > 1


def check_palette(palette: dict[str, int], background: str, extra: list[int] | None = None) -> None:
    """Distinct ARC colours, a neutral background, no pair of near-identical shades."""
    colours = list(palette.values()) + (extra or [])
    assert len(set(colours)) == len(colours)
    assert all(0 <= c <= 15 for c in colours)
    assert palette[background] in BACKGROUND_COLOURS
    assert not any(frozenset((a, b)) in CONFUSABLE_COLOURS for a in colours for b in colours)


def check_moves(moves: dict[str, list[int]]) -> None:
    """ACTION1-4 map onto the four unit directions, one each."""
    assert sorted(moves) == ["ACTION1", "ACTION2", "ACTION3", "ACTION4"]
    assert sorted(tuple(v) for v in moves.values()) == sorted(DIRECTIONS.values())


def check_v1_data(family: str, tmp_path: Path) -> None:
    """The bundled v1 module round-trips through its data block and plays as v1 when written as a variant.

    The planner's solutions for the v1 data must have exactly v1's baseline lengths, and writing the v1
    data through the variant writer must pass the toolkit replay.
    """
    meta = json.loads((template_dir(family) / "metadata.json").read_text())
    source = (template_dir(family) / f"{meta['class_name'].lower()}.py").read_text()
    variant = read_variant_block(source)
    assert replace_variant_block(source, variant) == source
    data = VariantData(family, 0, variant)
    solutions = load_family(family).plan(data)
    assert [len(s) for s in solutions] == meta["baseline_actions"]
    written = write_and_verify(tmp_path, data, solutions)
    assert module_source(written) == source


def check_verification_catches_bad_solutions(family: str, tmp_path: Path) -> None:
    """A solution one action short, or one for another level, is refused and leaves no directory behind."""
    data = generate(family, 1)
    solutions = load_family(family).plan(data)
    short = [*solutions[:-1], solutions[-1][:-1]]
    with pytest.raises(VariantError, match="not completed"):
        write_and_verify(tmp_path, data, short)
    swapped = [solutions[1], solutions[0], *solutions[2:]]
    with pytest.raises(VariantError, match=f"{data.game_id} level 0"):
        write_and_verify(tmp_path, data, swapped)
    assert list((tmp_path / family).iterdir()) == []
