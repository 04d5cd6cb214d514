"""The surface registry."""

from __future__ import annotations

import pytest

from dreamteam.workspace import SURFACE_NAMES, SURFACES, UnknownSurfaceError, surface, surface_for_role

EXPECTED = {
    "observation": ("Observer", "observable.py", {"ENTITY_TYPES", "parse", "render"}, "obs_"),
    "dynamics": ("Simulator", "dynamics.py", {"HYPOTHESES", "predict", "history"}, "dyn_"),
    "strategy": ("Inductive Explorer", "strategy.py", {"SUB_GOALS", "POLICIES"}, "strat_"),
    "probes": ("Transductive Explorer", "probes.json", {"probes"}, None),
    "critique": ("Critic", "critique.json", {"feedback", "flags"}, None),
    "leadership": ("Team Leader", "leader.json", {"goal", "plan", "confidence", "decisions"}, None),
}


def test_registry_matches_the_design_table() -> None:
    assert tuple(EXPECTED) == SURFACE_NAMES
    for s in SURFACES:
        role, path, names, prefix = EXPECTED[s.name]
        assert (s.role, s.path, set(s.public_names), s.helper_prefix) == (role, path, names, prefix)
        assert s.kind == ("python" if path.endswith(".py") else "json")
    assert len({s.role for s in SURFACES}) == len({s.path for s in SURFACES}) == 6


def test_owns_public_names_and_prefixed_helpers_only() -> None:
    dynamics = surface("dynamics")
    assert dynamics.owns("predict") and dynamics.owns("dyn_step")
    assert not dynamics.owns("dyn_") and not dynamics.owns("parse") and not dynamics.owns("obs_x")
    assert surface("leadership").owns("goal") and not surface("leadership").owns("goal_x")


def test_lookup_by_file_and_role() -> None:
    assert surface("strategy.py").name == "strategy"
    assert surface_for_role("Team Leader").name == surface_for_role("leader").name == "leadership"
    assert surface_for_role("transductive explorer").path == "probes.json"


def test_unknown_names_list_the_known_ones() -> None:
    with pytest.raises(UnknownSurfaceError, match="surfaces are: observation, dynamics"):
        surface("physics")
    with pytest.raises(UnknownSurfaceError, match="roles are: Observer"):
        surface_for_role("Janitor")
