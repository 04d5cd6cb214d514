"""`python -m dreamteam.cli` runs the command line."""

from __future__ import annotations

import sys

from dreamteam.cli import main

sys.exit(main())
