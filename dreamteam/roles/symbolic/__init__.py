"""The `symbolic` backend: offline, algorithmic role models that speak the RoleModel protocol.

Each role has its own algorithm (see docs/symbolic.md):
    observer      lossless parse: geometry, logical grid, objects, entity roles  (observer.py)
    simulator     rule learning written out as dynamics.py                        (simulator.py)
    inductive     sub-goals from evidence, search over predicted rollouts         (inductive.py)
    transductive  frontier probes                                                 (transductive.py)
    critic        loop / death / accuracy audits with routed feedback             (critic.py)
    leader        accuracy-gated choice between tactics and probes                (leader.py)

`build(role)` (or the registry's `build(role_config, context)`) returns a fresh model per role; models keep
only caches between calls, and what they learned lives in the workspace artifacts they write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dreamteam.roles.symbolic.base import Answerer, SymbolicRoleModel
from dreamteam.roles.symbolic.critic import CriticAnswerer
from dreamteam.roles.symbolic.inductive import InductiveAnswerer
from dreamteam.roles.symbolic.leader import LeaderAnswerer
from dreamteam.roles.symbolic.observer import ObserverAnswerer
from dreamteam.roles.symbolic.simulator import SimulatorAnswerer
from dreamteam.roles.symbolic.transductive import TransductiveAnswerer

ANSWERERS: dict[str, Callable[..., Answerer]] = {
    "observer": ObserverAnswerer,
    "simulator": SimulatorAnswerer,
    "inductive": InductiveAnswerer,
    "transductive": TransductiveAnswerer,
    "critic": CriticAnswerer,
    "leader": LeaderAnswerer,
}


def build(role: Any, context: Any = None, **options: Any) -> SymbolicRoleModel:
    """A symbolic role model for `role` (a role name, or a RoleConfig-like object with `.role`).

    `context` is the backend registry's build context (unused: the symbolic models need no keys, prices or
    retries); `options` go to the role's algorithm (e.g. `trust=0.9` for the leader, `limits=` for the
    inductive explorer's search).
    """
    name = role if isinstance(role, str) else str(getattr(role, "role", ""))
    factory = ANSWERERS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"no symbolic model for role {name!r}; roles are: {', '.join(ANSWERERS)}")
    return SymbolicRoleModel(name.strip().lower(), factory(**options))


__all__ = ["ANSWERERS", "SymbolicRoleModel", "build"]
