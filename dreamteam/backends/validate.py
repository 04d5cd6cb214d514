"""A small JSON-schema validator for the subset the reply schemas use (jsonschema is not a dependency).

Supported keywords: type (name or list), enum, const, properties, required, additionalProperties
(bool or schema), items, minItems, maxItems, minimum, maximum, minLength, maxLength, anyOf.
Annotation keywords (description, title, default, examples) are ignored. Any other keyword raises
`SchemaError`, so a schema is never half-checked in silence.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from dreamteam.backends.errors import SchemaError

ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$schema", "$comment"})
SUPPORTED = frozenset(
    {"type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems",
     "maxItems", "minimum", "maximum", "minLength", "maxLength", "anyOf"}
) | ANNOTATIONS


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, list | tuple),
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def validate(instance: Any, schema: Mapping[str, Any]) -> list[str]:
    """Return the validation errors of `instance` against `schema` (empty when valid), each with a path."""
    return validate_at(instance, schema, "$")


def _short(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


def _check(value: Any, schema: Mapping[str, Any], path: str, errors: list[str]) -> None:
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise SchemaError(f"schema at {path} uses unsupported keywords: {', '.join(sorted(unknown))}")
    if not _check_type(value, schema, path, errors):
        return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {_short(value)} is not one of {_short(schema['enum'])}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {_short(value)} is not {_short(schema['const'])}")
    if "anyOf" in schema:
        _check_any_of(value, schema["anyOf"], path, errors)
    if isinstance(value, Mapping):
        _check_object(value, schema, path, errors)
    elif isinstance(value, list | tuple):
        _check_array(value, schema, path, errors)
    elif isinstance(value, str):
        _check_bounds(len(value), schema.get("minLength"), schema.get("maxLength"), f"{path} length", errors)
    elif TYPE_CHECKS["number"](value):
        _check_bounds(value, schema.get("minimum"), schema.get("maximum"), path, errors)


def _check_type(value: Any, schema: Mapping[str, Any], path: str, errors: list[str]) -> bool:
    expected = schema.get("type")
    if expected is None:
        return True
    names = [expected] if isinstance(expected, str) else list(expected)
    for name in names:
        if name not in TYPE_CHECKS:
            raise SchemaError(f"schema at {path} names unknown type {name!r}")
    if any(TYPE_CHECKS[name](value) for name in names):
        return True
    errors.append(f"{path}: expected {' or '.join(names)}, got {_short(value)}")
    return False


def _check_any_of(value: Any, options: list[Mapping[str, Any]], path: str, errors: list[str]) -> None:
    for option in options:
        if not validate_at(value, option, path):
            return
    errors.append(f"{path}: {_short(value)} matches none of the {len(options)} allowed shapes")


def validate_at(value: Any, schema: Mapping[str, Any], path: str) -> list[str]:
    """Like `validate`, with error paths starting at `path`."""
    errors: list[str] = []
    _check(value, schema, path, errors)
    return errors


def _check_object(value: Mapping[str, Any], schema: Mapping[str, Any], path: str, errors: list[str]) -> None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            errors.append(f"{path}: missing required property {name!r}")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        where = f"{path}.{name}"
        if name in properties:
            _check(item, properties[name], where, errors)
        elif extra is False:
            errors.append(f"{path}: unexpected property {name!r}")
        elif isinstance(extra, Mapping):
            _check(item, extra, where, errors)


def _check_array(value: list[Any] | tuple[Any, ...], schema: Mapping[str, Any], path: str, errors: list[str]) -> None:
    _check_bounds(len(value), schema.get("minItems"), schema.get("maxItems"), f"{path} length", errors)
    items = schema.get("items")
    if isinstance(items, Mapping):
        for index, item in enumerate(value):
            _check(item, items, f"{path}[{index}]", errors)


def _check_bounds(value: float, low: float | None, high: float | None, path: str, errors: list[str]) -> None:
    if low is not None and value < low:
        errors.append(f"{path}: {value} is less than the minimum {low}")
    if high is not None and value > high:
        errors.append(f"{path}: {value} is greater than the maximum {high}")
