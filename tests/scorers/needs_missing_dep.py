"""A scorer module whose numerical library is not installed."""

from __future__ import annotations

import no_such_numeric_library_for_tests  # noqa: F401

Scorer = None
