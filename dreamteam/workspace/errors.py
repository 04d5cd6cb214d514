"""Errors a workspace user can cause; each carries a message fit to show as-is."""

from __future__ import annotations


class WorkspaceError(Exception):
    """A workspace that is missing, corrupt, busy or asked for something it does not hold."""


class UnknownSurfaceError(WorkspaceError, KeyError):
    """A surface or role name that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown surface"


class UnknownStepError(WorkspaceError, KeyError):
    """A step (or revision) with no commit in the workspace."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown step"


class SeedError(WorkspaceError):
    """A seed workspace that does not exist or lacks a surface file."""
