"""Small exception classes the backends raise; each carries a message a user can act on."""

from __future__ import annotations


class ConfigError(Exception):
    """The backend configuration cannot work (unknown name, missing key, unreachable server)."""


class CassetteMiss(Exception):
    """A replayed request has no recording in the cassette."""

    def __init__(self, role: str, request_hash: str, cassette: str) -> None:
        super().__init__(
            f"cassette {cassette} has no recording for role {role!r} request {request_hash}; "
            "record the run again (--backend ROLE=record:BACKEND) or replay the run that made it"
        )
        self.role = role
        self.request_hash = request_hash


class ScriptExhausted(Exception):
    """A scripted model was asked more often than its script has replies."""


class SchemaError(Exception):
    """A reply schema uses JSON-schema keywords the built-in validator does not support."""
