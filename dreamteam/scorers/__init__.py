"""Tactic scorers: the seam between the Inductive Explorer's tactics and the Team Leader's choice.

A scorer implements `dreamteam.protocols.TacticScorer`; the registry (`registry.py`) finds it by name or
dotted path, `ScorerSet` (`combine.py`) combines several into one ranking, and `rollout` (`rollout.py`) is the
default: the explorer's own order. See docs/scorers.md.
"""

from __future__ import annotations

from dreamteam.scorers.combine import RULE, ScoredTactic, ScorerSet, ScorerVerdict
from dreamteam.scorers.registry import DEFAULT_SPEC, SCORERS, LoadedScorer, ScorerEntry, parse_spec

__all__ = ["DEFAULT_SPEC", "RULE", "SCORERS", "LoadedScorer", "ScoredTactic", "ScorerEntry", "ScorerSet",
           "ScorerVerdict", "parse_spec"]
