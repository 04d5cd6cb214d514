"""The git-versioned workspace the six roles train: surfaces, evidence, one commit per environment step."""

from __future__ import annotations

from dreamteam.workspace.errors import SeedError, UnknownStepError, UnknownSurfaceError, WorkspaceError
from dreamteam.workspace.evidence import PredictionRecord
from dreamteam.workspace.records import PatchOutcome, StepLogEntry, StepRecord, commit_message, parse_trailers
from dreamteam.workspace.regression import RegressionWindow, pin_reason
from dreamteam.workspace.repository import remove_stale_locks
from dreamteam.workspace.seeds import available_seeds, seed_path, seeds_dir
from dreamteam.workspace.surfaces import SURFACE_NAMES, SURFACES, Surface, surface, surface_for_role
from dreamteam.workspace.workspace import Revision, Workspace

__all__ = [
    "SURFACES",
    "SURFACE_NAMES",
    "PatchOutcome",
    "PredictionRecord",
    "RegressionWindow",
    "Revision",
    "SeedError",
    "StepLogEntry",
    "StepRecord",
    "Surface",
    "UnknownStepError",
    "UnknownSurfaceError",
    "Workspace",
    "WorkspaceError",
    "available_seeds",
    "commit_message",
    "parse_trailers",
    "pin_reason",
    "remove_stale_locks",
    "seed_path",
    "seeds_dir",
    "surface",
    "surface_for_role",
]
