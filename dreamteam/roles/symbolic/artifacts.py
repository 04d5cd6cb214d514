"""Load the team's artifact sources (observable.py, dynamics.py) in-process, in plain Python.

The inductive explorer and the simulator's self-check run artifacts directly rather than through the
sandbox: they are the team's own artifacts, already accepted by the sandbox's compile policy (or written by
the symbolic roles themselves), and rollouts call predict hundreds of times per request. As a seatbelt the
module gets only plain builtins and can import only math, itertools, collections and functools.
"""

from __future__ import annotations

import ast
import builtins
import functools
import hashlib
from collections import OrderedDict
from typing import Any

SAFE_BUILTINS = (
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float", "frozenset", "int",
    "isinstance", "iter", "len", "list", "map", "max", "min", "next", "pow", "range", "repr", "reversed",
    "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip", "print", "hash", "chr", "ord", "hex",
    "Exception", "ValueError", "KeyError", "IndexError", "TypeError", "ZeroDivisionError", "StopIteration",
    "RuntimeError", "AttributeError", "ArithmeticError", "LookupError", "AssertionError", "NotImplementedError",
)
IMPORTABLE = ("math", "itertools", "collections", "functools")


class ArtifactLoadError(Exception):
    """An artifact source that does not compile or fails while its module body runs."""


def _guarded_import(name: str, *args: Any, **kwargs: Any) -> Any:
    if name not in IMPORTABLE:
        raise ImportError(f"artifacts may import only {', '.join(IMPORTABLE)}, not {name!r}")
    return __import__(name, *args, **kwargs)


def _builtins() -> dict[str, Any]:
    table = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
    table["__import__"] = _guarded_import
    return table


class ArtifactCache:
    """Executed artifact namespaces by source text (bounded, least recently used dropped first)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def load(self, source: str, name: str = "artifact") -> dict[str, Any]:
        """The module namespace of `source` (raises ArtifactLoadError when it cannot be loaded)."""
        key = hashlib.blake2b(source.encode(), digest_size=12).hexdigest()
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            return found
        namespace: dict[str, Any] = {"__builtins__": _builtins(), "__name__": name}
        try:
            exec(compile(source, f"<{name}>", "exec"), namespace)  # noqa: S102 - see the module docstring
        except Exception as exc:  # an artifact can fail in any way; report it as data
            raise ArtifactLoadError(f"{name} cannot be loaded: {type(exc).__name__}: {exc}") from exc
        self._items[key] = namespace
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return namespace


@functools.lru_cache(maxsize=32)
def assigned_literal(source: str, name: str) -> Any:
    """The literal value a module assigns to `name` at top level (None when absent or not a literal)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None
