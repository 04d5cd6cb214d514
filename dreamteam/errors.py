"""Errors a user can cause; the CLI prints their message and exits with their code, never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """A mistake in input or configuration, reported as a one-line message and an exit code."""

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UnknownGameError(UserError):
    """The requested game id is not in any environment directory."""


class CorruptRunError(UserError):
    """A run directory is missing files or holds unreadable ones."""


class StorageError(UserError):
    """The run directory could not be written (disk full, read-only, no permission): the session stops."""

    exit_code = 3


class ScorerError(UserError):
    """A tactic scorer cannot be used: unknown name, bad dotted path, or a missing, corrupt or mismatched
    checkpoint. Raised while the scorers load, before any game starts."""
