"""Hostile dynamics artifacts and the exact reason each must be refused with.

stage "scope":   the first scope-check message
stage "compile": the first compile error (the scope check passes)
stage "load":    "<kind>: <reason>" of loading it into the worker
stage "call":    "<kind>: <reason>" of calling predict(*args) (default args: {}, {}, {"action": "ACTION1"})

Runtime rows run with the corpus limits in test_escape_corpus.py (time 0.5 s, 320 MiB, 64 KiB print,
1 MiB result).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

ALLOWED = "collections, functools, grid, itertools, math"
OWNED = "owned: HYPOTHESES, history, predict; helper names must start with 'dyn_'"
NOT_AVAILABLE = "is not available in artifacts (no dynamic code, introspection or I/O)"


@dataclass(frozen=True)
class Hostile:
    id: str
    stage: str
    source: str
    reason: str
    args: tuple[Any, ...] | None = None


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def _predict(body: str) -> str:
    return "def predict(z, h, a):\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


CORPUS: list[Hostile] = [
    # --- imports in every spelling ---
    Hostile("import-os", "compile", "import os\n", f"line 1: import of 'os' is not allowed (allowed modules: {ALLOWED})"),
    Hostile("import-alias", "compile", "import subprocess as dyn_sp\n",
            f"line 1: import of 'subprocess' is not allowed (allowed modules: {ALLOWED})"),
    Hostile("from-import", "compile", "from os import system\n",
            f"line 1: import of 'os' is not allowed (allowed modules: {ALLOWED})"),
    Hostile("import-dotted", "compile", "import os.path\n",
            f"line 1: import of 'os.path' is not allowed (allowed modules: {ALLOWED})"),
    Hostile("importlib", "compile", "import importlib\n",
            f"line 1: import of 'importlib' is not allowed (allowed modules: {ALLOWED})"),
    Hostile("dunder-import", "compile", _predict("return __import__('os')"),
            'line 2: "__import__" is an invalid variable name because it starts with "_"'),
    Hostile("import-in-function", "compile", _predict("import sys\nreturn sys.modules"),
            f"line 2: import of 'sys' is not allowed (allowed modules: {ALLOWED})"),
    Hostile("member-not-allowed", "compile", "from collections import namedtuple\n",
            "line 1: 'namedtuple' is not an allowed name of module 'collections' "
            "(allowed: ChainMap, Counter, OrderedDict, defaultdict, deque)"),
    Hostile("star-import", "compile", "from math import *\n", 'line 1: "*" imports are not allowed.'),
    Hostile("relative-import", "compile", "from . import observable\n", "line 1: relative imports are not allowed"),
    Hostile("future-feature", "compile", "from __future__ import barry_as_FLUFL\n",
            "line 1: 'from __future__ import barry_as_FLUFL' is not allowed"),
    Hostile("facade-member", "call", "import functools\n\n" + _predict("return functools.sys"),
            "error: AttributeError: module 'functools' has no allowed member 'sys' (dynamics.py line 4)"),
    Hostile("grid-numpy", "call", "import grid\n\n" + _predict("return grid.np"),
            "error: AttributeError: module 'grid' has no allowed member 'np' (dynamics.py line 4)"),
    # --- attribute walks ---
    Hostile("subclasses", "compile", _predict("return ().__class__.__bases__[0].__subclasses__()"),
            'line 2: "__subclasses__" is an invalid attribute name because it starts with "_".'),
    Hostile("func-globals", "compile", _predict("return predict.__globals__"),
            'line 2: "__globals__" is an invalid attribute name because it starts with "_".'),
    Hostile("builtins-name", "compile", _predict("return __builtins__"),
            'line 2: "__builtins__" is an invalid variable name because it starts with "_"'),
    Hostile("generator-frame", "compile", _predict("g = (i for i in [])\nreturn g.gi_frame.f_back"),
            'line 3: "f_back" is a restricted name, that is forbidden to access in RestrictedPython.'),
    Hostile("generator-code", "compile", _predict("g = (i for i in [])\nreturn g.gi_code"),
            'line 3: "gi_code" is a restricted name, that is forbidden to access in RestrictedPython.'),
    Hostile("traceback-frame", "compile",
            _predict("try:\n    1 / 0\nexcept Exception as e:\n    return e.__traceback__.tb_frame"),
            'line 5: "tb_frame" is a restricted name, that is forbidden to access in RestrictedPython.'),
    Hostile("exception-context", "compile",
            _predict("try:\n    1 / 0\nexcept Exception as e:\n    return e.__context__"),
            'line 5: "__context__" is an invalid attribute name because it starts with "_".'),
    Hostile("format-literal", "compile", _predict("return '{0.__class__}'.format(z)"),
            "line 2: str.format is not allowed (format fields can reach attributes); use an f-string"),
    Hostile("format-variable", "call", _predict("s = '{0.__class__.__mro__}'\nreturn s.format(z)"),
            "error: AttributeError: str.format is not allowed (format fields can reach attributes); "
            "use an f-string (dynamics.py line 3)"),
    Hostile("format-map", "call", _predict("s = '{x}'\nreturn s.format_map({'x': z})"),
            "error: AttributeError: str.format_map is not allowed (format fields can reach attributes); "
            "use an f-string (dynamics.py line 3)"),
    Hostile("format-unbound", "call", _predict("f = str.format\nreturn f('{0.__class__}', z)"),
            "error: AttributeError: str.format is not allowed (format fields can reach attributes); "
            "use an f-string (dynamics.py line 2)"),
    Hostile("fstring-dunder", "compile", _predict("return f'{z.__class__}'"),
            'line 2: "__class__" is an invalid attribute name because it starts with "_".'),
    # --- builtins ---
    Hostile("eval", "compile", _predict("return eval('1')"), "line 2: Eval calls are not allowed."),
    Hostile("exec", "compile", _predict("exec('x = 1')"), "line 2: Exec calls are not allowed."),
    Hostile("compile", "compile", _predict("return compile('1', 'f', 'eval')"), f"line 2: 'compile' {NOT_AVAILABLE}"),
    Hostile("open", "compile", _predict("return open('/etc/passwd').read()"), f"line 2: 'open' {NOT_AVAILABLE}"),
    Hostile("getattr", "compile", _predict("return getattr(z, '__class__')"), f"line 2: 'getattr' {NOT_AVAILABLE}"),
    Hostile("globals", "compile", _predict("return globals()"), f"line 2: 'globals' {NOT_AVAILABLE}"),
    Hostile("vars", "compile", _predict("return vars()"), f"line 2: 'vars' {NOT_AVAILABLE}"),
    Hostile("type-three-arg", "compile", _predict("return type('X', (), {})"), f"line 2: 'type' {NOT_AVAILABLE}"),
    Hostile("object-base", "compile", _predict("return object"), f"line 2: 'object' {NOT_AVAILABLE}"),
    Hostile("shadow-builtin", "scope", "len = lambda x: 0\n", f"line 1: 'len' is not a name the dynamics surface owns ({OWNED})"),
    Hostile("shadow-print", "compile", _predict("print = 1\nreturn print"), 'line 2: "print" is a reserved name.'),
    Hostile("undefined-exit", "compile", _predict("raise SystemExit"), "line 2: name 'SystemExit' is not defined"),
    # --- classes, decorators, lambdas ---
    Hostile("class-in-function", "compile", _predict("class Evil:\n    pass\nreturn Evil"),
            "line 2: class definitions are not allowed in artifacts (use dicts and functions)"),
    Hostile("metaclass", "compile", _predict("class Evil(metaclass=dict):\n    pass"),
            "line 2: class definitions are not allowed in artifacts (use dicts and functions)"),
    Hostile("top-level-class", "scope", "class predict:\n    pass\n",
            "line 1: a top-level ClassDef statement is not allowed (only imports, function definitions, assignments and docstrings)"),
    Hostile("decorator-globals", "compile",
            "def dyn_grab(f):\n    return f.__globals__\n\n\n@dyn_grab\n" + _predict("return 1"),
            'line 2: "__globals__" is an invalid attribute name because it starts with "_".'),
    Hostile("decorator-builtin", "compile", "@staticmethod\n" + _predict("return 1"), f"line 1: 'staticmethod' {NOT_AVAILABLE}"),
    Hostile("lambda-default", "compile", "dyn_f = lambda x=__import__: x\n",
            'line 1: "__import__" is an invalid variable name because it starts with "_"'),
    Hostile("async", "compile", "async def predict(z, h, a):\n    return z\n", "line 1: AsyncFunctionDef statements are not allowed."),
    Hostile("nonlocal", "compile", _predict("x = 1\ndef inner():\n    nonlocal x\n    x = 2\nreturn x"),
            "line 4: Nonlocal statements are not allowed."),
    Hostile("try-star", "compile", _predict("try:\n    pass\nexcept* ValueError:\n    pass"), "line 2: TryStar statements are not allowed."),
    # --- resource abuse (runtime) ---
    Hostile("while-true", "call", _predict("while True:\n    pass"), "killed: timeout after 0.5s"),
    Hostile("swallow-deadline", "call",
            _predict("while True:\n    try:\n        while True:\n            pass\n    except:\n        pass"),
            "killed: timeout after 0.5s"),
    Hostile("long-comprehension", "call", _predict("return sum(i for i in range(10 ** 12))"), "killed: timeout after 0.5s"),
    Hostile("power-bomb", "call", _predict("return pow(7, 10 ** 9) % 10"), "killed: timeout after 0.5s"),
    Hostile("top-level-loop", "load", "import itertools\n\nHYPOTHESES = sum(1 for _ in itertools.count())\n",
            "killed: timeout after 0.5s"),
    Hostile("deep-recursion", "call", "def dyn_down(n):\n    return dyn_down(n + 1)\n\n\n" + _predict("return dyn_down(0)"),
            "killed: recursion limit"),
    Hostile("memory-at-once", "call", _predict("return len('x' * (10 ** 10))"), "killed: memory limit"),
    Hostile("memory-growing", "call", _predict("hoard = []\nwhile True:\n    hoard.append([len(hoard)] * 10 ** 6)"),
            "killed: memory limit"),
    Hostile("huge-print", "call", _predict("for i in range(10 ** 6):\n    print('x' * 100)"), "killed: output limit"),
    Hostile("swallowed-print-limit", "call",
            _predict("try:\n    print('x' * 10 ** 6)\nexcept:\n    pass\nreturn 1"), "killed: output limit"),
    Hostile("huge-result", "call", _predict("return 'x' * (2 * 1024 * 1024)"), "killed: output limit"),
    # --- writes outside the artifact ---
    Hostile("foreign-top-level", "scope", "ENTITY_TYPES = {}\n",
            f"line 1: 'ENTITY_TYPES' is not a name the dynamics surface owns ({OWNED})"),
    Hostile("foreign-global", "scope", _predict("global ENTITY_TYPES\nENTITY_TYPES = {}"),
            f"line 2: 'ENTITY_TYPES' is not a global the dynamics surface owns ({OWNED})"),
    Hostile("top-level-subscript", "scope", "HYPOTHESES = []\nHYPOTHESES[0:0] = [1]\n",
            "line 2: top-level assignments may only bind names, not 'HYPOTHESES[0:0]'"),
    Hostile("top-level-call", "scope", "predict(1, 2, 3)\n",
            "line 1: a top-level Expr statement is not allowed (only imports, function definitions, assignments and docstrings)"),
    Hostile("module-write", "call", "import math\n\n" + _predict("math.pi = 3\nreturn math.pi"),
            "error: TypeError: artifacts cannot modify ModuleFacade objects (dynamics.py line 4)"),
    Hostile("function-attribute", "call", _predict("predict.cache = {}\nreturn 1"),
            "error: TypeError: artifacts cannot modify function objects (dynamics.py line 2)"),
    Hostile("frame-write", "call", _predict("z[0][0] = 1\nreturn 1"),
            "error: TypeError: artifacts cannot modify tuple objects (dynamics.py line 2)",
            args=({"$grid": ["01", "23"]}, {}, {"action": "ACTION1"})),
    Hostile("frame-row-replace", "call", _predict("z[0] = (1, 1)\nreturn 1"),
            "error: TypeError: artifacts cannot modify Grid objects (dynamics.py line 2)",
            args=({"$grid": ["01", "23"]}, {}, {"action": "ACTION1"})),
    Hostile("syntax", "scope", "def predict(z, h, a)\n    return z\n", "line 1: syntax error: expected ':'"),
]
