"""Role-model backends: symbolic (in backends/symbolic/), anthropic, openai, record, replay, scripted.

Importing this package loads no vendor SDK; `build_role_models` imports a backend's module only when
a role picks it. Typical use from the CLI (the composition root):

    config = load_backend_config("leader=anthropic", model=args.model, base_url=args.base_url)
    validate_config(config)                       # before any game starts
    calls = CallLog(run_dir / "calls.jsonl")
    models = build_role_models(config, calls)     # role name -> RoleModel
    ...
    run_json["calls"] = calls.totals()
"""

from __future__ import annotations

from dreamteam.backends.calllog import CallLog, CallRecord
from dreamteam.backends.cli_args import add_backend_arguments, backend_config_from_args
from dreamteam.backends.config import (
    BackendConfig,
    RoleConfig,
    check_reachable,
    load_backend_config,
    parse_backend_spec,
    validate_config,
)
from dreamteam.backends.errors import CassetteMiss, ConfigError, SchemaError, ScriptExhausted
from dreamteam.backends.prices import PriceTable
from dreamteam.backends.registry import BACKENDS, BuildContext, build_role_model, build_role_models
from dreamteam.backends.retry import RetryPolicy
from dreamteam.backends.schemas import ROLE_SCHEMAS, ROLES
from dreamteam.backends.scripted import Fail, ScriptedModel
from dreamteam.backends.validate import validate

__all__ = [
    "BACKENDS",
    "ROLES",
    "ROLE_SCHEMAS",
    "BackendConfig",
    "BuildContext",
    "CallLog",
    "CallRecord",
    "CassetteMiss",
    "ConfigError",
    "Fail",
    "PriceTable",
    "RetryPolicy",
    "RoleConfig",
    "SchemaError",
    "ScriptExhausted",
    "ScriptedModel",
    "add_backend_arguments",
    "backend_config_from_args",
    "build_role_model",
    "build_role_models",
    "check_reachable",
    "load_backend_config",
    "parse_backend_spec",
    "validate",
    "validate_config",
]
