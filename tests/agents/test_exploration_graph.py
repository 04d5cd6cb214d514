"""The explorer's graph: tested actions, dead edges, BFS over live edges."""

from __future__ import annotations

from dreamteam.agents.exploration_graph import ExplorationGraph
from dreamteam.types import Action

A1, A2, A3 = Action(1), Action(2), Action(3)


def chain() -> ExplorationGraph:
    """s0 -A1-> s1 -A1-> s2 -A1-> s3, a shortcut s0 -A2-> s3 that kills, and s3 with an untested A3."""
    graph = ExplorationGraph()
    for key in ("s0", "s1", "s2", "s3"):
        graph.add_state(key, (A1, A2, A3) if key == "s3" else (A1, A2))
    graph.record("s0", A1, "s1")
    graph.record("s1", A1, "s2")
    graph.record("s2", A1, "s3")
    graph.record("s1", A2, "s1")
    graph.record("s2", A2, "s2")
    graph.record("s3", A1, "s3")
    graph.record("s3", A2, "s0")
    return graph


def test_tested_untested_and_self_loops() -> None:
    graph = chain()
    assert graph.untested("s0") == [A2]
    assert graph.untested("s1") == []
    assert graph.untested("s3") == [A3]
    assert graph.untested("s3", allowed=lambda a: a.id != 3) == []
    assert graph.live_edges("s1") == [(A1, "s2")]  # the self-loop is tested but goes nowhere


def test_bfs_finds_the_nearest_frontier_and_skips_dead_edges() -> None:
    graph = chain()
    path = graph.path_to_frontier("s1")
    assert path == [(A1, "s2"), (A1, "s3")]
    graph.record("s1", A2, "s3")  # a shorter way appears
    assert graph.path_to_frontier("s1") == [(A2, "s3")]
    assert graph.path_to_frontier("s0") == [(A1, "s1"), (A2, "s3")]
    assert graph.shortest_path("s3", lambda k: k == "s2") == [(A2, "s0"), (A1, "s1"), (A1, "s2")]


def test_death_makes_an_edge_tested_and_dead_until_it_survives() -> None:
    graph = chain()
    graph.record_death("s0", A2)
    assert graph.is_tested("s0", A2) and graph.is_dead("s0", A2)
    assert graph.untested("s0") == []
    graph.death_limit = 2
    assert not graph.is_tested("s0", A2) and not graph.is_dead("s0", A2)
    graph.record_death("s0", A2)
    assert graph.is_dead("s0", A2)
    graph.record("s0", A2, "s3")
    assert not graph.is_dead("s0", A2), "it survived once, so the deaths were not its fault"


def test_no_frontier_means_no_path() -> None:
    graph = chain()
    graph.record("s0", A2, "s0")
    graph.record("s3", A3, "s3")
    assert graph.path_to_frontier("s0") is None
