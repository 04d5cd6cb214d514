"""What the team keeps in memory between nodes of one step (frames and predictions are not graph state)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from dreamteam.roles.inductive import Tactic
from dreamteam.roles.transductive import Probe
from dreamteam.scorers import ScoredTactic
from dreamteam.team.ports import PatchResult
from dreamteam.types import Grid, Observation

RECENT = 40


@dataclass
class StepMemory:
    """Frames, the pending prediction and this step's proposals, reached through the run context."""

    obs: Observation | None = None
    before: Grid | None = None
    predicted: Grid | None = None
    prediction_error: str = ""
    frames: deque[Grid] = field(default_factory=lambda: deque(maxlen=6))
    hashes: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT))
    actions: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT))
    tactics: list[Tactic] = field(default_factory=list)
    ranking: list[ScoredTactic] = field(default_factory=list)
    critiques: dict[str, list[str]] = field(default_factory=dict)
    """The scorers' critiques of this step's tactics (see `ScorerSet.critiques`), for the Critic to route."""
    """This step's tactics as the scorers ranked them (the order of `tactics`), until the step's commit."""
    probes: list[Probe] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    patches: list[PatchResult] = field(default_factory=list)
    counterexamples: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    tested: dict[str, int] = field(default_factory=dict)
    parse_errors: int = 0
    observer_asked: bool = False
    deaths: int = 0
    deadly: set[tuple[str, str]] = field(default_factory=set)
    """(frame hash, action label) pairs seen to end the game: never chosen again from that frame."""
    level_steps: int = 0
    floor_steps: int = 0
    """Actions of this level sent from the exploration map's walks (the floor's share, see the leader)."""
    sent_by: str = ""
    """The source of the plan that sent the last action ("map-frontier" for the map's walks)."""
    levels_by_floor: int = 0
    levels_by_team: int = 0
    """Levels completed by an action of the map's walks after the other plans had at least as many of the
    level's steps, and levels completed by an action of any other plan (tactics, probes)."""
    exploration: dict[str, Any] = field(default_factory=dict)
    regression: list[dict[str, Any]] = field(default_factory=list)
    """The regression window as a slow step began (read once; the role nodes read it in parallel)."""
    proposals: dict[str, str | None] = field(default_factory=dict)
    """The maintainers' proposed artifacts by surface, until the review node runs them through the lifecycle."""
    skipped_searches: int = 0
    skipped_probes: int = 0
    """Inductive searches skipped in a row while grinding (see `TeamLogic._grinding`)."""
