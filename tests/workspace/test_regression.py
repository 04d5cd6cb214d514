"""The regression window R_t."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamteam.workspace import RegressionWindow


def t(step: int, kind: str = "") -> dict[str, Any]:
    return {"step": step, "level_up": kind == "up", "game_over": kind == "over", "pinned": kind == "pin",
            "pin_reason": "asked" if kind == "pin" else ""}


def test_slides_and_keeps_pins() -> None:
    window = RegressionWindow(size=3, pinned_cap=2)
    dropped = [window.add(t(s, "up" if s == 1 else "")) for s in range(6)]
    assert window.steps() == [1, 3, 4, 5] and window.pinned_steps() == [1]
    assert dropped[3] == [0] and dropped[4] == [] and dropped[5] == [2]
    assert window.get(1) is not None and window.get(1)["pin_reason"] == "level-up"  # type: ignore[index]
    assert [x["step"] for x in window.transitions()] == [1, 3, 4, 5]


def test_pin_reasons_and_cap() -> None:
    window = RegressionWindow(size=1, pinned_cap=2)
    for step, kind in enumerate(["over", "pin", "up", ""]):
        window.add(t(step, kind))
    assert window.steps() == [1, 2, 3]  # the oldest pin left once three were pinned
    assert window.manifest()["pinned"] == {"1": "asked", "2": "level-up"}


def test_steps_must_increase() -> None:
    window = RegressionWindow()
    window.add(t(5))
    with pytest.raises(ValueError, match="not after"):
        window.add(t(5))


events = st.lists(st.sampled_from(["", "", "", "", "up", "over", "pin"]), max_size=120)


@settings(max_examples=150)
@given(events, st.integers(1, 20), st.integers(0, 10))
def test_window_never_drops_pinned_or_recent(kinds: list[str], size: int, cap: int) -> None:
    window = RegressionWindow(size=size, pinned_cap=cap)
    pinned: list[int] = []
    for step, kind in enumerate(kinds):
        window.add(t(step, kind))
        if kind:
            pinned.append(step)
        held = set(window.steps())
        assert set(range(max(0, step + 1 - size), step + 1)) <= held  # the recent window
        assert set(pinned[-cap:] if cap else []) <= held  # the newest `cap` pins, always
        assert held <= set(range(max(0, step + 1 - size), step + 1)) | set(pinned)  # nothing else
        assert len(held) <= size + cap


@settings(max_examples=60)
@given(events, st.integers(1, 20), st.integers(0, 10))
def test_restore_from_manifest_reproduces_the_window(kinds: list[str], size: int, cap: int) -> None:
    window = RegressionWindow(size=size, pinned_cap=cap)
    for step, kind in enumerate(kinds):
        window.add(t(step, kind))
    stored = {x["step"]: x for x in window.transitions()}
    again = RegressionWindow.restore(window.manifest(), stored)
    assert again.manifest() == window.manifest() and again.transitions() == window.transitions()
    step = len(kinds)
    assert again.add(t(step, "up")) == window.add(t(step, "up"))
    assert again.steps() == window.steps()
