"""compile_artifact: the project's RestrictedPython policy returns errors as data."""

from __future__ import annotations

import pytest

from dreamteam.sandbox import compile_artifact, demo
from dreamteam.sandbox.policy import MAX_SOURCE_CHARS


def test_demo_artifacts_compile() -> None:
    for source in (demo.OBSERVABLE, demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, demo.DYNAMICS_STATIC):
        result = compile_artifact(source, "artifact.py")
        assert result.ok and result.code is not None and result.errors == ()


def test_result_lists_used_names_and_warnings() -> None:
    result = compile_artifact("def f(x):\n    print(x)\n    return len(x)\n")
    assert result.ok
    assert "len" in result.used_names and "x" in result.used_names
    assert result.warnings == ("line 1: Prints, but never reads 'printed' variable.",)


def test_errors_are_data_with_every_offence_listed() -> None:
    result = compile_artifact("import os\ndef f():\n    return open('x'), f.__code__\n")
    assert not result.ok and result.code is None
    assert result.errors == (
        "line 1: import of 'os' is not allowed (allowed modules: collections, functools, grid, itertools, math)",
        "line 3: 'open' is not available in artifacts (no dynamic code, introspection or I/O)",
        'line 3: "__code__" is an invalid attribute name because it starts with "_".',
    )


def test_syntax_error_and_oversized_source_are_reported() -> None:
    assert compile_artifact("def (:\n").errors == ("line 1: syntax error: invalid syntax",)
    big = compile_artifact("x = 1\n" * (MAX_SOURCE_CHARS // 6 + 1))
    assert big.errors[0].startswith("line 1: artifact source has ")


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import annotations\nimport math\nfrom grid import cells, bbox\n",
        "from collections import Counter, defaultdict\nfrom functools import lru_cache\n",
        "def f(d, k):\n    d[k] += 1\n    d[k] -= 2\n    return d\n",
        "def f(xs):\n    for i, (a, b) in enumerate(xs):\n        yield i, a, b\n",
        "def f(*args, **kw):\n    return max(*args, **kw)\n",
        "def f(x):\n    type = x['type']\n    return type\n",
        "def f(x):\n    return [y for y in x if (z := y)] and f'{x!r}'\n",
    ],
)
def test_ordinary_artifact_code_compiles(source: str) -> None:
    assert compile_artifact(source).errors == ()


def test_slice_augmented_assignment_is_refused() -> None:
    assert compile_artifact("def f(x):\n    x[1:2] += [3]\n").errors == (
        "line 2: augmented assignment to a slice is not allowed",
    )


def test_names_defined_nowhere_are_refused() -> None:
    assert compile_artifact("def f():\n    return numpy.zeros(3)\n").errors == ("line 2: name 'numpy' is not defined",)
