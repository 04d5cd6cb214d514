"""What artifact code may name: the importable modules with their allowed members, and the builtins."""

from __future__ import annotations

GRID_MODULE_MEMBERS: tuple[str, ...] = (
    "bbox", "cells", "colors", "components", "copy", "count", "crop", "diff", "equal",
    "fill_rect", "full", "paint", "replace", "shift", "zeros",
)

ALLOWED_MODULES: dict[str, tuple[str, ...]] = {
    "math": (
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "comb", "copysign",
        "cos", "cosh", "degrees", "dist", "e", "exp", "exp2", "expm1", "fabs", "factorial", "floor",
        "fmod", "frexp", "fsum", "gcd", "hypot", "inf", "isclose", "isfinite", "isinf", "isnan",
        "isqrt", "lcm", "ldexp", "lgamma", "log", "log10", "log1p", "log2", "modf", "nan", "nextafter",
        "perm", "pi", "pow", "prod", "radians", "remainder", "sin", "sinh", "sqrt", "sumprod", "tan",
        "tanh", "tau", "trunc", "ulp",
    ),
    "itertools": (
        "accumulate", "batched", "chain", "combinations", "combinations_with_replacement", "compress",
        "count", "cycle", "dropwhile", "filterfalse", "groupby", "islice", "pairwise", "permutations",
        "product", "repeat", "starmap", "takewhile", "zip_longest",
    ),
    "collections": ("ChainMap", "Counter", "OrderedDict", "defaultdict", "deque"),
    "functools": ("cache", "cmp_to_key", "lru_cache", "partial", "reduce"),
    "grid": GRID_MODULE_MEMBERS,
}
"""Module name -> the only members artifact code can reach through it."""

FUTURE_FEATURES: frozenset[str] = frozenset({"annotations"})
"""`from __future__ import ...` features an artifact may enable."""

SAFE_BUILTIN_NAMES: frozenset[str] = frozenset({
    "abs", "all", "any", "bin", "bool", "callable", "chr", "dict", "divmod", "enumerate", "filter",
    "float", "frozenset", "hash", "hex", "int", "isinstance", "issubclass", "iter", "len", "list", "map",
    "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed", "round", "set", "slice",
    "sorted", "str", "sum", "tuple", "zip",
    "None", "True", "False", "Ellipsis", "NotImplemented",
    "ArithmeticError", "AssertionError", "AttributeError", "Exception", "IndexError", "KeyError",
    "LookupError", "NameError", "NotImplementedError", "OverflowError", "RuntimeError", "StopIteration",
    "TypeError", "ValueError", "ZeroDivisionError",
})
"""Builtins an artifact sees (plus `print`, which is routed to a capped collector)."""

FORBIDDEN_BUILTINS: frozenset[str] = frozenset({
    "breakpoint", "bytearray", "bytes", "classmethod", "compile", "delattr", "dir", "eval", "exec",
    "exit", "getattr", "globals", "hasattr", "help", "input", "locals", "memoryview", "object", "open",
    "property", "quit", "setattr", "staticmethod", "super", "type", "vars",
})
"""Builtins that give dynamic code, introspection or I/O; naming one without defining it is a compile error."""

GUARD_NAMES: frozenset[str] = frozenset({"print", "printed"})
"""Names the restricting compiler rewrites (print goes to the capped collector)."""
