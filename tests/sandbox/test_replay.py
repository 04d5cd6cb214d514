"""Regression replay: per-transition verdicts of the old and the new version, in one worker call."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreamteam.sandbox import CellDiff, Limits, ReplayReport, Sandbox, decide, demo
from tests.sandbox.conftest import COMPANIONS

LOSSY_OBSERVABLE = demo.OBSERVABLE.replace('bar = grid.count(frame, 9)', 'bar = 0')
RAISES_ON_NOOP = demo.DYNAMICS.replace(
    '    out = dict(z)\n', '    if a["action"] == "ACTION5":\n        raise ValueError("no rule for ACTION5")\n    out = dict(z)\n'
)
HANGS_ON_CLICK = demo.DYNAMICS.replace(
    '    out = dict(z)\n', '    while a["action"] == "ACTION6":\n        pass\n    out = dict(z)\n'
)
SLOW = demo.DYNAMICS.replace('    out = dict(z)\n', '    for i in range(2000000):\n        pass\n    out = dict(z)\n')


def player_at(rows: list[str]) -> tuple[int, int]:
    arr = np.array([[int(c, 16) for c in row] for row in rows])
    ys, xs = np.nonzero(arr == demo.PLAYER)
    return int(xs.min()), int(ys.min())


def blocked_steps(transitions: list[dict[str, Any]]) -> list[int]:
    """Steps where an arrow action left the player in place (a wall was in the way)."""
    return [t["step"] for t in transitions
            if t["action"]["action"] in demo.DELTAS and player_at(t["before"]) == player_at(t["after"])]


def comparable(report: ReplayReport) -> dict[str, Any]:
    data = report.to_json()
    for key in ("seconds", "worker_seconds"):
        data.pop(key)
    return data


def test_a_correct_model_replayed_against_itself_is_right_everywhere(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    report = sandbox.replay(demo.DYNAMICS, demo.DYNAMICS, maze, companions=COMPANIONS)
    assert report.counts == {"fixed": 0, "broken": 0, "still_wrong": 0, "unchanged_right": len(maze)}
    assert (report.old_status, report.new_status, report.aborted) == ("ok", "ok", None)
    assert [r.step for r in report.records] == [t["step"] for t in maze]


def test_forgetting_walls_breaks_exactly_the_blocked_moves(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    report = sandbox.replay(demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, maze, companions=COMPANIONS)
    broken = report.of_kind("broken")
    assert [r.step for r in broken] == blocked_steps(maze) and broken
    first = broken[0]
    assert first.new.wrong_cells == 4 and not first.new.right and first.old.right
    diff = first.new.first_diff
    assert diff is not None and diff.frame == "after" and diff.expected != diff.got
    decision = decide(report)
    assert not decision.accepted and decision.reason.startswith(f"breaks {len(broken)} transition(s)")
    assert decision.counterexamples[0].step == first.step


def test_no_previous_version_counts_as_wrong(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    report = sandbox.replay(None, demo.DYNAMICS_STATIC, maze, companions=COMPANIONS)
    assert report.old_status == "absent" and report.broken == 0 and report.unchanged_right == 0
    moved = len(maze) - len([t for t in maze if player_at(t["before"]) == player_at(t["after"])])
    assert report.still_wrong == moved and report.fixed == len(maze) - moved
    assert report.records[0].old.error == "no previous version"


def test_observation_surface_checks_the_round_trip_of_both_frames(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    same = sandbox.replay(demo.OBSERVABLE, demo.OBSERVABLE, maze, surface="observation")
    assert same.unchanged_right == len(maze)
    lossy = sandbox.replay(demo.OBSERVABLE, LOSSY_OBSERVABLE, maze, surface="observation")
    assert lossy.broken == len(maze)
    assert lossy.records[0].new.first_diff == CellDiff(0, 63, 9, 0, "after")
    assert lossy.records[1].new.first_diff == CellDiff(0, 63, 9, 0, "before")


def test_artifact_errors_are_verdicts_not_crashes(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    report = sandbox.replay(demo.DYNAMICS, RAISES_ON_NOOP, maze, companions=COMPANIONS)
    noop_steps = [t["step"] for t in maze if t["action"]["action"] == "ACTION5"]
    assert [r.step for r in report.of_kind("broken")] == noop_steps and noop_steps
    assert report.of_kind("broken")[0].new.error == "ValueError: no rule for ACTION5 (dynamics.py line 30)"
    assert report.new_status == "ok"


def test_a_new_version_that_hangs_is_killed_and_rejected(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    report = sandbox.replay(demo.DYNAMICS, HANGS_ON_CLICK, maze, companions=COMPANIONS)
    assert report.aborted is None and report.new_status == "killed: timeout after 1.0s"
    errors = [r.new.error for r in report.records]
    assert "timeout after 1.0s" in errors
    first_kill = errors.index("timeout after 1.0s")
    assert maze[first_kill]["action"]["action"] == "ACTION6"
    assert all(not r.new.right for r in report.records if r.action.startswith("ACTION6"))
    decision = decide(report, policy="feedback")
    assert not decision.accepted and decision.reason == "new version killed: timeout after 1.0s"


def test_a_new_version_that_does_not_compile_is_rejected(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    report = sandbox.replay(demo.DYNAMICS, "import os\n", maze[:5], companions=COMPANIONS)
    assert report.new_status.startswith("compile error: line 1: import of 'os' is not allowed")
    assert report.broken == 5
    assert decide(report).reason.startswith("new version compile error")


def test_malformed_requests_raise(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError, match="needs companions"):
        sandbox.replay(demo.DYNAMICS, demo.DYNAMICS, maze)
    with pytest.raises(ValueError, match="cannot replay surface 'strategy'"):
        sandbox.replay(None, "SUB_GOALS = []\n", maze, surface="strategy")
    with pytest.raises(ValueError, match="transition 0: 'after' must be a list of hex strings"):
        sandbox.replay(demo.DYNAMICS, demo.DYNAMICS, [{**maze[0], "after": None}], companions=COMPANIONS)
    with pytest.raises(ValueError, match="transition 0: 'action' and 'history' must be JSON-able"):
        sandbox.replay(demo.DYNAMICS, demo.DYNAMICS, [{**maze[0], "history": {"t": {1, 2}}}], companions=COMPANIONS)
    with pytest.raises(ValueError, match="only hex digits"):
        sandbox.replay(demo.DYNAMICS, demo.DYNAMICS, [{**maze[0], "after": ['"', *maze[0]["after"][1:]]}],
                       companions=COMPANIONS)


def test_numpy_frames_are_accepted(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    arrays = [{**t, "before": np.array([[int(c, 16) for c in r] for r in t["before"]]),
               "after": np.array([[int(c, 16) for c in r] for r in t["after"]])} for t in maze[:10]]
    assert sandbox.replay(demo.DYNAMICS, demo.DYNAMICS, arrays, companions=COMPANIONS).unchanged_right == 10


def test_cache_and_parallel_workers_do_not_change_the_verdicts(maze: list[dict[str, Any]]) -> None:
    with Sandbox(Limits(time_s=1.0), warm_spare=False, cache_old_verdicts=False) as plain:
        expected = comparable(plain.replay(demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, maze, companions=COMPANIONS))
    with Sandbox(Limits(time_s=1.0)) as fancy:
        fancy.start(wait_for_spare=True)
        for _ in range(2):  # the second replay takes the old verdicts from the cache
            assert comparable(fancy.replay(demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, maze, companions=COMPANIONS)) == expected


def test_an_accepted_versions_own_verdicts_serve_as_its_old_verdicts_in_the_next_replay(
        maze: list[dict[str, Any]]) -> None:
    with Sandbox(Limits(time_s=1.0), warm_spare=False, cache_old_verdicts=False) as plain:
        expected = comparable(plain.replay(demo.DYNAMICS_NO_WALLS, demo.DYNAMICS_STATIC, maze, companions=COMPANIONS))
    with Sandbox(Limits(time_s=1.0), warm_spare=False) as box:
        box.replay(demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, maze, companions=COMPANIONS)
        kept = box._verdicts.version(("dynamics", demo.DYNAMICS_NO_WALLS, COMPANIONS["observable.py"]))
        assert len(kept) == len({(tuple(t["before"]), tuple(t["after"]), t["step"]) for t in maze})
        assert comparable(box.replay(demo.DYNAMICS_NO_WALLS, demo.DYNAMICS_STATIC, maze,
                                     companions=COMPANIONS)) == expected


def test_remembered_parses_give_the_verdicts_of_fresh_ones(maze: list[dict[str, Any]]) -> None:
    from dreamteam.sandbox.engine import ParseMemo, run_replay
    from dreamteam.sandbox.execution import Runner
    from dreamteam.sandbox.replay_plan import plan_replay

    plan = plan_replay(demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, maze, surface="dynamics", companions=COMPANIONS,
                       workers=1)
    request = json.loads(plan.requests[0])
    runner, memo = Runner(Limits(time_s=1.0)), ParseMemo(size=8)
    fresh = run_replay(runner, request, None)["records"]
    assert run_replay(runner, request, memo)["records"] == fresh
    assert len(memo._items) == 8  # bounded
    assert run_replay(runner, request, memo)["records"] == fresh


def test_a_replay_over_its_time_limit_is_aborted(maze: list[dict[str, Any]]) -> None:
    with Sandbox(Limits(time_s=1.0, replay_time_s=0.5), warm_spare=False) as box:
        report = box.replay(demo.DYNAMICS, SLOW, maze, companions=COMPANIONS)
        assert report.aborted == "timeout after 0.5s" and report.records == ()
        assert decide(report).reason == "replay aborted: timeout after 0.5s"


def test_killing_the_worker_mid_replay_is_reported_and_the_next_call_works(maze: list[dict[str, Any]]) -> None:
    with Sandbox(Limits(time_s=2.0, replay_time_s=30.0)) as box:
        box.start(wait_for_spare=True)
        assert box.load("echo", "def predict(z, h, a):\n    return a\n").ok
        reports: list[ReplayReport] = []
        worker = threading.Thread(target=lambda: reports.append(box.replay(demo.DYNAMICS, SLOW, maze, companions=COMPANIONS)))
        worker.start()
        time.sleep(0.6)
        pid = box.worker_pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        worker.join(timeout=30)
        assert reports[0].aborted == "worker died (signal 9)" and reports[0].records == ()
        assert box.call("echo", "predict", [{}, {}, {"action": "ACTION3"}]).value == {"action": "ACTION3"}
        assert box.replay(demo.DYNAMICS, demo.DYNAMICS, maze[:5], companions=COMPANIONS).unchanged_right == 5


VERSIONS = st.sampled_from([demo.DYNAMICS, demo.DYNAMICS_NO_WALLS, demo.DYNAMICS_STATIC])
SUBSETS = st.tuples(st.integers(0, 2**16), st.integers(1, 25))
PROPERTY_SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY_SETTINGS
@given(old=VERSIONS, new=VERSIONS, subset=SUBSETS)
def test_replay_is_deterministic(sandbox: Sandbox, old: str, new: str, subset: tuple[int, int]) -> None:
    transitions = demo.transitions(subset[1], seed=subset[0])
    first = sandbox.replay(old, new, transitions, companions=COMPANIONS)
    second = sandbox.replay(old, new, transitions, companions=COMPANIONS)
    assert comparable(first) == comparable(second)


@PROPERTY_SETTINGS
@given(version=VERSIONS, subset=SUBSETS)
def test_an_artifact_replayed_against_itself_never_regresses(sandbox: Sandbox, version: str, subset: tuple[int, int]) -> None:
    report = sandbox.replay(version, version, demo.transitions(subset[1], seed=subset[0]), companions=COMPANIONS)
    assert report.broken == 0 and report.fixed == 0
    assert decide(report).accepted


def test_print_limits_are_charged_to_the_version_that_printed(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    chatty = demo.DYNAMICS.replace('    out = dict(z)\n', '    print("x" * 100000)\n    out = dict(z)\n')
    report = sandbox.replay(chatty, demo.DYNAMICS, maze[:6], companions=COMPANIONS)
    assert report.old_status == "killed: output limit" and report.new_status == "ok"
    assert report.fixed == 6 and decide(report).accepted


IDENTITY_OBSERVABLE = '''ENTITY_TYPES = {}


def parse(frame):
    return {"frame": frame}


def render(z):
    return z["frame"]
'''


def test_a_state_holding_the_frame_itself_is_replayed(sandbox: Sandbox, maze: list[dict[str, Any]]) -> None:
    same = sandbox.replay(IDENTITY_OBSERVABLE, IDENTITY_OBSERVABLE, maze[:8], surface="observation")
    assert same.unchanged_right == 8
    nothing_moves = "def predict(z, h, a):\n    return z\n"
    report = sandbox.replay(nothing_moves, nothing_moves, maze[:8], companions={"observable.py": IDENTITY_OBSERVABLE})
    assert report.still_wrong == 8
    for transition, record in zip(maze[:8], report.records, strict=True):
        before, after = (np.array([[int(c, 16) for c in r] for r in transition[k]]) for k in ("before", "after"))
        ys, xs = np.nonzero(before != after)
        assert record.new.wrong_cells == len(xs)
        assert record.new.first_diff == CellDiff(int(xs[0]), int(ys[0]), int(after[ys[0], xs[0]]), int(before[ys[0], xs[0]]))
