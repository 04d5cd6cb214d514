"""The harness's own choice when no role proposed a usable plan."""

from __future__ import annotations

import random

from dreamteam.roles.transductive import Probe
from dreamteam.team.summaries import fallback_actions
from dreamteam.types import Action


def test_the_fallback_avoids_actions_predicted_fatal_from_here() -> None:
    rng = random.Random(0)
    chosen = {fallback_actions([], [1, 2, 3, 4], rng, fatal={1, 2, 4})[0].id for _ in range(20)}
    assert chosen == {3}
    assert {fallback_actions([], [1, 2], rng, fatal={1, 2})[0].id for _ in range(20)} <= {1, 2}, \
        "when every action is fatal one of them is still played"
    probe = Probe(actions=(Action(2), Action(3)), expected_effect="", target_hypothesis="ACTION2 has an effect")
    assert fallback_actions([probe], [1, 2, 3], rng, fatal={2})[0].id != 2
    assert fallback_actions([probe], [1, 2, 3], rng)[0].id == 2
