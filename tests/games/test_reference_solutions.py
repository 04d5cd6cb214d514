"""Every bundled game's reference solution completes every level, in exactly `baseline_actions` actions."""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from arcengine import ActionInput, GameAction, GameState

GAMES = Path(__file__).resolve().parents[2] / "games"


def _versions() -> list[Path]:
    return sorted(p.parent for p in GAMES.glob("*/*/metadata.json"))


def _load_game(version_dir: Path) -> Any:
    meta = json.loads((version_dir / "metadata.json").read_text())
    cls_name = meta["class_name"]
    src = version_dir / f"{cls_name.lower()}.py"
    spec = importlib.util.spec_from_file_location(f"dt_test_{meta['game_id']}", src)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, cls_name)(), meta


def _solver(base_id: str) -> ModuleType:
    return importlib.import_module(f"tests.games.solvers.{base_id}")


def _perform(game: Any, aid: int, x: int | None = None, y: int | None = None) -> Any:
    data = {"x": x, "y": y} if aid == 6 else {}
    return game.perform_action(ActionInput(id=GameAction.from_id(aid), data=data), raw=True)


def test_there_are_at_least_eight_games() -> None:
    assert len({p.parent.name for p in _versions()}) >= 8


@pytest.mark.parametrize("version_dir", _versions(), ids=lambda p: f"{p.parent.name}-{p.name}")
def test_reference_solution_completes_every_level(version_dir: Path) -> None:
    game, meta = _load_game(version_dir)
    assert (game.__class__.__doc__ or "").strip(), "each game documents its rules in a docstring"
    baselines = meta["baseline_actions"]
    assert len(baselines) >= 5
    solver = _solver(meta["game_id"].split("-", 1)[0])
    fd = _perform(game, 0)
    assert fd.state == GameState.NOT_FINISHED
    for level, baseline in enumerate(baselines):
        actions = solver.solve_level(game, level)
        assert len(actions) == baseline, f"level {level}: baseline {baseline} but solution has {len(actions)}"
        for i, (aid, x, y) in enumerate(actions):
            fd = _perform(game, aid, x, y)
            assert fd.state != GameState.GAME_OVER, f"level {level}: game over at action {i}"
            if i < len(actions) - 1:
                assert fd.levels_completed == level, f"level {level}: completed early at action {i}"
        assert fd.levels_completed == level + 1, f"level {level} not completed by its reference solution"
    assert fd.state == GameState.WIN
