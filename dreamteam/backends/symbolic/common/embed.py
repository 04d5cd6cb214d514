"""Copy `lib_*` helper functions into artifact source under a surface's helper prefix (and write values as literals).

The helpers live as ordinary typed functions in `artifact_lib` and `artifact_dyn` (so they are linted,
type-checked and unit-tested); an artifact gets the ones it calls, with their `lib_` dependencies,
renamed to `obs_` / `dyn_` / `strat_` and with annotations removed (artifacts cannot import `typing`).
"""

from __future__ import annotations

import ast
import functools
import inspect
import pprint
from collections.abc import Iterable
from typing import Any

from dreamteam.backends.symbolic.common import artifact_dyn, artifact_layer, artifact_lib

LIB_PREFIX = "lib_"


@functools.cache
def _library() -> dict[str, ast.FunctionDef]:
    """Every lib_ function definition of the helper modules, by name."""
    found: dict[str, ast.FunctionDef] = {}
    for module in (artifact_lib, artifact_dyn, artifact_layer):
        tree = ast.parse(inspect.getsource(module))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith(LIB_PREFIX):
                found[node.name] = node
    return found


def _called_helpers(node: ast.FunctionDef) -> set[str]:
    """The lib_ names a function refers to."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id.startswith(LIB_PREFIX)}


def helper_closure(names: Iterable[str]) -> list[str]:
    """`names` plus every lib_ helper they need, in the library's definition order."""
    library = _library()
    wanted: set[str] = set()
    todo = [n if n.startswith(LIB_PREFIX) else LIB_PREFIX + n for n in names]
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        if name not in library:
            raise KeyError(f"no helper {name!r} in the symbolic artifact library")
        wanted.add(name)
        todo.extend(_called_helpers(library[name]) - wanted)
    return [name for name in library if name in wanted]


class _Renamer(ast.NodeTransformer):
    """Renames lib_ names to the artifact prefix and drops annotations."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def rename(self, name: str) -> str:
        """`lib_x` -> `<prefix>x`; other names unchanged."""
        return self.prefix + name[len(LIB_PREFIX) :] if name.startswith(LIB_PREFIX) else name

    def visit_Name(self, node: ast.Name) -> ast.Name:
        """Rename a helper reference."""
        node.id = self.rename(node.id)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt | None:
        """`x: T = v` -> `x = v` (artifacts cannot name typing's types)."""
        if node.value is None:
            return None
        assign = ast.Assign(targets=[node.target], value=node.value)
        return self.visit(ast.copy_location(assign, node))  # type: ignore[no-any-return]

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        """Rename the function and drop its annotations."""
        node.name = self.rename(node.name)
        node.returns = None
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            arg.annotation = None
        self.generic_visit(node)
        return node


def helper_source(names: Iterable[str], prefix: str) -> str:
    """Source text of the helpers `names` (and their dependencies) renamed to `prefix`."""
    return _helper_source(tuple(names), prefix)


@functools.cache
def _helper_source(names: tuple[str, ...], prefix: str) -> str:
    renamer = _Renamer(prefix)
    chunks = []
    for name in helper_closure(names):
        node = renamer.visit(ast.parse(ast.unparse(_library()[name])).body[0])
        chunks.append(ast.unparse(node))
    return "\n\n\n".join(chunks) + "\n"


def helper_name(name: str, prefix: str) -> str:
    """The artifact name of helper `name` (with or without its lib_ prefix)."""
    bare = name[len(LIB_PREFIX) :] if name.startswith(LIB_PREFIX) else name
    return prefix + bare


def literal(value: Any) -> str:
    """A Python literal for a JSON-like value, wrapped for reading."""
    return pprint.pformat(value, width=110, sort_dicts=False)
