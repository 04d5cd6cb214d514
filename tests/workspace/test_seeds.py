"""Seed workspaces: resolution, contents, and the default world model's exact parse/render round trip."""

from __future__ import annotations

import ast
import json
import operator
from pathlib import Path
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from RestrictedPython import compile_restricted_exec, safe_builtins
from RestrictedPython.Eval import default_guarded_getiter
from RestrictedPython.Guards import full_write_guard, guarded_iter_unpack_sequence, safer_getattr

from dreamteam.workspace import SURFACES, SeedError, available_seeds, seed_path

ALLOWED_IMPORTS = {"math", "itertools", "collections", "functools"}
SEEDS = ("default", "blank")


def load_plain(seed: str, file: str) -> dict[str, Any]:
    """Execute a seed artifact with plain exec (the sandbox is tested elsewhere)."""
    namespace: dict[str, Any] = {}
    exec(compile((seed_path(seed) / file).read_text(), file, "exec"), namespace)
    return namespace


def load_restricted(seed: str, file: str) -> dict[str, Any]:
    """Compile and run a seed artifact under RestrictedPython's standard policy and guards."""
    result = compile_restricted_exec((seed_path(seed) / file).read_text(), filename=file)
    assert result.errors == (), result.errors
    namespace: dict[str, Any] = {
        "__builtins__": {**safe_builtins, "sorted": sorted, "min": min, "max": max, "list": list,
                         "range": range, "len": len},
        "_getiter_": default_guarded_getiter, "_getitem_": operator.getitem, "_write_": full_write_guard,
        "_getattr_": safer_getattr, "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
    }
    exec(result.code, namespace)
    return namespace


OBSERVATION = load_plain("default", "observable.py")

frames_uniform = hnp.arrays(np.int8, (64, 64), elements=st.integers(0, 15))


@st.composite
def frames_sparse(draw: st.DrawFn) -> np.ndarray:
    """A background with a few rectangles, like a game screen."""
    frame = np.full((64, 64), draw(st.integers(0, 15)), dtype=np.int8)
    for _ in range(draw(st.integers(0, 12))):
        x, y = draw(st.integers(0, 63)), draw(st.integers(0, 63))
        w, h = draw(st.integers(1, 20)), draw(st.integers(1, 20))
        frame[y : y + h, x : x + w] = draw(st.integers(0, 15))
    return frame


@settings(max_examples=40, deadline=None)
@given(st.one_of(frames_uniform, frames_sparse()))
def test_default_render_parse_is_exact(frame: np.ndarray) -> None:
    rows = frame.tolist()
    z = OBSERVATION["parse"](rows)
    json.dumps(z)  # z must be JSON-able
    assert OBSERVATION["render"](z) == rows
    assert rows == frame.tolist()  # parse does not modify its input


@settings(max_examples=25, deadline=None)
@given(frames_sparse())
def test_default_objects_are_connected_one_colour_regions(frame: np.ndarray) -> None:
    z = OBSERVATION["parse"](frame.tolist())
    covered = np.full(frame.shape, False)
    for obj in z["objects"]:
        cells = {(x, y) for x, y in obj["cells"]}
        assert obj["color"] != z["background"] and obj["size"] == len(cells)
        assert all(frame[y, x] == obj["color"] for x, y in cells)
        x0, y0, x1, y1 = obj["bbox"]
        assert (x0, y0, x1, y1) == (min(x for x, _ in cells), min(y for _, y in cells),
                                    max(x for x, _ in cells), max(y for _, y in cells))
        for x, y in cells:
            covered[y, x] = True
    assert np.array_equal(covered, frame != z["background"])


def test_default_parse_of_a_known_frame() -> None:
    frame = [[0] * 64 for _ in range(64)]
    frame[1][1] = frame[1][2] = 4
    frame[5][5] = 4
    z = OBSERVATION["parse"](frame)
    assert z["background"] == 0 and [o["cells"] for o in z["objects"]] == [[[1, 1], [2, 1]], [[5, 5]]]
    assert z["objects"][0]["bbox"] == [1, 1, 2, 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_world_model_runs_under_restricted_python(seed: str) -> None:
    observation = load_restricted(seed, "observable.py")
    dynamics = load_restricted(seed, "dynamics.py")
    frame = (np.arange(64 * 64).reshape(64, 64) // 300 % 16).tolist()
    z = observation["parse"](frame)
    h = dynamics["history"](z, {"t": 1}, {"action": "ACTION1"})
    assert h == {"t": 1}
    assert observation["render"](dynamics["predict"](z, h, {"action": "ACTION1"})) == frame
    assert dynamics["HYPOTHESES"] == [] and isinstance(observation["ENTITY_TYPES"], dict)
    strategy = load_restricted(seed, "strategy.py")
    assert strategy["SUB_GOALS"] == [] and strategy["POLICIES"] == {}


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_artifacts_are_restricted_friendly(seed: str) -> None:
    for s in SURFACES:
        if s.kind != "python":
            continue
        tree = ast.parse((seed_path(seed) / s.path).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert set(names) <= ALLOWED_IMPORTS, names
            if isinstance(node, ast.Name | ast.FunctionDef | ast.arg):
                name = getattr(node, "id", None) or getattr(node, "name", None) or getattr(node, "arg", "")
                assert not name.startswith("_"), name
        top = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        top |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert all(s.owns(name) for name in top), top


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_json_surfaces(seed: str) -> None:
    assert json.loads((seed_path(seed) / "probes.json").read_text()) == {"probes": []}
    assert json.loads((seed_path(seed) / "critique.json").read_text()) == {"feedback": {}, "flags": []}
    assert json.loads((seed_path(seed) / "leader.json").read_text()) == {
        "goal": "DISCOVER", "plan": [], "confidence": 0.0, "decisions": []}


def test_seed_resolution(tmp_path: Path) -> None:
    assert set(SEEDS) <= set(available_seeds())
    assert seed_path("default").name == "default" and (seed_path("default") / "observable.py").is_file()
    assert seed_path(str(seed_path("blank"))) == seed_path("blank")
    with pytest.raises(SeedError, match=r"unknown seed workspace 'nope'.*available seeds: .*blank.*default"):
        seed_path("nope")
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "dynamics.py").write_text("HYPOTHESES = []\n")
    with pytest.raises(SeedError, match="lacks observable.py"):
        seed_path("half", root=tmp_path)
