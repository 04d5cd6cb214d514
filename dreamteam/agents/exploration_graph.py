"""The explorer's map of one level: states keyed by masked-frame hash, observed action edges, BFS."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from dreamteam.types import Action

StateKey = str
ActionFilter = Callable[[Action], bool]


class ExplorationGraph:
    """Nodes are states with ordered candidate actions; an action is tested once its outcome was seen.

    An edge that ended the game `death_limit` times and never survived is dead: tested, and never walked.
    """

    def __init__(self, death_limit: int = 1) -> None:
        self.death_limit = death_limit
        self.candidates: dict[StateKey, tuple[Action, ...]] = {}
        self.edges: dict[StateKey, dict[Action, StateKey]] = {}
        self.deaths: dict[tuple[StateKey, Action], int] = {}
        self.survived: set[tuple[StateKey, Action]] = set()

    def __contains__(self, key: object) -> bool:
        return key in self.candidates

    def __len__(self) -> int:
        return len(self.candidates)

    def add_state(self, key: StateKey, candidates: tuple[Action, ...]) -> None:
        """Register a state and its candidate actions, best first (no-op if already known)."""
        if key not in self.candidates:
            self.candidates[key] = candidates
            self.edges[key] = {}

    def add_candidates(self, key: StateKey, actions: tuple[Action, ...]) -> None:
        """Append more candidate actions to a known state (those it has already are skipped)."""
        have = set(self.candidates.get(key, ()))
        self.candidates[key] = self.candidates.get(key, ()) + tuple(a for a in actions if a not in have)
        self.edges.setdefault(key, {})

    def record(self, key: StateKey, action: Action, outcome: StateKey) -> None:
        """Record that `action` in state `key` led to state `outcome` (equal to `key` for a no-op)."""
        self.edges.setdefault(key, {})[action] = outcome
        self.survived.add((key, action))

    def record_death(self, key: StateKey, action: Action) -> None:
        """Record that `action` in state `key` ended in GAME_OVER."""
        self.deaths[(key, action)] = self.deaths.get((key, action), 0) + 1

    def is_dead(self, key: StateKey, action: Action) -> bool:
        """Dead: killed `death_limit` times and never seen to survive (then the deaths were not its fault)."""
        return self.deaths.get((key, action), 0) >= self.death_limit and (key, action) not in self.survived

    def is_tested(self, key: StateKey, action: Action) -> bool:
        """Whether the outcome of `action` in `key` has been observed."""
        return action in self.edges.get(key, {}) or self.deaths.get((key, action), 0) >= self.death_limit

    def untested(self, key: StateKey, allowed: ActionFilter | None = None) -> list[Action]:
        """Untested candidate actions of a state, best first, optionally filtered."""
        return [
            a
            for a in self.candidates.get(key, ())
            if not self.is_tested(key, a) and (allowed is None or allowed(a))
        ]

    def live_edges(self, key: StateKey) -> list[tuple[Action, StateKey]]:
        """Known edges out of a state that move somewhere else and are not dead."""
        return [
            (a, nxt) for a, nxt in self.edges.get(key, {}).items() if nxt != key and not self.is_dead(key, a)
        ]

    def shortest_path(
        self, start: StateKey, is_goal: Callable[[StateKey], bool]
    ) -> list[tuple[Action, StateKey]] | None:
        """BFS over live edges to the nearest state (other than start) satisfying `is_goal`: [(action, next)]."""
        parents: dict[StateKey, tuple[StateKey, Action] | None] = {start: None}
        queue: deque[StateKey] = deque([start])
        while queue:
            node = queue.popleft()
            if node != start and is_goal(node):
                return self._unwind(parents, node)
            for action, nxt in self.live_edges(node):
                if nxt not in parents:
                    parents[nxt] = (node, action)
                    queue.append(nxt)
        return None

    @staticmethod
    def _unwind(
        parents: dict[StateKey, tuple[StateKey, Action] | None], goal: StateKey
    ) -> list[tuple[Action, StateKey]]:
        """Turn BFS parent links into the (action, next state) path ending at `goal`."""
        path: list[tuple[Action, StateKey]] = []
        node = goal
        while (link := parents[node]) is not None:
            prev, action = link
            path.append((action, node))
            node = prev
        path.reverse()
        return path

    def path_to_frontier(
        self, start: StateKey, allowed: ActionFilter | None = None
    ) -> list[tuple[Action, StateKey]] | None:
        """Shortest known path to the nearest other state that still has untested actions."""
        return self.shortest_path(start, lambda node: bool(self.untested(node, allowed)))
