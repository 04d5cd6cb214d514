"""Per-role backend configuration: parse `--backend`/`--model`/`--base-url`, read the environment, validate."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from dreamteam.backends.errors import ConfigError
from dreamteam.backends.registry import BACKENDS, LLM_BACKENDS, load_factory
from dreamteam.backends.schemas import ROLES

DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-5", "openai": "gpt-4.1-mini"}
DEFAULT_BASE_URLS = {"anthropic": "https://api.anthropic.com", "openai": "https://api.openai.com/v1"}
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
URL_ENV = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}
MODEL_ENV = {"anthropic": "ANTHROPIC_MODEL", "openai": "OPENAI_MODEL"}
WRAPPABLE = tuple(name for name in BACKENDS if name not in ("record", "replay"))


@dataclass(frozen=True, slots=True)
class RoleConfig:
    """One role's backend: its registry name, the backend `record` wraps, and the vendor settings."""

    role: str
    backend: str
    wrapped: str | None = None
    model: str = ""
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)

    @property
    def live(self) -> str:
        """The backend that actually answers (the wrapped one for `record`)."""
        return self.wrapped or self.backend


@dataclass(frozen=True, slots=True)
class BackendConfig:
    """Every role's backend plus the run-wide settings the backends share."""

    roles: tuple[RoleConfig, ...]
    cassette: str | None = None
    script: str | None = None
    prices_path: str | None = None
    max_retries: int = 4
    timeout_s: float = 120.0
    max_tokens: int = 8192
    openai_structured: str = "json_schema"
    families_off: tuple[str, ...] = ()
    """Symbolic rule and goal families switched off (`--families-off`; see backends/symbolic/common/families.py)."""

    def role(self, name: str) -> RoleConfig:
        """The config of role `name` (KeyError for a role the config does not have)."""
        for r in self.roles:
            if r.role == name:
                return r
        raise KeyError(f"no backend configured for role {name!r}")

    def summary(self) -> dict[str, dict[str, str]]:
        """Backend, model and base URL per role, for run.json (never the keys)."""
        out: dict[str, dict[str, str]] = {}
        for r in self.roles:
            name = f"record:{r.wrapped}" if r.wrapped else r.backend
            out[r.role] = {"backend": name, "model": r.model, **({"base_url": r.base_url} if r.base_url else {})}
        return out


def parse_backend_spec(spec: str) -> dict[str, str]:
    """`"anthropic"` -> every role; `"leader=anthropic,simulator=openai"` -> those, the rest symbolic."""
    default, chosen = "symbolic", {}
    bare_seen = False
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        if "=" not in item:
            if bare_seen:
                raise ConfigError(f"--backend {spec!r} names more than one default backend")
            default, bare_seen = _check_backend(item, spec), True
            continue
        role, _, name = (text.strip() for text in item.partition("="))
        if role not in ROLES:
            raise ConfigError(f"unknown role {role!r} in --backend {spec!r}; roles are: {', '.join(ROLES)}")
        if role in chosen:
            raise ConfigError(f"role {role!r} is given twice in --backend {spec!r}")
        chosen[role] = _check_backend(name, spec)
    return {role: chosen.get(role, default) for role in ROLES}


def _check_backend(name: str, spec: str) -> str:
    base, _, wrapped = name.partition(":")
    if base not in BACKENDS:
        raise ConfigError(f"unknown backend {base!r} in --backend {spec!r}; backends are: {', '.join(BACKENDS)}")
    if base == "record" and wrapped not in WRAPPABLE:
        raise ConfigError(
            f"record needs the backend it wraps, one of {', '.join(WRAPPABLE)} (e.g. leader=record:anthropic); "
            f"got {name!r}"
        )
    if base != "record" and wrapped:
        raise ConfigError(f"only record wraps another backend; got {name!r}")
    return name


def _keyed_values(text: str | None, flag: str, keys: tuple[str, ...]) -> tuple[str | None, dict[str, str]]:
    """Split `VALUE` or `key=VALUE,...` (keys: roles or backend names) into (bare value, per key)."""
    bare, keyed = None, {}
    for item in (part.strip() for part in (text or "").split(",")):
        head, sep, rest = item.partition("=")
        if sep and head.strip() in keys:
            keyed[head.strip()] = rest.strip()
        elif sep and flag == "--model":
            raise ConfigError(f"unknown key {head!r} in {flag} {text!r}; use a role or backend: {', '.join(keys)}")
        elif item:
            bare = item
    return bare, keyed


