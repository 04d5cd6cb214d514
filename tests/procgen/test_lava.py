"""Procedural `lava` checks of its own: closed maps, sentries on free floor that force detours, large levels.

Shared checks: test_families.py (and test_large.py for every family's large profile).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.lava import parse_level, shortest_steps

FAMILY = "lava"


def test_maps_are_closed_and_sentries_patrol_free_floor() -> None:
    for seed, size in ((1, "standard"), (2, "standard"), (1, "large")):
        for spec in generate(FAMILY, seed, size).variant["levels"]:
            rows = spec["map"]
            assert len({len(r) for r in rows}) == 1
            assert set(rows[0]) == set(rows[-1]) == {"#"} and all(r[0] == r[-1] == "#" for r in rows)
            text = "".join(rows)
            assert text.count("P") == text.count("G") == 1
            level = parse_level(spec)
            cells = [cell for route in level.routes for cell in set(route)]
            assert len(cells) == len(set(cells)), "patrols never share a cell"
            assert all(rows[y][x] == "." for x, y in cells), "patrols stay on plain floor"


def test_sentries_arrive_later_and_force_detours_or_waits() -> None:
    forced = 0
    for seed in range(1, 6):
        levels = [parse_level(spec) for spec in generate(FAMILY, seed).variant["levels"]]
        assert not levels[0].routes and len(levels[-1].routes) >= 2
        for level in levels[2:]:
            with_sentries, without = shortest_steps(level), shortest_steps(level, sentries=False)
            assert with_sentries is not None and without is not None
            forced += len(with_sentries) > len(without)
    assert forced >= 10, "in most sentry levels the lava-only shortest path is not safe"


def _area(spec: Mapping[str, Any]) -> int:
    return len(spec["map"]) * len(spec["map"][0])


def test_large_levels_grow_past_the_standard_ones() -> None:
    for seed in (1, 2):
        standard = generate(FAMILY, seed).variant["levels"]
        large = generate(FAMILY, seed, "large").variant["levels"]
        assert len(large) in (5, 6)
        areas = [_area(spec) for spec in large]
        assert areas == sorted(areas) and areas[0] >= 0.8 * _area(standard[-1])
        assert max(max(len(spec["map"]), len(spec["map"][0])) for spec in large) <= 30  # 2-pixel cells
        levels = [parse_level(spec) for spec in large]
        sentries = [len(level.routes) for level in levels]
        assert sentries == sorted(sentries) and sentries[0] >= 3 and sentries[-1] >= 8
        assert len(levels[-1].lava) > 3 * max(len(parse_level(spec).lava) for spec in standard)


def test_large_baselines_rise_to_tens_of_actions_with_sentries_in_the_way() -> None:
    for seed in (1, 2):
        levels = [parse_level(spec) for spec in generate(FAMILY, seed, "large").variant["levels"]]
        lengths = [len(shortest_steps(level) or []) for level in levels]
        assert lengths[0] >= 20 and lengths[-1] >= 50
        assert sum(b > a for a, b in zip(lengths, lengths[1:], strict=False)) >= len(lengths) - 2
        free = [len(shortest_steps(level, sentries=False) or []) for level in levels]
        forced = sum(a > b for a, b in zip(lengths, free, strict=True))
        assert forced >= len(levels) - 1, "sentries force a detour or a wait"
