"""Flags of the team agent: role-model backends, seed workspace, patch policy, tactic scorers."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from dreamteam.backends.cli_args import add_backend_arguments, backend_config_from_args
from dreamteam.backends.config import BackendConfig, load_backend_config, validate_config
from dreamteam.backends.errors import ConfigError
from dreamteam.errors import ScorerError, UserError
from dreamteam.scorers import DEFAULT_SPEC, SCORERS, ScorerSet
from dreamteam.workspace import SeedError, seed_path

SCORER_HELP = (f"tactic scorers that rank the Inductive Explorer's tactics for the leader (team agent only), "
               f"comma-separated NAME[:CHECKPOINT] with NAME one of {', '.join(SCORERS)}, or your own as "
               f"MODULE:ATTR[@CHECKPOINT]; combined as in docs/scorers.md (default: {DEFAULT_SPEC}, the "
               "explorer's own order)")


def add_team_args(parser: argparse.ArgumentParser) -> None:
    """The role-model flags (--backend, --model, ...) plus --seed-workspace, --policy and --scorer."""
    add_backend_arguments(parser)
    g = parser.add_argument_group("team agent (--agent team)")
    g.add_argument("--seed-workspace", default="default", metavar="NAME",
                   help="seed workspace under seeds/ (default: default)")
    g.add_argument("--policy", default="gate", choices=("gate", "feedback"),
                   help="patch policy: gate rejects regressions (default); feedback accepts what compiles")
    g.add_argument("--families-off", default="", metavar="NAMES",
                   help="symbolic rule and goal families to switch off, comma-separated, or 'all' for every "
                        "family but the core ones (also DREAMTEAM_FAMILIES_OFF; see docs/symbolic.md)")
    add_scorer_arg(g)


def add_scorer_arg(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """--scorer SPEC (play and bench)."""
    parser.add_argument("--scorer", default=DEFAULT_SPEC, metavar="SPEC", help=SCORER_HELP)


def team_scorers(args: argparse.Namespace) -> ScorerSet:
    """Load the --scorer spec before the game starts (a ScorerError says what is wrong)."""
    return ScorerSet.load(getattr(args, "scorer", None) or DEFAULT_SPEC)


def team_scorers_from(meta: Mapping[str, Any]) -> ScorerSet:
    """The scorers a run played with, from its run.json (`rollout` for runs recorded before scorers were
    recorded); a checkpoint whose file changed since (another sha256) is refused: the run would go on with
    another model than it began with."""
    recorded = meta.get("scorers")
    if not isinstance(recorded, Mapping) or not recorded.get("scorers"):
        return ScorerSet.load(DEFAULT_SPEC)
    entries = []
    for item in recorded["scorers"]:
        ref, checkpoint = str(item.get("ref") or item.get("name")), item.get("checkpoint")
        entries.append(ref if not checkpoint else f"{ref}:{checkpoint}" if ref in SCORERS else f"{ref}@{checkpoint}")
    scorers = ScorerSet.load(",".join(entries))
    for loaded, item in zip(scorers.loaded, recorded["scorers"], strict=True):
        if item.get("sha256") and loaded.sha256 != item.get("sha256"):
            raise ScorerError(f"scorer {loaded.entry.ref!r}: checkpoint {loaded.entry.checkpoint} changed since the run "
                              f"began (sha256 {str(item['sha256'])[:12]}..., now {str(loaded.sha256)[:12]}...): "
                              "cannot resume with another model")
    return scorers


def team_backends(args: argparse.Namespace) -> BackendConfig:
    """Resolve and check the backends and the seed workspace before the game starts."""
    try:
        seed_path(args.seed_workspace)
    except SeedError as exc:
        raise UserError(str(exc)) from exc
    try:
        config = backend_config_from_args(args)
        validate_config(config)
    except ConfigError as exc:
        raise UserError(str(exc)) from exc
    off = families_off(getattr(args, "families_off", "") or "")
    return replace(config, families_off=off) if off else config


def families_off(names: str) -> tuple[str, ...]:
    """The family names `--families-off` (or DREAMTEAM_FAMILIES_OFF) switches off, `all` expanded; a clear
    user error for an unknown name."""
    if not names.strip():
        return ()
    from dreamteam.backends.symbolic.common.families import UnknownFamilyError, parse_families_off

    try:
        return tuple(sorted(parse_families_off(names).off))
    except UnknownFamilyError as exc:
        raise UserError(str(exc)) from exc


def check_families_env(environ: Mapping[str, str] | None = None) -> None:
    """Reject an unknown name in DREAMTEAM_FAMILIES_OFF before any game starts (the symbolic builder reads it)."""
    from dreamteam.backends.symbolic.common.families import ENV_VAR

    env = os.environ if environ is None else environ
    try:
        families_off(env.get(ENV_VAR, ""))
    except UserError as exc:
        raise UserError(f"{ENV_VAR}: {exc}") from exc


def team_options(args: argparse.Namespace, run_dir: Path, backends: BackendConfig | None,
                 scorers: ScorerSet | None = None) -> dict[str, Any]:
    """Keyword options for building the team agent (empty for other agents)."""
    if backends is None:
        return {}
    return {"run_dir": run_dir, "backends": backends, "seed_workspace": args.seed_workspace, "policy": args.policy,
            "scorers": scorers if scorers is not None else team_scorers(args)}


def team_backends_from(meta: dict[str, Any]) -> BackendConfig:
    """Rebuild the backends of a run from its run.json (models and base URLs; keys from the environment)."""
    roles = meta.get("backends") or {}
    spec = ",".join(f"{role}={cfg['backend']}" for role, cfg in roles.items()) or "symbolic"
    models = ",".join(f"{role}={cfg['model']}" for role, cfg in roles.items() if cfg.get("model")) or None
    urls = {str(cfg["backend"]).rpartition(":")[2]: cfg["base_url"] for cfg in roles.values() if cfg.get("base_url")}
    base_url = ",".join(f"{backend}={url}" for backend, url in urls.items()) or None
    try:
        config = load_backend_config(spec, model=models, base_url=base_url, cassette=meta.get("cassette"),
                                     script=meta.get("script"))
        validate_config(config)
    except ConfigError as exc:
        raise UserError(str(exc)) from exc
    return config
