"""The team's step as a LangGraph state machine (the only package that imports langgraph)."""

from __future__ import annotations