def load_backend_config(
    spec: str = "symbolic",
    *,
    model: str | None = None,
    base_url: str | None = None,
    cassette: str | None = None,
    script: str | None = None,
    api_keys: Mapping[str, str] | None = None,
    max_retries: int = 4,
    timeout_s: float = 120.0,
    env: Mapping[str, str] | None = None,
) -> BackendConfig:
    """Resolve every role's backend, model, base URL and key from the flags, then the environment."""
    env = os.environ if env is None else env
    choices = parse_backend_spec(spec)
    keys = ROLES + tuple(BACKENDS)
    bare_model, role_models = _keyed_values(model, "--model", keys)
    bare_url, backend_urls = _keyed_values(base_url, "--base-url", LLM_BACKENDS)
    roles = []
    for role, name in choices.items():
        backend, _, wrapped = name.partition(":")
        live = wrapped or backend
        if live not in LLM_BACKENDS:
            roles.append(RoleConfig(role, backend, wrapped or None))
            continue
        models = (role_models.get(role), role_models.get(live), role_models.get(backend), bare_model,
                  env.get(MODEL_ENV[live]), DEFAULT_MODELS[live])
        urls = (backend_urls.get(live), bare_url, env.get(URL_ENV[live]), DEFAULT_BASE_URLS[live])
        key = (api_keys or {}).get(live) or env.get(KEY_ENV[live]) or None
        roles.append(RoleConfig(role, backend, wrapped or None, _first(models), _first(urls), key))
    return BackendConfig(
        roles=tuple(roles),
        cassette=cassette,
        script=script,
        prices_path=env.get("DREAMTEAM_PRICES") or None,
        max_retries=max_retries,
        timeout_s=timeout_s,
        openai_structured=env.get("DREAMTEAM_OPENAI_STRUCTURED", "json_schema"),
    )


def _first(values: tuple[str | None, ...]) -> str:
    return next(value for value in values if value)


def validate_config(config: BackendConfig, *, preflight: bool = True, connect_timeout_s: float = 2.0) -> None:
    """Raise ConfigError for what would fail later: unloadable backends, missing keys or files, dead servers."""
    if config.openai_structured not in ("json_schema", "tool"):
        raise ConfigError(f"DREAMTEAM_OPENAI_STRUCTURED must be json_schema or tool, got {config.openai_structured!r}")
    for name in sorted({r.backend for r in config.roles} | {r.live for r in config.roles}):
        load_factory(name)
    _check_keys(config)
    _check_files(config)
    if preflight:
        for backend, url in sorted({(r.live, r.base_url) for r in config.roles if r.base_url}):
            check_reachable(backend, url, connect_timeout_s)


def _roles_using(config: BackendConfig, backend: str) -> list[str]:
    return [r.role for r in config.roles if r.live == backend or r.backend == backend]


def _check_keys(config: BackendConfig) -> None:
    for backend in LLM_BACKENDS:
        missing = [r.role for r in config.roles if r.live == backend and not r.api_key]
        if missing:
            raise ConfigError(
                f"{KEY_ENV[backend]} is not set but role(s) {', '.join(missing)} use the {backend} backend; "
                f"export {KEY_ENV[backend]} or choose another backend for them"
            )


def _check_files(config: BackendConfig) -> None:
    recording, replaying = _roles_using(config, "record"), _roles_using(config, "replay")
    if (recording or replaying) and not config.cassette:
        raise ConfigError(f"role(s) {', '.join(recording + replaying)} need a cassette file (--cassette PATH)")
    if replaying and config.cassette and not os.path.isfile(config.cassette):
        raise ConfigError(f"cassette {config.cassette} does not exist (needed by role(s) {', '.join(replaying)})")
    scripted = _roles_using(config, "scripted")
    if scripted and not (config.script and os.path.isfile(config.script)):
        raise ConfigError(
            f"role(s) {', '.join(scripted)} use the scripted backend, which needs a script file "
            f"(--script PATH: a JSON object of role -> list of replies); got {config.script!r}"
        )


def check_reachable(backend: str, url: str, timeout_s: float = 2.0) -> None:
    """Open (and close) a TCP connection to the URL's host:port; ConfigError if that fails."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"the {backend} base URL {url!r} is not an http(s) URL")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise ConfigError(f"the {backend} base URL {url!r} has a bad port: {exc}") from exc
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout_s):
            return
    except ConnectionRefusedError:
        reason = "connection refused"
    except TimeoutError:
        reason = f"no answer within {timeout_s:g}s"
    except socket.gaierror:
        reason = "host name not found"
    except OSError as exc:
        reason = exc.strerror or str(exc)
    raise ConfigError(f"cannot reach the {backend} base URL {url} ({parts.hostname}:{port}): {reason}")
