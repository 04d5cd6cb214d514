"""What in-process artifact code runs with beyond the worker's guards (see `inprocess.py`).

- `GuardedPolicy`: the artifact policy plus a `_check_()` call opening every except handler and finally block,
  `a ** b` rewritten to `_pow_(a, b)`, and reads of ordinary attributes and of items left native (the worker's
  guards for them are plain `getattr` and `operator.getitem`, so only the cost of a call per access goes);
- stand-ins for what would otherwise run in C, out of the watchdog's reach: `range` (capped), `iter` (no
  sentinel form), `pow` / `**` (capped integer size), an itertools whose items pass through Python code.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from typing import Any

from RestrictedPython.transformer import INSPECT_ATTRIBUTES

from dreamteam.sandbox.guards import FACADES, ModuleFacade, PrintSink, artifact_globals, guarded_inplace
from dreamteam.sandbox.limits import LimitExceeded
from dreamteam.sandbox.policy import ArtifactPolicy
from dreamteam.sandbox.watchdog import WATCHDOG, ArtifactInterrupt

MAX_POWER_BITS = 1 << 22
"""Largest integer power (in bits) in-process artifact code may compute: big-integer arithmetic runs in C,
where the watchdog cannot interrupt it (`pow(7, 10 ** 9)` would run for minutes)."""
MAX_RANGE = 50_000_000
"""Longest `range` in-process artifact code may make: C code consuming one (`sum(range(n))`) cannot be
interrupted, so its length bounds the time."""
STOPS = (ArtifactInterrupt, MemoryError, RecursionError, LimitExceeded)
"""What `_check_` does not let artifact code swallow."""


class GuardedPolicy(ArtifactPolicy):
    """The artifact policy plus a `_check_()` call opening every except handler and finally block."""

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        """Handlers first re-raise what must end the call."""
        visited = super().visit_ExceptHandler(node)
        assert isinstance(visited, ast.ExceptHandler)
        visited.body.insert(0, _check_call(visited))
        return visited

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        """Reading an ordinary attribute stays native: for such a name `_getattr_` is plain `getattr` (it refuses
        only underscore, frame/code and `format` names), and a guard call per access would slow rollouts."""
        if isinstance(node.ctx, ast.Load) and _plain_attribute(node.attr):
            return self.node_contents_visit(node)  # type: ignore[no-any-return]
        return super().visit_Attribute(node)  # type: ignore[no-any-return]

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        """Reading an item stays native (`_getitem_` is `operator.getitem`); writes still go through `_write_`."""
        if isinstance(node.ctx, ast.Load):
            return self.node_contents_visit(node)  # type: ignore[no-any-return]
        visited = super().visit_Subscript(node)
        assert isinstance(visited, ast.AST)
        return visited

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        """`a ** b` becomes `_pow_(a, b)` (big-integer powers run in C, beyond the watchdog)."""
        visited = super().visit_BinOp(node)
        if isinstance(visited, ast.BinOp) and isinstance(visited.op, ast.Pow):
            call = ast.Call(ast.Name("_pow_", ast.Load()), [visited.left, visited.right], [])
            return ast.fix_missing_locations(ast.copy_location(call, visited))
        assert isinstance(visited, ast.AST)
        return visited

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST | list[ast.stmt]:
        """`x **= y` becomes `x = _pow_(x, y)` (item targets go through `_inplacevar_`)."""
        if isinstance(node.target, ast.Name) and isinstance(node.op, ast.Pow):
            power = ast.BinOp(ast.Name(node.target.id, ast.Load()), ast.Pow(), node.value)
            assign = ast.Assign([ast.Name(node.target.id, ast.Store())], ast.copy_location(power, node))
            visited = self.visit(ast.fix_missing_locations(ast.copy_location(assign, node)))
            assert isinstance(visited, ast.Assign)
            return visited
        return super().visit_AugAssign(node)

    def visit_Try(self, node: ast.Try) -> ast.AST:
        """`finally` blocks too (a `return` or `continue` there would drop the exception)."""
        visited = super().visit_Try(node)
        assert isinstance(visited, ast.Try)
        if visited.finalbody:
            visited.finalbody.insert(0, _check_call(visited.finalbody[0]))
        return visited


def _plain_attribute(name: str) -> bool:
    return not name.startswith("_") and name not in INSPECT_ATTRIBUTES and name not in ("format", "format_map") \
        and not name.endswith("__roles__")


def _check_call(where: ast.AST) -> ast.stmt:
    statement = ast.Expr(ast.Call(ast.Name("_check_", ast.Load()), [], []))
    return ast.fix_missing_locations(ast.copy_location(statement, where))


def _check() -> None:
    """What `_check_()` does: re-raise a limit hit the artifact caught, or an interrupt past the deadline."""
    current = sys.exc_info()[1]
    if isinstance(current, STOPS):
        raise current
    if WATCHDOG.expired():
        raise ArtifactInterrupt


def _range(*args: Any) -> range:
    """`range` with at most MAX_RANGE items."""
    made = range(*args)
    if len(made) > MAX_RANGE:
        raise LimitExceeded(f"range limit ({len(made)} items; at most {MAX_RANGE})")
    return made


def _pow(base: Any, exponent: Any, modulus: Any = None) -> Any:
    """`pow` and `**` with integer results of at most MAX_POWER_BITS bits."""
    if (modulus is None and type(base) is int and type(exponent) is int and exponent > 0 and abs(base) > 1
            and base.bit_length() * exponent > MAX_POWER_BITS):
        raise LimitExceeded(f"power limit (about {base.bit_length() * exponent} bits; at most {MAX_POWER_BITS})")
    return pow(base, exponent) if modulus is None else pow(base, exponent, modulus)


def _inplace(op: str, target: Any, value: Any) -> Any:
    """The worker's `x[k] op= v` helper, with `**=` through `_pow`."""
    return _pow(target, value) if op == "**=" else guarded_inplace(op, target, value)


def _iter(obj: Any, *sentinel: Any) -> Any:
    """`iter(obj)`; the two-argument form (an endless loop in C) is refused."""
    if sentinel:
        raise TypeError("iter(callable, sentinel) is not available in artifacts")
    return iter(obj)


def _interruptible(make: Callable[..., Any]) -> Callable[..., Any]:
    """An itertools function whose items pass through Python code, where the watchdog can stop it
    (`sum(itertools.count())` would otherwise loop in C, out of reach)."""

    def items(*args: Any, **kwargs: Any) -> Any:
        for item in make(*args, **kwargs):  # noqa: UP028 - `yield from` would iterate in C, out of reach
            yield item

    return items


def _itertools_facade() -> ModuleFacade:
    members = FACADES["itertools"]._members  # noqa: SLF001 - the facade's own table, read once
    return ModuleFacade("itertools", {name: _interruptible(f) for name, f in members.items()})


_FACADES = {**FACADES, "itertools": _itertools_facade()}


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> ModuleFacade:
    """The worker's `__import__`, with the interruptible itertools."""
    facade = _FACADES.get(name)
    if facade is None or level != 0:
        raise ImportError(f"import of '{name}' is not allowed")
    return facade


def guarded_globals(module_name: str, sink: PrintSink) -> dict[str, Any]:
    """The worker's `artifact_globals` plus `_check_` and the in-process stand-ins (range, iter, itertools)."""
    namespace = artifact_globals(module_name, sink)
    table = namespace["__builtins__"]
    table.update({"range": _range, "iter": _iter, "pow": _pow, "__import__": _import})
    namespace.update({"_check_": _check, "_pow_": _pow, "_inplacevar_": _inplace})
    return namespace
