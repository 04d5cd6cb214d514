"""Prompt templates: every role has one, context renders compactly, grids as hex rows."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from dreamteam.backends.render import PromptRenderer, compact, hex_rows, is_grid, render_section
from dreamteam.backends.schemas import ROLE_SCHEMAS, ROLES
from tests.backends.conftest import leader_request


def test_every_role_has_its_own_job_text() -> None:
    renderer = PromptRenderer()
    request = leader_request()
    jobs = set()
    for role in ROLES:
        prompt = renderer.render(replace(request, role=role, schema=ROLE_SCHEMAS[role]))
        assert f"You are the {role} of DreamTeam" in prompt.system
        first_line = prompt.user.splitlines()[0]
        assert first_line.startswith("## Your job (")
        jobs.add(first_line)
    assert len(jobs) == len(ROLES)


def test_unknown_role_uses_the_generic_template() -> None:
    prompt = PromptRenderer().render(replace(leader_request(), role="auditor"))
    assert prompt.user.startswith("## Your job\nYou are the auditor.")


def test_context_keys_all_appear_in_order() -> None:
    before = [[1, 2, 3, 4, 5]] * 2
    evidence = [{"step": 4, "action": {"action": "ACTION2"}, "before": before, "note": "the player moved two cells"}]
    request = leader_request(evidence=evidence, routed_diffs={"simulator": []})
    user = PromptRenderer().render(request).user
    headings = [line[3:] for line in user.splitlines() if line.startswith("## ")]
    assert headings == ["Your job (team leader)", "Task", "Your surface (current artifact)", "frame", "budget",
                        "peer_feedback", "evidence", "routed_diffs", "Reply schema"]
    assert "\n- step: 4\n  action: {\"action\": \"ACTION2\"}\n  before:\n    # 5x2 grid" in user
    assert "\n    12345\n    12345\n  note: the player moved two cells\n" in user
    assert "\nsimulator: []\n" in user


def test_empty_surface_is_said_plainly() -> None:
    user = PromptRenderer().render(replace(leader_request(), surface="")).user
    assert "(empty: nothing written yet)" in user


def test_grid_detection() -> None:
    assert is_grid([[0, 1, 2, 3, 4], [5, 6, 7, 8, 15]])
    assert not is_grid([[3, 4], [5, 6]])  # coordinate pairs, not a grid
    assert is_grid([[3, 4], [5, 6]], key="mask")
    assert not is_grid([[0, 1, 2, 3, 16], [0, 0, 0, 0, 0]])
    assert not is_grid([[0, 1, 2, 3, 4], [0, 1]])
    assert is_grid(["00a1", "ff00"], key="after")  # rows already hex-encoded (dreamteam.codec.encode_grid)
    assert not is_grid(["00a1", "ff00"], key="recent_hashes")
    assert not is_grid(["hello", "world"], key="frame")
    assert compact(["00a1", "ff00"], "frame") == "# 4x2 grid, hex digit per cell, row 0 first\n00a1\nff00"


@given(st.lists(st.lists(st.integers(0, 15), min_size=5, max_size=5), min_size=2, max_size=8))
def test_hex_rows_round_trip(grid: list[list[int]]) -> None:
    rows = compact(grid).splitlines()[1:]
    assert rows == hex_rows(grid)
    assert [[int(ch, 16) for ch in row] for row in rows] == grid


def test_non_json_values_render_through_their_json_form() -> None:
    import numpy as np

    from dreamteam.types import Action

    text = render_section({"plan": [Action(6, 3, 4)], "frame": np.eye(6, dtype=np.int8), "last": Action(1)}, "x")
    assert 'plan: [{"action": "ACTION6", "x": 3, "y": 4}]' in text
    assert "frame:\n  # 6x6 grid, hex digit per cell, row 0 first\n  100000\n" in text
    assert 'last: {"action": "ACTION1"}' in text


def test_nested_values_render_compactly() -> None:
    text = render_section({"player": {"x": 3, "y": 4}, "source": "def f():\n    return 1\n"}, "state")
    assert text == "player: {\"x\": 3, \"y\": 4}\nsource:\n  def f():\n      return 1"
