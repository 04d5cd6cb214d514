"""The symbolic backend's own tests build the real symbolic models (no stand-in from tests/backends)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _symbolic_stand_in() -> None:
    """Overrides tests/backends/conftest.py's stand-in: the registry's `symbolic` stays the real builder."""
