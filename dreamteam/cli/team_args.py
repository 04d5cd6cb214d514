"""Flags of the team agent: role-model backends, seed workspace, patch policy."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dreamteam.backends.config import BackendConfig, load_backend_config, validate_config
from dreamteam.backends.errors import ConfigError
from dreamteam.errors import UserError


def add_team_args(parser: argparse.ArgumentParser) -> None:
    """--backend, --model, --base-url, --cassette, --seed-workspace, --policy."""
    g = parser.add_argument_group("team agent (--agent team)")
    g.add_argument("--backend", default="symbolic", metavar="SPEC",
                   help="role-model backends: 'symbolic' for all roles, or per role, e.g. "
                        "'leader=anthropic,simulator=openai' (others stay symbolic); also record:<backend>, replay")
    g.add_argument("--model", default=None, help="model name, or per role/backend: 'leader=claude-...,openai=gpt-...'")
    g.add_argument("--base-url", default=None, help="API base URL (e.g. an OpenAI-compatible server)")
    g.add_argument("--cassette", default=None, metavar="FILE", help="cassette file for the record/replay backends")
    g.add_argument("--seed-workspace", default="default", metavar="NAME", help="seed workspace under seeds/ (default: default)")
    g.add_argument("--policy", default="gate", choices=("gate", "feedback"),
                   help="patch policy: gate rejects regressions (default); feedback accepts what compiles")


def team_backends(args: argparse.Namespace) -> BackendConfig:
    """Resolve and check the backends before the game starts (missing keys, unreachable URLs)."""
    try:
        config = load_backend_config(args.backend, model=args.model, base_url=args.base_url, cassette=args.cassette)
        validate_config(config)
    except ConfigError as exc:
        raise UserError(str(exc)) from exc
    return config


def team_options(args: argparse.Namespace, run_dir: Path, backends: BackendConfig | None) -> dict[str, Any]:
    """Keyword options for building the team agent (empty for other agents)."""
    if backends is None:
        return {}
    return {"run_dir": run_dir, "backends": backends, "seed_workspace": args.seed_workspace, "policy": args.policy}
