"""Learn which colours reappear when a mover leaves the cell it covered (a target, a plate, a door).

Two hypotheses compete per covered colour, on every cell a mover left in the window where the level
start showed that colour: the cell shows the mover's vacated colour (the simpler one, kept by default),
or the level start's colour comes back. The second is adopted only when it fits over twice as many of those cells.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from dreamteam.backends.symbolic.common.artifact_layer import lib_level_floor, lib_vacated_cells
from dreamteam.backends.symbolic.common.evidence import Transition
from dreamteam.backends.symbolic.worldmodel.model import WorldRules, apply_moves


@dataclass(frozen=True, slots=True)
class CoverEvidence:
    """Cells a mover left over level-start colour `colour`: how many showed it again, how many did not."""

    colour: int
    restored: int
    vacated: int

    @property
    def adopted(self) -> bool:
        """Whether restoring fits clearly more of these cells: over twice as many as the vacated colour.

        A colour with two kinds of object (a plate that stays, a door that opens) splits the evidence;
        the simpler vacated-colour hypothesis is then kept.
        """
        return self.restored > 2 * self.vacated


def cover_evidence(transitions: Sequence[Transition], rules: WorldRules) -> list[CoverEvidence]:
    """Per level-start colour under a vacated cell, the cells that showed it again vs the vacated colour."""
    scenes = [s.to_json() for s in rules.scenes]
    movers = rules.mover_colours()
    if not scenes or not movers:
        return []
    restored: Counter[int] = Counter()
    vacated: Counter[int] = Counter()
    for t in transitions:
        if not t.local or t.level_up or t.game_over:
            continue
        before = t.before.grid.tolist()
        out = [list(row) for row in before]
        moved, _ = apply_moves(rules, out, t.label)
        cells = lib_vacated_cells(before, out, movers) if moved else []
        floor = lib_level_floor(before, scenes) if cells else None
        if floor is None:
            continue
        for x, y in cells:
            under = floor[y][x]
            if under in movers or under == out[y][x]:
                continue
            shown = int(t.after.grid[y, x])
            if shown == under:
                restored[under] += 1
            elif shown == out[y][x]:
                vacated[under] += 1
    return [CoverEvidence(c, restored[c], vacated[c]) for c in sorted(set(restored) | set(vacated))]


def learn_restored(transitions: Sequence[Transition], rules: WorldRules) -> tuple[tuple[int, ...], list[CoverEvidence]]:
    """(colours that reappear when uncovered, the evidence for every candidate colour)."""
    evidence = cover_evidence(transitions, rules)
    return tuple(e.colour for e in evidence if e.adopted), evidence
