"""Procedural `lava` checks of its own: closed maps, sentries on free floor that force detours. Shared checks: test_families.py."""

from __future__ import annotations

from dreamteam.env.procgen import generate
from dreamteam.env.procgen.lava import parse_level, shortest_steps

FAMILY = "lava"


def test_maps_are_closed_and_sentries_patrol_free_floor() -> None:
    for seed in (1, 2):
        for spec in generate(FAMILY, seed).variant["levels"]:
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
