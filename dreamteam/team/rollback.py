"""Fall a surface back to its last good version when its accepted artifact misbehaved after the replay.

An artifact can pass the regression replay and hang, bomb memory, recurse without bound or raise later: in
the Inductive Explorer's rollouts, the Simulator's self-check (both in-process, `dreamteam.sandbox.inprocess`)
or the sandbox worker's predictions. Each of those records the source in the process's fault journal; once
per step the harness asks `Rollback.due` which current sources are there, writes back the newest earlier
version that is not, and records it in the step's commit as a rejected patch with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass

from dreamteam.sandbox.inprocess import JOURNAL, FaultJournal
from dreamteam.team.ports import PatchResult, WorldModel
from dreamteam.workspace import Workspace, WorkspaceError

SURFACES = ("observation", "dynamics")
"""The surfaces whose artifacts run (strategy.py and the JSON surfaces are read, not executed)."""
KEEP_VERSIONS = 16
"""Earlier accepted versions remembered per surface."""


@dataclass(frozen=True, slots=True)
class Fallback:
    """One surface to write back: the version to restore and why."""

    surface: str
    source: str
    reason: str


class Rollback:
    """Remembers each surface's accepted versions and picks the last good one when the current one faulted."""

    def __init__(self, sources: MutableMapping[str, str], seed: Callable[[str], str | None] = lambda _: None,
                 journal: FaultJournal = JOURNAL) -> None:
        self.journal = journal
        self.seed = seed
        """The surface's version in the seed workspace (the last resort), or None when unknown."""
        self.versions: dict[str, list[str]] = {name: [sources[name]] for name in SURFACES if name in sources}

    def due(self, sources: MutableMapping[str, str]) -> list[Fallback]:
        """The fallbacks the current sources need (remembering the sources that are fine)."""
        out = []
        for name, versions in self.versions.items():
            current = sources[name]
            reason = self.journal.reason(current)
            if reason is None:
                if versions[-1] != current:
                    versions.append(current)
                    del versions[:-KEEP_VERSIONS]
                continue
            good = [v for v in versions if v != current and self.journal.reason(v) is None]
            restored = good[-1] if good else self.seed(name)
            if restored is None or restored == current or self.journal.reason(restored) is not None:
                continue
            out.append(Fallback(name, restored, f"rolled back to the last good version: the accepted one "
                                                f"faulted after its replay ({reason})"))
        return out

    def apply(self, sources: MutableMapping[str, str], write: Callable[[str, str], None],
              world: WorldModel) -> list[PatchResult]:
        """Write back every due fallback (sources, workspace, world model); one rejected patch per surface."""
        results = []
        for fallback in self.due(sources):
            sources[fallback.surface] = fallback.source
            write(fallback.surface, fallback.source)
            world.load(fallback.surface, fallback.source)
            results.append(PatchResult(fallback.surface, False, fallback.reason,
                                       counterexamples=({"error": fallback.reason},)))
        return results


def seed_reader(workspace: Workspace) -> Callable[[str], str | None]:
    """Reads a surface as the seed workspace had it (None when the workspace has no seed tag)."""

    def read(name: str) -> str | None:
        try:
            return workspace.read_surface(name, at="seed")
        except (WorkspaceError, ValueError, LookupError):
            return None

    return read
