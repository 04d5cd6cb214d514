"""The project's RestrictedPython policy and `compile_artifact`, which returns errors as data."""

from __future__ import annotations

import ast
import types
from dataclasses import dataclass

from RestrictedPython.compile import compile_restricted_exec
from RestrictedPython.transformer import IOPERATOR_TO_STR, RestrictingNodeTransformer

from dreamteam.sandbox.allowlist import (
    ALLOWED_MODULES,
    FORBIDDEN_BUILTINS,
    FUTURE_FEATURES,
    GUARD_NAMES,
    SAFE_BUILTIN_NAMES,
)

MAX_SOURCE_CHARS = 400_000
"""Longest artifact source accepted (larger ones are rejected before parsing)."""

_ALLOWED_LIST = ", ".join(sorted(ALLOWED_MODULES))


@dataclass(frozen=True, slots=True)
class CompileResult:
    """Outcome of compiling an artifact: the code object when ok, else the reasons."""

    ok: bool
    code: types.CodeType | None
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    used_names: tuple[str, ...]


def bound_names(tree: ast.AST) -> frozenset[str]:
    """Every name the module binds anywhere (assignments, defs, arguments, imports, except targets)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            found.update(node.names)
    return frozenset(found)


class ArtifactPolicy(RestrictingNodeTransformer):
    """RestrictedPython's policy plus: an import allow-list, no classes, no unknown or unsafe builtins,
    no `str.format` on literals, and guarded `obj[key] op= value`."""

    bound: frozenset[str] = frozenset()
    preset: frozenset[str] | None = None
    """Names to count as bound instead of those the tree binds (set when a module is compiled statement by
    statement: see `incremental.py`)."""

    def error(self, node: ast.AST, info: str) -> None:
        """Record an error as 'line N: ...'."""
        self.errors.append(f"line {getattr(node, 'lineno', '?')}: {info}")

    def warn(self, node: ast.AST, info: str) -> None:
        """Record a warning as 'line N: ...'."""
        self.warnings.append(f"line {getattr(node, 'lineno', '?')}: {info}")

    def visit_Module(self, node: ast.Module) -> ast.AST:
        """Remember every bound name before the tree is rewritten."""
        self.bound = self.preset if self.preset is not None else bound_names(node)
        return super().visit_Module(node)  # type: ignore[return-value]

    def visit_Import(self, node: ast.Import) -> ast.AST:
        """Allow `import m` only for allow-listed modules."""
        for alias in node.names:
            if alias.name not in ALLOWED_MODULES:
                self.error(node, f"import of '{alias.name}' is not allowed (allowed modules: {_ALLOWED_LIST})")
        return self.check_import_names(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        """Allow `from m import name` only for allow-listed modules and members."""
        module = node.module or ""
        if node.level:
            self.error(node, "relative imports are not allowed")
        elif module == "__future__":
            for alias in node.names:
                if alias.name not in FUTURE_FEATURES:
                    self.error(node, f"'from __future__ import {alias.name}' is not allowed")
            return node
        elif module not in ALLOWED_MODULES:
            self.error(node, f"import of '{module}' is not allowed (allowed modules: {_ALLOWED_LIST})")
        else:
            members = ALLOWED_MODULES[module]
            for alias in node.names:
                if alias.name != "*" and alias.name not in members:
                    self.error(
                        node,
                        f"'{alias.name}' is not an allowed name of module '{module}' "
                        f"(allowed: {', '.join(members)})",
                    )
        return self.check_import_names(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        """Reject classes: artifacts use dicts and functions."""
        self.error(node, "class definitions are not allowed in artifacts (use dicts and functions)")
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        """Reject unsafe builtins and names that are defined nowhere."""
        name = node.id
        if isinstance(node.ctx, ast.Load) and name not in self.bound and not name.startswith("_"):
            if name in FORBIDDEN_BUILTINS:
                self.error(node, f"'{name}' is not available in artifacts (no dynamic code, introspection or I/O)")
            elif name not in SAFE_BUILTIN_NAMES and name not in GUARD_NAMES:
                self.error(node, f"name '{name}' is not defined")
        return super().visit_Name(node)  # type: ignore[return-value]

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        """Reject `'...'.format(...)` outright; the runtime guard catches it on variables."""
        value = node.value
        if node.attr in ("format", "format_map") and isinstance(value, ast.Constant) and isinstance(value.value, str):
            self.error(node, f"str.{node.attr} is not allowed (format fields can reach attributes); use an f-string")
        return super().visit_Attribute(node)  # type: ignore[return-value]

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST | list[ast.stmt]:
        """Allow `obj[key] op= value` through the guards; other targets as RestrictedPython does."""
        target = node.target
        if not isinstance(target, ast.Subscript):
            return super().visit_AugAssign(node)  # type: ignore[return-value]
        if any(isinstance(part, ast.Slice) for part in ast.walk(target.slice)):
            self.error(node, "augmented assignment to a slice is not allowed")
            return node
        return self._guarded_item_update(node, target)

    def _guarded_item_update(self, node: ast.AugAssign, target: ast.Subscript) -> list[ast.stmt]:
        # obj[key] op= v  ->  _tmpA = obj; _tmpB = key; _write_(_tmpA)[_tmpB] = _inplacevar_(op, _getitem_(_tmpA, _tmpB), v)
        obj_name, key_name = self.gen_tmp_name(), self.gen_tmp_name()
        obj_value = self.visit(target.value)
        key_value = self.visit(target.slice)
        new_value = self.visit(node.value)
        current = ast.Call(ast.Name("_getitem_", ast.Load()), [ast.Name(obj_name, ast.Load()), ast.Name(key_name, ast.Load())], [])
        updated = ast.Call(
            ast.Name("_inplacevar_", ast.Load()),
            [ast.Constant(IOPERATOR_TO_STR[type(node.op)]), current, new_value],
            [],
        )
        writable = ast.Call(ast.Name("_write_", ast.Load()), [ast.Name(obj_name, ast.Load())], [])
        statements: list[ast.stmt] = [
            ast.Assign([ast.Name(obj_name, ast.Store())], obj_value),
            ast.Assign([ast.Name(key_name, ast.Store())], key_value),
            ast.Assign([ast.Subscript(writable, ast.Name(key_name, ast.Load()), ast.Store())], updated),
        ]
        for statement in statements:
            ast.copy_location(statement, node)
            ast.fix_missing_locations(statement)
        return statements


def _syntax_error(exc: SyntaxError) -> str:
    return f"line {exc.lineno or '?'}: syntax error: {exc.msg}"


def compile_artifact(source: str, filename: str = "<artifact>",
                     policy: type[ArtifactPolicy] = ArtifactPolicy) -> CompileResult:
    """Compile artifact source under the project policy; errors come back as data, never raised."""
    if len(source) > MAX_SOURCE_CHARS:
        error = f"line 1: artifact source has {len(source)} characters; the limit is {MAX_SOURCE_CHARS}"
        return CompileResult(False, None, (error,), (), ())
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        return CompileResult(False, None, (_syntax_error(exc),), (), ())
    except (ValueError, RecursionError, MemoryError) as exc:
        return CompileResult(False, None, (f"line 1: cannot parse: {type(exc).__name__}: {exc}",), (), ())
    try:
        result = compile_restricted_exec(tree, filename, policy=policy)
    except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
        return CompileResult(False, None, (f"line 1: cannot compile: {type(exc).__name__}: {exc}",), (), ())
    errors = tuple(result.errors)
    return CompileResult(
        ok=not errors and result.code is not None,
        code=result.code if not errors else None,
        errors=errors,
        warnings=tuple(result.warnings),
        used_names=tuple(sorted(result.used_names)),
    )
