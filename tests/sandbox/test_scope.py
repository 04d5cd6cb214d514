"""Scope check: a patch may define only the names its surface owns (plus prefixed helpers)."""

from __future__ import annotations

from dreamteam.sandbox import check_scope, demo
from tests.sandbox.conftest import DYNAMICS_OWNED

OBSERVATION_OWNED = ("ENTITY_TYPES", "parse", "render")


def messages(source: str, owned: tuple[str, ...] = DYNAMICS_OWNED, prefixes: tuple[str, ...] = ("dyn_",)) -> list[str]:
    return [e.message for e in check_scope(source, owned, prefixes, surface="dynamics")]


def test_demo_artifacts_are_in_scope() -> None:
    assert messages(demo.DYNAMICS) == []
    assert check_scope(demo.OBSERVABLE, OBSERVATION_OWNED, ("obs_",), surface="observation") == []


def test_foreign_function_is_named_with_its_line() -> None:
    source = "HYPOTHESES = []\n\n\ndef predict_x(z, h, a):\n    return z\n"
    (error,) = check_scope(source, DYNAMICS_OWNED, ("dyn_",), surface="dynamics")
    assert (error.line, error.name) == (4, "predict_x")
    assert str(error) == (
        "line 4: 'predict_x' is not a name the dynamics surface owns "
        "(owned: HYPOTHESES, history, predict; helper names must start with 'dyn_')"
    )


def test_helper_prefix_must_be_followed_by_a_name() -> None:
    assert messages("dyn_TABLE = {}\ndef dyn_step(x):\n    return x\n") == []
    assert messages("dyn_ = 1\n") == [
        "line 1: 'dyn_' is not a name the dynamics surface owns "
        "(owned: HYPOTHESES, history, predict; helper names must start with 'dyn_')"
    ]


def test_without_helper_prefixes_the_hint_is_left_out() -> None:
    (error,) = check_scope("x = 1\n", ("parse",), ())
    assert error.message == "line 1: 'x' is not a name the this surface owns (owned: parse)"


def test_every_binding_form_is_checked() -> None:
    source = "HYPOTHESES, other = [], 1\nstranger: int = 2\nHYPOTHESES += []\n"
    assert [e.name for e in check_scope(source, DYNAMICS_OWNED, ("dyn_",))] == ["other", "stranger"]


def test_imports_may_bind_their_own_name_but_not_a_foreign_alias() -> None:
    ok = "import math\nimport grid as grid\nfrom itertools import chain\nfrom math import sqrt as dyn_sqrt\n"
    assert messages(ok) == []
    assert messages("import itertools as it\n") == [
        "line 1: 'it' is not an import alias the dynamics surface owns "
        "(owned: HYPOTHESES, history, predict; helper names must start with 'dyn_')"
    ]


def test_docstrings_are_the_only_bare_expressions() -> None:
    assert messages('"""module doc"""\nHYPOTHESES = []\n"""a note"""\n') == []
    assert messages("1 + 1\n") == [
        "line 1: a top-level Expr statement is not allowed (only imports, function definitions, assignments and docstrings)"
    ]


def test_control_flow_at_top_level_is_refused() -> None:
    source = "if True:\n    HYPOTHESES = []\nfor i in []:\n    pass\n"
    assert [e.line for e in check_scope(source, DYNAMICS_OWNED)] == [1, 3]


def test_errors_are_sorted_by_line_and_globals_are_checked() -> None:
    source = "def predict(z, h, a):\n    global render\n    render = None\n\nparse = 1\n"
    found = check_scope(source, DYNAMICS_OWNED, ("dyn_",), surface="dynamics")
    assert [(e.line, e.name) for e in found] == [(2, "render"), (5, "parse")]
    assert "is not a global the dynamics surface owns" in found[0].message


def test_syntax_errors_are_reported_not_raised() -> None:
    (error,) = check_scope("def predict(:\n", DYNAMICS_OWNED)
    assert error.message.startswith("line 1: syntax error:")


def test_a_remembered_check_gives_the_same_errors_and_a_fresh_list() -> None:
    source = "def dyn_step(z):\n    return z\n\ndef stray(z):\n    return z\n"
    first = check_scope(source, {"dyn_step"}, surface="dynamics")
    assert [e.name for e in first] == ["stray"]
    first.clear()
    assert [e.name for e in check_scope(source, ["dyn_step"], surface="dynamics")] == ["stray"]
    assert check_scope(source, {"dyn_step", "stray"}, surface="dynamics") == []  # the owned names are in the key
