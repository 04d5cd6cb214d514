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

from dreamteam.backends.symbolic.common.base import Answerer, SymbolicRoleModel
from dreamteam.backends.symbolic.common.families import FamilySwitches, parse_families_off, switches_from_env
from dreamteam.backends.symbolic.critic import CriticAnswerer
from dreamteam.backends.symbolic.leader import LeaderAnswerer
from dreamteam.backends.symbolic.observer import ObserverAnswerer
from dreamteam.backends.symbolic.planning.goals.families import goal_families
from dreamteam.backends.symbolic.planning.inductive import InductiveAnswerer
from dreamteam.backends.symbolic.planning.transductive import TransductiveAnswerer
from dreamteam.backends.symbolic.worldmodel.families import rule_families
from dreamteam.backends.symbolic.worldmodel.simulator import SimulatorAnswerer

FAMILY_ROLES = ("simulator", "inductive")
"""The roles whose algorithm takes `families=` (the rule families learned, the goal families derived)."""

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

    `context` is the backend registry's build context (the symbolic models need no keys, prices or retries; its
    config's `families_off` and the environment's `DREAMTEAM_FAMILIES_OFF` switch rule and goal families off
    for the simulator and the inductive explorer, unless `families=` is given); `options` go to the role's
    algorithm (e.g. `trust=0.9` for the leader, `limits=` for the inductive explorer's search).
    """
    name = role if isinstance(role, str) else str(getattr(role, "role", ""))
    factory = ANSWERERS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"no symbolic model for role {name!r}; roles are: {', '.join(ANSWERERS)}")
    if name.strip().lower() in FAMILY_ROLES and "families" not in options:
        options["families"] = family_switches(context)
    return SymbolicRoleModel(name.strip().lower(), factory(**options))


def family_switches(context: Any = None) -> FamilySwitches:
    """The rule and goal families switched off by `DREAMTEAM_FAMILIES_OFF` and by the build context's config
    (`BackendConfig.families_off`, from `--families-off`); raises UnknownFamilyError for an unknown name."""
    configured = getattr(getattr(context, "config", None), "families_off", ())
    from_config = parse_families_off(",".join(configured)) if configured else FamilySwitches()
    return FamilySwitches(switches_from_env().off | from_config.off)


def describe_families() -> list[tuple[str, str, str, str]]:
    """(kind, name, description, games) for every registered family, for docs and `--families-off` help."""
    rules: list[tuple[str, str, str, str]] = [("rule", f.name, f.description, f.games) for f in rule_families()]
    goals = [("goal", f.name, f.description, f.games)
             for stage in ("evidence", "clicks") for f in goal_families(stage=stage)]  # type: ignore[arg-type]
    return rules + goals


__all__ = ["ANSWERERS", "FAMILY_ROLES", "SymbolicRoleModel", "build", "describe_families", "family_switches"]
