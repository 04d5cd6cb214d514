"""The backend flags for any argparse command, and the BackendConfig they describe."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from dreamteam.backends.config import BackendConfig, load_backend_config


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --backend, --model, --base-url, --cassette, --script, --max-retries and --timeout."""
    group = parser.add_argument_group("role models")
    group.add_argument("--backend", default="symbolic", metavar="SPEC",
                       help="backend for every role (NAME) or per role (ROLE=NAME,...); the rest stay symbolic. "
                            "Names: anthropic, openai, record:NAME, replay, scripted, symbolic (default: symbolic)")
    group.add_argument("--model", default=None, metavar="SPEC",
                       help="model for the LLM roles: MODEL, or ROLE=MODEL / BACKEND=MODEL pairs")
    group.add_argument("--base-url", default=None, metavar="URL",
                       help="API base URL (an OpenAI-compatible server), or BACKEND=URL pairs")
    group.add_argument("--cassette", default=None, metavar="PATH", help="cassette written by record, read by replay")
    group.add_argument("--script", default=None, metavar="PATH", help="replies for the scripted backend (JSON)")
    group.add_argument("--max-retries", type=int, default=4, metavar="N",
                       help="retries on rate limits, server errors and timeouts (default: 4)")
    group.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                       help="timeout of one model call (default: 120)")


def backend_config_from_args(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> BackendConfig:
    """The BackendConfig the parsed flags describe (call `validate_config` on it before playing)."""
    return load_backend_config(
        args.backend,
        model=args.model,
        base_url=args.base_url,
        cassette=args.cassette,
        script=args.script,
        max_retries=args.max_retries,
        timeout_s=args.timeout,
        env=env,
    )
