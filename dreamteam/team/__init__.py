"""The team agent: the six roles over the workspace, stepping through the graph once per action."""

from __future__ import annotations
