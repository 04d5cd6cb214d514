"""Every hostile artifact of the corpus is refused with its exact reason, and the worker survives them all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dreamteam.sandbox import Limits, Sandbox, check_scope, compile_artifact
from tests.sandbox.conftest import DYNAMICS_OWNED
from tests.sandbox.escape_corpus import CORPUS, Hostile

CORPUS_LIMITS = Limits(time_s=0.5, kill_grace_s=0.5, memory_bytes=320 << 20, print_bytes=64 * 1024, result_bytes=1 << 20)


@pytest.fixture(scope="module")
def corpus_sandbox() -> Iterator[Sandbox]:
    with Sandbox(CORPUS_LIMITS) as box:
        box.start(wait_for_spare=True)
        yield box


def refusal(sandbox: Sandbox, hostile: Hostile) -> tuple[str, str]:
    """The stage that stopped the artifact and the reason it gave."""
    scope = check_scope(hostile.source, DYNAMICS_OWNED, ("dyn_",), surface="dynamics")
    if scope:
        return "scope", scope[0].message
    compiled = compile_artifact(hostile.source, "dynamics.py")
    if not compiled.ok:
        return "compile", compiled.errors[0]
    loaded = sandbox.load(hostile.id, hostile.source, filename="dynamics.py")
    if not loaded.ok:
        return "load", f"{loaded.kind}: {loaded.errors[0]}"
    args = list(hostile.args) if hostile.args is not None else [{}, {}, {"action": "ACTION1"}]
    result = sandbox.call(hostile.id, "predict", args)
    return "call", f"{result.kind}: {result.reason}" if not result.ok else f"ok: {result.value!r}"


def test_corpus_is_large_and_ids_are_unique() -> None:
    assert len(CORPUS) >= 40
    assert len({h.id for h in CORPUS}) == len(CORPUS)
    assert {h.stage for h in CORPUS} == {"scope", "compile", "load", "call"}


@pytest.mark.parametrize("hostile", CORPUS, ids=[h.id for h in CORPUS])
def test_hostile_artifact_is_refused_with_its_exact_reason(corpus_sandbox: Sandbox, hostile: Hostile) -> None:
    assert refusal(corpus_sandbox, hostile) == (hostile.stage, hostile.reason)


def test_worker_still_serves_after_the_corpus(corpus_sandbox: Sandbox) -> None:
    assert corpus_sandbox.load("benign", "def predict(z, h, a):\n    return {'ok': True}\n").ok
    assert corpus_sandbox.call("benign", "predict", [{}, {}, {}]).value == {"ok": True}
