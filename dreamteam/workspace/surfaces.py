"""The registry of the six workspace surfaces: who owns which file and which names in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from dreamteam.workspace.errors import UnknownSurfaceError

SurfaceKind = Literal["python", "json"]


@dataclass(frozen=True, slots=True)
class Surface:
    """One typed slot of the workspace, owned by exactly one role."""

    name: str
    role: str
    role_id: str
    path: str
    kind: SurfaceKind
    public_names: tuple[str, ...]
    helper_prefix: str | None
    description: str

    def owns(self, name: str) -> bool:
        """Whether the owner may define `name` (a public name, or a helper with the surface's prefix)."""
        if name in self.public_names:
            return True
        prefix = self.helper_prefix
        return prefix is not None and name.startswith(prefix) and len(name) > len(prefix)


SURFACES: tuple[Surface, ...] = (
    Surface(
        "observation", "Observer", "observer", "observable.py", "python",
        ("ENTITY_TYPES", "parse", "render"), "obs_",
        "executable parser: parse(frame) -> z and render(z) -> grid",
    ),
    Surface(
        "dynamics", "Simulator", "simulator", "dynamics.py", "python",
        ("HYPOTHESES", "predict", "history"), "dyn_",
        "executable dynamics: predict(z, h, a) -> z and history(z, h, a) -> h",
    ),
    Surface(
        "strategy", "Inductive Explorer", "inductive", "strategy.py", "python",
        ("SUB_GOALS", "POLICIES"), "strat_",
        "sub-goals and policies policy(z, h) -> action or None",
    ),
    Surface(
        "probes", "Transductive Explorer", "transductive", "probes.json", "json",
        ("probes",), None,
        "open probes: actions, expected effect, target hypothesis, status",
    ),
    Surface(
        "critique", "Critic", "critic", "critique.json", "json",
        ("feedback", "flags"), None,
        "routed feedback per role and flags (broken hypothesis, ontology drift, grinding loop)",
    ),
    Surface(
        "leadership", "Team Leader", "leader", "leader.json", "json",
        ("goal", "plan", "confidence", "decisions"), None,
        "current goal, chosen plan, confidence and decision log",
    ),
)

SURFACE_NAMES: tuple[str, ...] = tuple(s.name for s in SURFACES)
_BY_NAME = {s.name: s for s in SURFACES}
_BY_ROLE = {key: s for s in SURFACES for key in (s.role.lower(), s.role_id)}


def surface(name: str) -> Surface:
    """Look a surface up by name (or by its file name); unknown names raise with the list of surfaces."""
    found = _BY_NAME.get(name) or next((s for s in SURFACES if s.path == name), None)
    if found is None:
        raise UnknownSurfaceError(f"unknown surface {name!r}; surfaces are: {', '.join(SURFACE_NAMES)}")
    return found


def surface_for_role(role: str) -> Surface:
    """The surface a role owns, by display name ("Team Leader") or id ("leader")."""
    found = _BY_ROLE.get(role.strip().lower())
    if found is None:
        roles = ", ".join(s.role for s in SURFACES)
        raise UnknownSurfaceError(f"unknown role {role!r}; roles are: {roles}")
    return found
