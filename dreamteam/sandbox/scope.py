"""Scope check: a patch to a surface may define only the top-level names that surface owns."""

from __future__ import annotations

import ast
import functools
from collections.abc import Collection, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScopeError:
    """One scope violation: the offending name (may be empty) and a message naming it and its line."""

    line: int
    name: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class _Rules:
    owned: frozenset[str]
    helper_prefixes: tuple[str, ...]
    surface: str

    def allows(self, name: str) -> bool:
        return name in self.owned or any(name.startswith(p) and len(name) > len(p) for p in self.helper_prefixes)

    def refusal(self, line: int, name: str, what: str = "a name") -> ScopeError:
        owned = ", ".join(sorted(self.owned)) or "nothing"
        helpers = " or ".join(f"'{p}'" for p in self.helper_prefixes)
        hint = f"; helper names must start with {helpers}" if helpers else ""
        message = f"line {line}: '{name}' is not {what} the {self.surface} surface owns (owned: {owned}{hint})"
        return ScopeError(line, name, message)


def check_scope(
    source: str,
    owned: Collection[str],
    helper_prefixes: Collection[str] = (),
    *,
    surface: str = "this",
) -> list[ScopeError]:
    """List the top-level names `source` defines outside `owned` (and the helper prefixes); [] when in scope.

    Top-level statements may only be imports, function definitions, assignments to names, and docstrings;
    imports may bind only the module or member name itself (no aliases outside the owned names);
    `global` declarations inside functions follow the same ownership rule.
    """
    return list(_checked(source, frozenset(owned), tuple(helper_prefixes), surface))


@functools.lru_cache(maxsize=16)
def _checked(source: str, owned: frozenset[str], helper_prefixes: tuple[str, ...], surface: str,
             ) -> tuple[ScopeError, ...]:
    """`check_scope`, remembered for the last sources (the harness checks a patch, then loads it)."""
    return tuple(_check(source, owned, helper_prefixes, surface))


def _check(source: str, owned: frozenset[str], helper_prefixes: tuple[str, ...], surface: str) -> list[ScopeError]:
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [ScopeError(exc.lineno or 0, "", f"line {exc.lineno or '?'}: syntax error: {exc.msg}")]
    except (ValueError, RecursionError, MemoryError) as exc:
        return [ScopeError(0, "", f"line 1: cannot parse: {type(exc).__name__}: {exc}")]
    rules = _Rules(frozenset(owned), tuple(helper_prefixes), surface)
    errors = [error for statement in tree.body for error in _check_statement(statement, rules)]
    errors.extend(_check_globals(tree, rules))
    return sorted(errors, key=lambda e: e.line)


def _check_statement(node: ast.stmt, rules: _Rules) -> Iterator[ScopeError]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        if not rules.allows(node.name):
            yield rules.refusal(node.lineno, node.name)
    elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets: list[ast.expr] = list(node.targets) if isinstance(node, ast.Assign) else [node.target]
        yield from _check_targets(node.lineno, targets, rules)
    elif isinstance(node, ast.Import | ast.ImportFrom):
        yield from _check_import(node, rules)
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        return
    else:
        kind = type(node).__name__
        yield ScopeError(
            node.lineno,
            "",
            f"line {node.lineno}: a top-level {kind} statement is not allowed "
            "(only imports, function definitions, assignments and docstrings)",
        )


def _check_targets(line: int, targets: list[ast.expr], rules: _Rules) -> Iterator[ScopeError]:
    for target in targets:
        if isinstance(target, ast.Tuple | ast.List):
            yield from _check_targets(line, list(target.elts), rules)
        elif isinstance(target, ast.Starred):
            yield from _check_targets(line, [target.value], rules)
        elif isinstance(target, ast.Name):
            if not rules.allows(target.id):
                yield rules.refusal(line, target.id)
        else:
            text = ast.unparse(target)
            yield ScopeError(line, text, f"line {line}: top-level assignments may only bind names, not '{text}'")


def _check_import(node: ast.Import | ast.ImportFrom, rules: _Rules) -> Iterator[ScopeError]:
    for alias in node.names:
        if alias.asname is None or alias.asname == alias.name.split(".")[-1]:
            continue
        if not rules.allows(alias.asname):
            yield rules.refusal(node.lineno, alias.asname, what="an import alias")


def _check_globals(tree: ast.Module, rules: _Rules) -> Iterator[ScopeError]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            for name in node.names:
                if not rules.allows(name):
                    yield rules.refusal(node.lineno, name, what="a global")
