"""`compile_artifact` one top-level statement at a time, with the statements remembered between versions.

The roles load a new dynamics.py every few steps, and the versions differ in a few statements (a data table, a
rule); compiling the whole module under the RestrictedPython policy costs about five times Python's own compile.
Each top-level statement is compiled on its own (as if it stood at line 1, then moved to its real line) under the
same policy, with the names bound anywhere in the module (the policy's "defined nowhere" check), and the code
objects run one after the other as the whole module would. A statement seen before with the same relevant
names is not compiled again.
"""

from __future__ import annotations

import ast
import types
from collections import OrderedDict
from dataclasses import dataclass

from dreamteam.sandbox.policy import (
    MAX_SOURCE_CHARS,
    ArtifactPolicy,
    CompileResult,
    bound_names,
    compile_artifact,
)

CACHE_SIZE = 4096
"""Compiled statements remembered (per process)."""


@dataclass(frozen=True, slots=True)
class _Statement:
    bound: frozenset[str]
    loads: frozenset[str]


_NAMES: OrderedDict[str, _Statement] = OrderedDict()
_CODE: OrderedDict[tuple[str, bool, frozenset[str], type[ArtifactPolicy]], CompileResult] = OrderedDict()


def _remember(table: OrderedDict, key: object, value: object) -> None:  # type: ignore[type-arg]
    table[key] = value
    if len(table) > CACHE_SIZE:
        table.popitem(last=False)


def _statement(text: str, node: ast.stmt) -> _Statement:
    found = _NAMES.get(text)
    if found is None:
        loads = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        found = _Statement(bound_names(node), loads)
        _remember(_NAMES, text, found)
    return found


def _shift(code: types.CodeType, lines: int) -> types.CodeType:
    """`code` (and the code objects it holds) moved down by `lines` lines."""
    consts = tuple(_shift(c, lines) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + lines, co_consts=consts)


def _compile_one(text: str, future: bool, bound: frozenset[str], filename: str,
                 policy: type[ArtifactPolicy]) -> CompileResult:
    key = (text, future, bound, policy)  # the in-process and the worker's policies rewrite differently
    found = _CODE.get(key)
    if found is None:
        preset = type("PresetPolicy", (policy,), {"preset": bound})
        head = "from __future__ import annotations\n" if future else ""
        found = compile_artifact(head + text, filename, policy=preset)
        if future:
            found = CompileResult(found.ok, found.code if found.ok else None,
                                  tuple(_relabel(e, -1) for e in found.errors),
                                  tuple(_relabel(w, -1) for w in found.warnings), found.used_names)
        _remember(_CODE, key, found)
    return found


def _relabel(message: str, lines: int) -> str:
    """'line N: ...' with N moved by `lines`."""
    head, sep, rest = message.partition(": ")
    if sep and head.startswith("line ") and head[5:].isdigit():
        return f"line {int(head[5:]) + lines}: {rest}"
    return message


Compiled = tuple[CompileResult, tuple[types.CodeType, ...]]
"""The result as `compile_artifact` gives it (without its code), and one code object per top-level statement."""


def compile_incremental(source: str, filename: str, policy: type[ArtifactPolicy]) -> Compiled:
    """Like `compile_artifact(source, filename, policy)` (errors and warnings as data, the same line numbers),
    with the code as one code object per top-level statement, to run in order."""
    if len(source) > MAX_SOURCE_CHARS:
        return _whole(source, filename, policy)
    try:
        tree = ast.parse(source, filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _whole(source, filename, policy)
    lines = source.splitlines(keepends=True)
    future = any(isinstance(s, ast.ImportFrom) and s.module == "__future__" for s in tree.body)
    parts = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        parts.append((first, "".join(lines[first - 1:node.end_lineno]), node))
    known = [_statement(text, node) for _, text, node in parts]
    bound = frozenset().union(*(s.bound for s in known))
    codes: list[types.CodeType] = []
    errors: list[str] = []
    warnings: list[str] = []
    used: set[str] = set()
    for (first, text, _), names in zip(parts, known, strict=True):
        result = _compile_one(text, future, bound & names.loads, filename, policy)
        errors += [_relabel(e, first - 1) for e in result.errors]
        warnings += [_relabel(w, first - 1) for w in result.warnings]
        used.update(result.used_names)
        if result.code is not None:
            codes.append(_shift(result.code, first - 1 - (1 if future else 0)))
    ok = not errors
    return CompileResult(ok, None, tuple(errors), tuple(warnings), tuple(sorted(used))), tuple(codes) if ok else ()


def _whole(source: str, filename: str, policy: type[ArtifactPolicy]) -> Compiled:
    result = compile_artifact(source, filename, policy)
    return result, (result.code,) if result.code is not None else ()


def check_compiles(source: str, filename: str, policy: type[ArtifactPolicy] = ArtifactPolicy) -> CompileResult:
    """Whether `source` compiles under the policy, with `compile_artifact`'s errors and warnings but no code:
    what a caller that only checks a patch needs (the worker compiles what it runs), at the cost of the
    statements it has not seen before."""
    return compile_incremental(source, filename, policy)[0]
