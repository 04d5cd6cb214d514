"""Backends by name, as dotted paths imported only when picked (so vendor SDKs load only when used)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dreamteam.backends.calllog import CallLog
from dreamteam.backends.errors import ConfigError
from dreamteam.backends.prices import PriceTable
from dreamteam.backends.retry import RetryPolicy
from dreamteam.protocols import RoleModel

if TYPE_CHECKING:
    from dreamteam.backends.config import BackendConfig, RoleConfig

BACKENDS: dict[str, str] = {
    "anthropic": "dreamteam.backends.anthropic_backend:build",
    "openai": "dreamteam.backends.openai_backend:build",
    "record": "dreamteam.backends.cassette:build_record",
    "replay": "dreamteam.backends.cassette:build_replay",
    "scripted": "dreamteam.backends.scripted:build",
    "symbolic": "dreamteam.backends.symbolic:build",
}
LLM_BACKENDS: tuple[str, ...] = ("anthropic", "openai")


@dataclass(frozen=True, slots=True)
class BuildContext:
    """What every backend factory may use: the whole config, the shared call log, prices, retries."""

    config: BackendConfig
    calls: CallLog
    prices: PriceTable
    retry: RetryPolicy = field(default_factory=RetryPolicy)


BackendFactory = Callable[["RoleConfig", BuildContext], RoleModel]
"""`build(role_config, context) -> RoleModel`: the signature every registered `module:build` has."""


def load_factory(name: str) -> BackendFactory:
    """Import the factory registered as `name` (raises ConfigError for an unknown or broken entry)."""
    if name not in BACKENDS:
        raise ConfigError(f"unknown backend {name!r}; backends are: {', '.join(BACKENDS)}")
    module_name, _, attribute = BACKENDS[name].partition(":")
    try:
        factory: BackendFactory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"backend {name!r} ({BACKENDS[name]}) cannot be loaded: {exc}") from exc
    return factory


def build_role_model(role: RoleConfig, context: BuildContext) -> RoleModel:
    """Build the role model one role's config names."""
    return load_factory(role.backend)(role, context)


def build_role_models(
    config: BackendConfig, calls: CallLog, retry: RetryPolicy | None = None
) -> dict[str, RoleModel]:
    """Build every role's model (call `validate_config` first); the CLI's one entry point."""
    context = BuildContext(config, calls, PriceTable.load(config.prices_path), retry or RetryPolicy(config.max_retries))
    return {role.role: build_role_model(role, context) for role in config.roles}
