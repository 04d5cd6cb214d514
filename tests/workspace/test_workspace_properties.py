"""Hypothesis properties of the workspace: what is committed at a step reads back byte-identical."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamteam.workspace import SURFACE_NAMES, StepRecord, Workspace, seed_path, surface
from dreamteam.workspace.repository import GIT_ENV

texts = st.one_of(st.text(st.characters(exclude_categories=("Cs",)), max_size=120),
                  st.text(st.sampled_from("ab \n\r\t\u00e9\u2603"), max_size=60))
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                        max_size=3), max_leaves=8)


@st.composite
def write(draw: st.DrawFn) -> tuple[str, str]:
    """One surface write: any text for Python surfaces, a JSON object (any layout) for JSON surfaces."""
    name = draw(st.sampled_from(SURFACE_NAMES))
    if surface(name).kind == "python":
        return name, draw(texts)
    obj = draw(st.dictionaries(st.text(max_size=8), json_values, max_size=4))
    text = json.dumps(obj, indent=draw(st.sampled_from([None, 2])), ensure_ascii=draw(st.booleans()))
    return name, text + draw(st.sampled_from(["", "\n", "\r\n", "\n\n"]))


steps_of_writes = st.lists(st.lists(write(), max_size=3), min_size=1, max_size=6)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps_of_writes)
def test_committed_surfaces_read_back_byte_identical(plan: list[list[tuple[str, str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace.create(Path(tmp) / "workspace", seed_path("default"))
        current = {name: ws.read_surface(name) for name in SURFACE_NAMES}
        expected: dict[int, dict[str, str]] = {}
        for step, writes in enumerate(plan):
            for name, text in writes:
                ws.write_surface(name, text)
                current[name] = text
            ws.commit_step(StepRecord(step, 0, "ACTION1", hit=None))
            expected[step] = dict(current)
        ws.close()
        reopened = Workspace.open(ws.root)
        env = {**os.environ, **GIT_ENV}
        for step, state in expected.items():
            for name, text in state.items():
                assert reopened.read_surface(name, step) == text
                raw = subprocess.run(["git", "-C", str(ws.root), "show", f"{reopened.sha_for(step)}:{surface(name).path}"],
                                     capture_output=True, check=True, env=env).stdout
                assert raw == text.encode("utf-8")
        last = expected[len(plan) - 1]
        assert all((ws.root / surface(n).path).read_bytes() == t.encode() for n, t in last.items())
        status = subprocess.run(["git", "-C", str(ws.root), "status", "--porcelain"], capture_output=True,
                                text=True, check=True, env=env).stdout
        assert status == ""
        reopened.close()
