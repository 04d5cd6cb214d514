"""Runtime guards and the globals an artifact executes with (the layer RestrictedPython's rewrite calls into)."""

from __future__ import annotations

import builtins
import collections
import functools
import itertools
import math
import operator
from collections.abc import Callable
from typing import Any

from RestrictedPython.transformer import INSPECT_ATTRIBUTES

from dreamteam.sandbox import gridlib
from dreamteam.sandbox.allowlist import ALLOWED_MODULES, FUTURE_FEATURES, SAFE_BUILTIN_NAMES
from dreamteam.sandbox.limits import OUTPUT_LIMIT, LimitExceeded

_SOURCES: dict[str, Any] = {
    "math": math, "itertools": itertools, "collections": collections, "functools": functools, "grid": gridlib,
}
_WRITABLE_TYPES = frozenset({
    dict, list, set, bytearray, collections.defaultdict, collections.Counter, collections.OrderedDict, collections.deque,
})
_INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "<<=": operator.ilshift,
    ">>=": operator.irshift, "|=": operator.ior, "^=": operator.ixor, "&=": operator.iand,
    "@=": operator.imatmul,
}


class ModuleFacade:
    """A read-only stand-in for an allowed module exposing only its allow-listed members."""

    __slots__ = ("_members", "_name")

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_members", members)

    def __getattr__(self, attr: str) -> Any:
        try:
            return self._members[attr]
        except KeyError:
            raise AttributeError(f"module '{self._name}' has no allowed member '{attr}'") from None

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError(f"module '{self._name}' is read-only")

    def __repr__(self) -> str:
        return f"<module '{self._name}' (sandbox facade)>"


def _build_facades() -> dict[str, ModuleFacade]:
    facades = {}
    for name, members in ALLOWED_MODULES.items():
        source = _SOURCES[name]
        facades[name] = ModuleFacade(name, {m: getattr(source, m) for m in members if hasattr(source, m)})
    facades["__future__"] = ModuleFacade("__future__", {f: True for f in FUTURE_FEATURES})
    return facades


FACADES = _build_facades()


def guarded_import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> ModuleFacade:
    """`__import__` for artifacts: only the allow-listed modules, as read-only facades."""
    facade = FACADES.get(name)
    if facade is None or level != 0:
        raise ImportError(f"import of '{name}' is not allowed")
    return facade


def guarded_getattr(obj: Any, name: str, *default: Any) -> Any:
    """`obj.name` for artifacts: no underscore names, no frame/code/traceback walks, no str.format."""
    if type(name) is not str:
        raise TypeError("attribute names must be strings")
    if name.startswith("_") or name in INSPECT_ATTRIBUTES:
        raise AttributeError(f"access to attribute '{name}' is not allowed in artifacts")
    if name in ("format", "format_map") and (
        isinstance(obj, str) or (isinstance(obj, type) and issubclass(obj, str))
    ):
        raise AttributeError(f"str.{name} is not allowed (format fields can reach attributes); use an f-string")
    return getattr(obj, name, *default)


class _ReadOnly:
    __slots__ = ("_kind",)
    _kind: str

    def __init__(self, obj: Any) -> None:
        object.__setattr__(self, "_kind", type(obj).__name__)

    def _refuse(self, *args: Any) -> None:
        raise TypeError(f"artifacts cannot modify {self._kind} objects")

    __setitem__ = __delitem__ = __setattr__ = __delattr__ = _refuse


def guarded_write(obj: Any) -> Any:
    """The target of `obj[k] = v`, `del obj[k]`, `obj.a = v`: only plain containers the artifact built."""
    return obj if type(obj) in _WRITABLE_TYPES else _ReadOnly(obj)


def guarded_inplace(op: str, target: Any, value: Any) -> Any:
    """`x op= y` for artifacts."""
    return _INPLACE[op](target, value)


def _passthrough_unpack(iterable: Any, spec: Any, getiter: Any) -> Any:
    # `_getiter_` is plain iter (iteration needs no per-item check here), so unpacking needs none either.
    return iterable


def _apply(func: Any, *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)


class PrintSink:
    """Collects what artifacts print during one call, up to a byte cap (sticky once exceeded)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.exceeded = False

    def begin(self) -> None:
        """Start a new call."""
        self.parts, self.size, self.exceeded = [], 0, False

    def write(self, text: str) -> None:
        """Append printed text, raising LimitExceeded past the cap."""
        if self.exceeded:
            raise LimitExceeded(OUTPUT_LIMIT)
        self.size += len(text)
        if self.size > self.cap:
            self.exceeded = True
            raise LimitExceeded(OUTPUT_LIMIT)
        self.parts.append(text)

    def text(self) -> str:
        """Everything printed in the current call."""
        return "".join(self.parts)


class _ArtifactPrint:
    """What RestrictedPython's rewritten `print(...)` and `printed` call."""

    __slots__ = ("_sink",)

    def __init__(self, sink: PrintSink) -> None:
        self._sink = sink

    def _call_print(self, *objects: Any, sep: str | None = " ", end: str | None = "\n") -> None:
        if not isinstance(sep, str | None) or not isinstance(end, str | None):
            raise TypeError("print() sep and end must be strings")
        text = (" " if sep is None else sep).join(map(str, objects)) + ("\n" if end is None else end)
        self._sink.write(text)

    def __call__(self) -> str:
        return self._sink.text()


def _safe_builtins() -> dict[str, Any]:
    table = {name: getattr(builtins, name) for name in SAFE_BUILTIN_NAMES}
    table["__import__"] = guarded_import
    return table


_BUILTINS = _safe_builtins()


def artifact_globals(module_name: str, sink: PrintSink) -> dict[str, Any]:
    """Fresh globals for one artifact module: restricted builtins plus the guards the rewrite calls."""
    return {
        "__builtins__": dict(_BUILTINS),
        "__name__": module_name,
        "_getattr_": guarded_getattr,
        "_getitem_": operator.getitem,
        "_getiter_": iter,
        "_iter_unpack_sequence_": _passthrough_unpack,
        "_unpack_sequence_": _passthrough_unpack,
        "_write_": guarded_write,
        "_inplacevar_": guarded_inplace,
        "_apply_": _apply,
        "_print_": lambda _getattr=None: _ArtifactPrint(sink),
    }
