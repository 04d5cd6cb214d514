"""Run viewer: one self-contained HTML page to step through a run, and GIF / PNG frame exports."""

from __future__ import annotations
