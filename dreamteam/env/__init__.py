"""The game layer: the only package that imports `arc_agi` / `arcengine`."""

from __future__ import annotations
