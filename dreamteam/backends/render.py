"""Prompt rendering: jinja2 templates per role (prompts/<role>.j2 + system.j2) and compact context text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from dreamteam.backends.context import compact_context
from dreamteam.protocols import RoleRequest

PROMPTS_DIR = Path(__file__).parent / "prompts"
HEX = "0123456789abcdef"
GRID_HINTS = ("grid", "frame", "board", "mask", "image", "before", "after")
INLINE_LIMIT = 100


@dataclass(frozen=True, slots=True)
class Prompt:
    """The rendered system and user text of one request."""

    system: str
    user: str

    @property
    def chars(self) -> int:
        """Total characters (a rough size: about 3-4 characters per token for prose)."""
        return len(self.system) + len(self.user)


class PromptRenderer:
    """Renders `RoleRequest`s with the templates in `prompts_dir`; roles without a template use _generic.j2."""

    def __init__(self, prompts_dir: Path = PROMPTS_DIR) -> None:
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(prompts_dir)),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters["section"] = render_section
        self.env.filters["tojson_compact"] = lambda value: json.dumps(value, separators=(",", ":"))

    def render(self, request: RoleRequest) -> Prompt:
        """The system and user prompt for `request`."""
        names = self.env.list_templates()
        template = f"{request.role}.j2" if f"{request.role}.j2" in names else "_generic.j2"
        variables = {
            "role": request.role,
            "task": request.task,
            "surface": request.surface,
            "context": compact_context(request.context),
            "schema": dict(request.schema),
        }
        system = self.env.get_template("system.j2").render(**variables)
        user = self.env.get_template(template).render(**variables)
        return Prompt(system=system.strip() + "\n", user=user.strip() + "\n")


def is_grid(value: Any, key: str = "") -> bool:
    """Whether `value` is a grid worth showing as hex rows: 2-D colour indices 0-15, or hex-string rows."""
    if not isinstance(value, list | tuple) or len(value) < 2:
        return False
    hinted = any(hint in key.lower() for hint in GRID_HINTS)
    if all(isinstance(row, str) for row in value):  # hex rows need a hinting key: hash lists look the same
        return hinted and len({len(row) for row in value}) == 1 and all(ch in HEX for row in value for ch in row)
    rows = [row for row in value if isinstance(row, list | tuple)]
    if len(rows) != len(value) or len({len(row) for row in rows}) != 1 or len(rows[0]) < 2:
        return False
    cells_ok = all(type(c) is int and 0 <= c <= 15 for row in rows for c in row)
    return cells_ok and (len(rows[0]) >= 5 or hinted)


def hex_rows(grid: Any) -> list[str]:
    """One string per row, one hex digit per cell (rows already in hex are kept)."""
    return [row if isinstance(row, str) else "".join(HEX[int(cell)] for cell in row) for row in grid]


def plain(value: Any) -> Any:
    """JSON-able form of a context value: `to_json()` / `tolist()` when it has them, else unchanged."""
    for method in ("to_json", "tolist"):
        if hasattr(value, method):
            return getattr(value, method)()
    return value


def _json_default(value: Any) -> Any:
    converted = plain(value)
    return converted if converted is not value else str(value)


def render_section(value: Any, key: str) -> str:
    """A top-level context entry: mappings one `key: value` line per entry, anything else `compact`."""
    value = plain(value)
    if isinstance(value, Mapping) and value:
        return "\n".join(_entry(str(k), v, 0) for k, v in value.items())
    return compact(value, key)


def compact(value: Any, key: str = "", indent: int = 0) -> str:
    """Indented, YAML-like text for JSON-able `value`: small parts inline, grids as hex rows."""
    value = plain(value)
    pad = " " * indent
    if is_grid(value, key):
        header = f"{pad}# {len(value[0])}x{len(value)} grid, hex digit per cell, row 0 first"
        return "\n".join([header, *(pad + row for row in hex_rows(value))])
    if isinstance(value, str):
        return "\n".join(pad + line for line in value.splitlines()) if "\n" in value else pad + value
    inline = _inline(value)
    if inline is not None:
        return pad + inline
    if isinstance(value, Mapping):
        return "\n".join(_entry(str(k), v, indent) for k, v in value.items())
    return "\n".join(_item(v, key, indent) for v in value)


def _inline(value: Any) -> str | None:
    if not isinstance(value, Mapping | list | tuple):
        return json.dumps(value, default=str)
    text = json.dumps(value, separators=(", ", ": "), default=_json_default)
    nested_grid = "[[" in text and len(text) > INLINE_LIMIT
    return text if len(text) <= INLINE_LIMIT and not nested_grid else None


def _entry(key: str, value: Any, indent: int) -> str:
    pad = " " * indent
    if not is_grid(value, key):
        inline = _inline(plain(value))
        if inline is not None and not (isinstance(value, str) and "\n" in value):
            return f"{pad}{key}: {value if isinstance(value, str) else inline}"
    return f"{pad}{key}:\n{compact(value, key, indent + 2)}"


def _item(value: Any, key: str, indent: int) -> str:
    body = compact(value, key, indent + 2)
    return " " * indent + "- " + body.lstrip(" ")
