"""The six roles. Roles depend on the RoleModel protocol, never on a concrete backend or on langgraph."""

from __future__ import annotations
