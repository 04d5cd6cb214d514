"""Per-role backend configuration: parsing, resolution from flags and environment, validation messages."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from dreamteam.backends.config import (
    check_reachable,
    load_backend_config,
    parse_backend_spec,
    validate_config,
)
from dreamteam.backends.errors import ConfigError
from dreamteam.backends.registry import BACKENDS
from tests.backends.fake_vendor import FakeVendor

ROLE_LIST = "observer, simulator, inductive, transductive, critic, leader"
BACKEND_LIST = "anthropic, openai, record, replay, scripted, symbolic"


def test_one_name_sets_every_role() -> None:
    assert set(parse_backend_spec("symbolic").values()) == {"symbolic"}
    assert set(parse_backend_spec("anthropic").values()) == {"anthropic"}
    assert len(parse_backend_spec("symbolic")) == 6


def test_per_role_names_leave_the_rest_symbolic() -> None:
    assert parse_backend_spec("leader=anthropic,simulator=openai") == {
        "observer": "symbolic", "simulator": "openai", "inductive": "symbolic",
        "transductive": "symbolic", "critic": "symbolic", "leader": "anthropic",
    }


def test_bare_name_is_the_default_for_unnamed_roles() -> None:
    chosen = parse_backend_spec("openai, critic=symbolic, leader=record:anthropic")
    assert chosen["critic"] == "symbolic" and chosen["leader"] == "record:anthropic"
    assert chosen["observer"] == "openai"


@pytest.mark.parametrize("spec,message", [
    ("leader=gpt", f"unknown backend 'gpt' in --backend 'leader=gpt'; backends are: {BACKEND_LIST}"),
    ("claude", f"unknown backend 'claude' in --backend 'claude'; backends are: {BACKEND_LIST}"),
    ("boss=anthropic", f"unknown role 'boss' in --backend 'boss=anthropic'; roles are: {ROLE_LIST}"),
    ("leader=record", "record needs the backend it wraps, one of anthropic, openai, scripted, symbolic "
                      "(e.g. leader=record:anthropic); got 'record'"),
    ("leader=replay:openai", "only record wraps another backend; got 'replay:openai'"),
    ("leader=openai,leader=anthropic", "role 'leader' is given twice in --backend 'leader=openai,leader=anthropic'"),
    ("openai,anthropic", "--backend 'openai,anthropic' names more than one default backend"),
])
def test_bad_specs_are_config_errors(spec: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_backend_spec(spec)
    assert str(caught.value) == message


def test_models_keys_and_urls_come_from_flags_then_environment() -> None:
    env = {"ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk-oa", "OPENAI_BASE_URL": "http://env:8000/v1",
           "OPENAI_MODEL": "env-model"}
    config = load_backend_config("leader=anthropic,simulator=openai,critic=openai",
                                 model="leader=claude-haiku-4-5,critic=qwen3", env=env)
    leader, simulator, critic = (config.role(name) for name in ("leader", "simulator", "critic"))
    assert (leader.model, leader.api_key, leader.base_url) == ("claude-haiku-4-5", "sk-ant", "https://api.anthropic.com")
    assert (simulator.model, simulator.base_url) == ("env-model", "http://env:8000/v1")
    assert critic.model == "qwen3"
    assert config.role("observer").backend == "symbolic" and config.role("observer").model == ""


def test_defaults_and_base_url_flag() -> None:
    config = load_backend_config("openai", base_url="http://localhost:11434/v1", env={})
    assert {r.model for r in config.roles} == {"gpt-4.1-mini"}
    assert {r.base_url for r in config.roles} == {"http://localhost:11434/v1"}
    keyed = load_backend_config("leader=anthropic", base_url="anthropic=http://proxy:9000", model="openai=x", env={})
    assert keyed.role("leader").base_url == "http://proxy:9000"
    assert keyed.role("leader").model == "claude-sonnet-4-5"


def test_unknown_model_key_is_an_error() -> None:
    with pytest.raises(ConfigError) as caught:
        load_backend_config("leader=anthropic", model="boss=x", env={})
    assert str(caught.value).startswith("unknown key 'boss' in --model 'boss=x'; use a role or backend: observer")


def test_keys_never_show_in_summary_or_repr() -> None:
    config = load_backend_config("leader=anthropic", env={"ANTHROPIC_API_KEY": "sk-secret"})
    assert "sk-secret" not in repr(config) and "sk-secret" not in str(config.summary())
    assert config.summary()["leader"] == {"backend": "anthropic", "model": "claude-sonnet-4-5",
                                          "base_url": "https://api.anthropic.com"}
    assert config.summary()["critic"] == {"backend": "symbolic", "model": ""}


def test_missing_key_is_reported_before_anything_else() -> None:
    config = load_backend_config("leader=anthropic,critic=record:anthropic,simulator=openai",
                                 cassette="c.jsonl", env={"OPENAI_API_KEY": "k"})
    with pytest.raises(ConfigError) as caught:
        validate_config(config)  # would need the network for the preflight, but the key check comes first
    assert str(caught.value) == (
        "ANTHROPIC_API_KEY is not set but role(s) critic, leader use the anthropic backend; "
        "export ANTHROPIC_API_KEY or choose another backend for them"
    )


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_base_url_is_detected_fast() -> None:
    port = _closed_port()
    url = f"http://127.0.0.1:{port}/v1"
    config = load_backend_config("simulator=openai", base_url=url, env={"OPENAI_API_KEY": "k"})
    with pytest.raises(ConfigError) as caught:
        validate_config(config, connect_timeout_s=1.0)
    assert str(caught.value) == f"cannot reach the openai base URL {url} (127.0.0.1:{port}): connection refused"


def test_reachable_base_url_passes(vendor: FakeVendor) -> None:
    config = load_backend_config("openai", base_url=vendor.url + "/v1", env={"OPENAI_API_KEY": "k"})
    validate_config(config)
    check_reachable("anthropic", vendor.url)


def test_bad_url_is_an_error() -> None:
    with pytest.raises(ConfigError) as caught:
        check_reachable("openai", "localhost:8000")
    assert str(caught.value) == "the openai base URL 'localhost:8000' is not an http(s) URL"


def test_cassette_and_script_files_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        validate_config(load_backend_config("leader=replay", env={}))
    assert str(caught.value) == "role(s) leader need a cassette file (--cassette PATH)"
    missing = str(tmp_path / "none.jsonl")
    with pytest.raises(ConfigError) as caught:
        validate_config(load_backend_config("replay", cassette=missing, env={}))
    assert str(caught.value) == (
        f"cassette {missing} does not exist (needed by role(s) observer, simulator, inductive, transductive, "
        "critic, leader)"
    )
    with pytest.raises(ConfigError) as caught:
        validate_config(load_backend_config("critic=scripted", env={}))
    assert str(caught.value) == (
        "role(s) critic use the scripted backend, which needs a script file "
        "(--script PATH: a JSON object of role -> list of replies); got None"
    )


def test_unloadable_backend_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(BACKENDS, "scripted", "dreamteam.backends.no_such_module:build")
    script = tmp_path / "script.json"
    script.write_text("{}")
    with pytest.raises(ConfigError) as caught:
        validate_config(load_backend_config("scripted", script=str(script), env={}))
    assert str(caught.value) == (
        "backend 'scripted' (dreamteam.backends.no_such_module:build) cannot be loaded: "
        "No module named 'dreamteam.backends.no_such_module'"
    )


def test_cli_flags_build_the_config() -> None:
    import argparse

    from dreamteam.backends.cli_args import add_backend_arguments, backend_config_from_args

    parser = argparse.ArgumentParser()
    add_backend_arguments(parser)
    args = parser.parse_args(["--backend", "leader=openai", "--model", "qwen3", "--base-url",
                              "http://localhost:8000/v1", "--max-retries", "2", "--timeout", "30"])
    config = backend_config_from_args(args, env={"OPENAI_API_KEY": "k"})
    leader = config.role("leader")
    assert (leader.backend, leader.model, leader.base_url) == ("openai", "qwen3", "http://localhost:8000/v1")
    assert (config.max_retries, config.timeout_s) == (2, 30.0)
    assert config.role("critic").backend == "symbolic"
