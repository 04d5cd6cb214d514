"""DreamTeam: a six-role team that plays ARC-AGI-3-style grid games by training a workspace."""

from __future__ import annotations

__version__ = "0.1.0"
