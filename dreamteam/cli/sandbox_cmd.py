"""`dreamteam sandbox`: check an artifact against a surface's scope and the compile policy, or run one of
its functions in the sandbox worker under the limits."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dreamteam.sandbox import Limits, Sandbox, check_scope, compile_artifact

SURFACE_SCOPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "observation": (("ENTITY_TYPES", "parse", "render"), ("obs_",)),
    "dynamics": (("HYPOTHESES", "predict", "history"), ("dyn_",)),
    "strategy": (("SUB_GOALS", "POLICIES"), ("strat_",)),
}
"""Surface -> (owned names, helper prefixes). Mirrors the workspace's surface registry for this command."""

EXIT_OK, EXIT_REJECTED, EXIT_KILLED = 0, 1, 2
_DEFAULTS = Limits()


def register(sub: Any) -> None:
    """Add the `sandbox` command with its `check` and `run` sub-commands."""
    parser = sub.add_parser(
        "sandbox", help="check or run an artifact in the sandbox",
        description="Scope-check and compile an artifact for a surface, or run one of its functions under the limits.",
    )
    inner = parser.add_subparsers(dest="sandbox_command", metavar="SUBCOMMAND", required=True)
    check = inner.add_parser(
        "check", help="scope check + restricted compile (exit 0 acceptable, 1 rejected)",
        description="Exit 0 when FILE may be a patch to SURFACE, 1 with the reasons when it may not.",
    )
    _add_artifact_arguments(check)
    check.set_defaults(handler=run_check)
    run = inner.add_parser(
        "run", help="load FILE in the worker and call FUNCTION (exit 0 ok, 1 rejected, 2 killed by a limit)",
        description="Print the JSON result of FUNCTION(*ARGS). Grids can be passed as {\"$grid\": [hex rows]}.",
    )
    _add_artifact_arguments(run)
    run.add_argument("function", help="the top-level function to call")
    run.add_argument("--args-json", default="[]", metavar="JSON", help="a JSON list of positional arguments")
    run.add_argument("--timeout", type=float, default=_DEFAULTS.time_s, metavar="SECONDS", help="per-call time limit")
    run.add_argument("--memory-mb", type=int, default=_DEFAULTS.memory_bytes >> 20, metavar="MB",
                     help="worker address-space limit")
    run.set_defaults(handler=run_function)


def _add_artifact_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("surface", choices=sorted(SURFACE_SCOPES), help="the surface the artifact belongs to")
    parser.add_argument("file", help="the artifact's Python source")


def _reasons(surface: str, source: str, filename: str) -> list[str]:
    owned, prefixes = SURFACE_SCOPES[surface]
    reasons = [error.message for error in check_scope(source, owned, prefixes, surface=surface)]
    for error in compile_artifact(source, filename).errors:
        if error not in reasons:
            reasons.append(error)
    return reasons


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {path}: {exc}", file=sys.stderr)
        return None


def run_check(args: argparse.Namespace) -> int:
    """`sandbox check SURFACE FILE`."""
    source = _read(args.file)
    if source is None:
        return EXIT_REJECTED
    reasons = _reasons(args.surface, source, Path(args.file).name)
    if reasons:
        print(f"rejected: {args.file} is not acceptable on the {args.surface} surface")
        for reason in reasons:
            print(f"  {reason}")
        return EXIT_REJECTED
    print(f"ok: {args.file} is acceptable on the {args.surface} surface")
    return EXIT_OK


def _parse_args_json(text: str) -> list[Any] | None:
    try:
        value = json.loads(text)
    except ValueError as exc:
        print(f"error: --args-json is not valid JSON: {exc}", file=sys.stderr)
        return None
    if not isinstance(value, list):
        print("error: --args-json must be a JSON list of positional arguments", file=sys.stderr)
        return None
    return value


def run_function(args: argparse.Namespace) -> int:
    """`sandbox run SURFACE FILE FUNCTION [--args-json JSON]`."""
    source = _read(args.file)
    call_args = _parse_args_json(args.args_json)
    if source is None or call_args is None:
        return EXIT_REJECTED
    filename = Path(args.file).name
    reasons = _reasons(args.surface, source, filename)
    if reasons:
        print("rejected: " + "; ".join(reasons), file=sys.stderr)
        return EXIT_REJECTED
    try:
        limits = Limits(time_s=args.timeout, memory_bytes=args.memory_mb << 20)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REJECTED
    with Sandbox(limits, warm_spare=False, parallel_replay=False) as sandbox:
        loaded = sandbox.load(args.surface, source, filename=filename)
        if not loaded.ok:
            print(f"{'killed' if loaded.kind == 'killed' else 'rejected'}: {loaded.reason}", file=sys.stderr)
            return EXIT_KILLED if loaded.kind == "killed" else EXIT_REJECTED
        result = sandbox.call(args.surface, args.function, call_args)
    if result.printed:
        sys.stderr.write(result.printed)
    if result.kind == "killed":
        print(f"killed: {result.reason}", file=sys.stderr)
        return EXIT_KILLED
    if not result.ok:
        print(f"{result.kind}: {result.reason}", file=sys.stderr)
        return EXIT_REJECTED
    print(json.dumps(result.value))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the `sandbox` command on its own: `python -m dreamteam.cli.sandbox_cmd check dynamics dynamics.py`."""
    parser = argparse.ArgumentParser(prog="dreamteam")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["sandbox", *(sys.argv[1:] if argv is None else argv)])
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
