"""The registry imports a backend (and its SDK) only when a role picks it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dreamteam.backends.calllog import CallLog
from dreamteam.backends.config import load_backend_config
from dreamteam.backends.errors import ConfigError
from dreamteam.backends.llm import LLMRoleModel
from dreamteam.backends.registry import load_factory

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    probe = code + "\nimport sys; print(' '.join(sorted(m for m in sys.modules if m in ('anthropic', 'openai'))))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_importing_the_package_loads_no_sdk() -> None:
    assert _modules_after("import dreamteam.backends, dreamteam.backends.anthropic_backend, "
                          "dreamteam.backends.openai_backend") == set()


def test_building_a_backend_loads_only_its_sdk() -> None:
    code = (
        "from dreamteam.backends import *\n"
        "from dreamteam.backends.registry import BuildContext, build_role_model\n"
        "config = load_backend_config('leader=anthropic', env={'ANTHROPIC_API_KEY': 'k'})\n"
        "build_role_model(config.role('leader'), BuildContext(config, CallLog(), PriceTable.load()))"
    )
    assert _modules_after(code) == {"anthropic"}


def test_build_gives_each_role_its_backend(tmp_path: Path) -> None:
    config = load_backend_config("leader=anthropic,critic=openai", env={"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"})
    from dreamteam.backends.registry import build_role_models

    models = build_role_models(config, CallLog(tmp_path / "calls.jsonl"))
    assert set(models) == {"observer", "simulator", "inductive", "transductive", "critic", "leader"}
    assert isinstance(models["leader"], LLMRoleModel) and models["leader"].name == "anthropic"
    assert isinstance(models["critic"], LLMRoleModel) and models["critic"].name == "openai"
    assert models["leader"].transport.model == "claude-sonnet-4-5"


def test_unknown_factory_name() -> None:
    with pytest.raises(ConfigError, match="unknown backend 'gemini'; backends are: anthropic, openai"):
        load_factory("gemini")
