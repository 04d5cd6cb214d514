#!/usr/bin/env python3
"""Recompute `baseline_actions` of every bundled game from its reference solver and rewrite metadata.json.

For each games/<id>/<version>/metadata.json this loads the game class the way the toolkit does, imports
tests/games/solvers/<id>.py, plays every level with `solve_level(game, level)` and records the length of
each solution. A solution that does not complete its level is an error and nothing is written for that game.

    .venv/bin/python scripts/regen_baselines.py            # rewrite every game's metadata
    .venv/bin/python scripts/regen_baselines.py maze keys  # only these game ids
    .venv/bin/python scripts/regen_baselines.py --check    # report differences, write nothing (exit 1 if any)
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"


class SolverFailed(Exception):
    """A reference solution did not complete its level."""


def load_game(version_dir: Path) -> tuple[Any, dict[str, Any]]:
    """Instantiate the game class in `version_dir` and return it with its metadata."""
    meta: dict[str, Any] = json.loads((version_dir / "metadata.json").read_text())
    class_name = meta["class_name"]
    source = version_dir / f"{class_name.lower()}.py"
    spec = importlib.util.spec_from_file_location(f"regen_{meta['game_id']}", source)
    if spec is None or spec.loader is None:
        raise SolverFailed(f"cannot load {source}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, class_name)(), meta


def perform(game: Any, action_id: int, x: int | None = None, y: int | None = None) -> Any:
    """Send one action to a live arcengine game and return its raw frame data."""
    from arcengine import ActionInput, GameAction

    data = {"x": x, "y": y} if action_id == 6 else {}
    return game.perform_action(ActionInput(id=GameAction.from_id(action_id), data=data), raw=True)


def solution_lengths(game: Any, solver: Any) -> list[int]:
    """Play every level with the solver and return the number of actions each level took."""
    from arcengine import GameState

    frame = perform(game, 0)
    lengths: list[int] = []
    while frame.state != GameState.WIN:
        level = len(lengths)
        actions = solver.solve_level(game, level)
        for action_id, x, y in actions:
            frame = perform(game, action_id, x, y)
            if frame.state == GameState.GAME_OVER:
                raise SolverFailed(f"level {level}: GAME_OVER during the reference solution")
        if frame.levels_completed != level + 1:
            raise SolverFailed(f"level {level}: not completed by its reference solution")
        lengths.append(len(actions))
    return lengths


def regenerate(version_dir: Path, check_only: bool) -> bool:
    """Recompute one game's baselines; write them unless `check_only`. Return True if they changed."""
    game, meta = load_game(version_dir)
    base_id = meta["game_id"].split("-", 1)[0]
    solver = importlib.import_module(f"tests.games.solvers.{base_id}")
    lengths = solution_lengths(game, solver)
    changed = meta.get("baseline_actions") != lengths
    print(f"{meta['game_id']}: {lengths} (sum {sum(lengths)}){' changed' if changed else ''}")
    if changed and not check_only:
        meta["baseline_actions"] = lengths
        (version_dir / "metadata.json").write_text(json.dumps(meta, indent=2) + "\n")
    return changed


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game_ids", nargs="*", help="only these game ids (default: every game in games/)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if any baseline differs")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    dirs = sorted(p.parent for p in GAMES.glob("*/*/metadata.json"))
    dirs = [d for d in dirs if not args.game_ids or d.parent.name in args.game_ids]
    if not dirs:
        print("no matching games under games/", file=sys.stderr)
        return 2
    failed = changed = 0
    for version_dir in dirs:
        try:
            changed += regenerate(version_dir, args.check)
        except (SolverFailed, ImportError, KeyError, ValueError, AssertionError) as exc:
            failed += 1
            print(f"{version_dir.relative_to(ROOT)}: FAILED: {exc}", file=sys.stderr)
    if failed:
        return 1
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
