"""Debug scopes of the `Tile` methods cuTile writes in Python.

cuTile defines a few `Tile` methods (`reshape`, `astype`, `extract`...) as ordinary Python in its
`cuda/tile/_stub.py`, each a one-line call of the function of the same name, and its compiler
inlines them like any helper: their ops carry an inlined scope naming that file, the method's
`def` and the call inside it, and take an inlining number. When cuda-tile is installed, tilescope
names the same place, read from the file's source (never imported), so debug info, and with it
the cubin's line table, matches upstream's. Without cuda-tile there is no such file to name.
"""
from __future__ import annotations

import ast
import functools
import importlib.machinery
import os
from typing import Dict, Optional, Tuple

from ...errors import InlinedScope, Loc

# method -> (its `def` line and 1-based column, the line and 1-based column of the call it makes)
_Places = Dict[str, Tuple[int, int, int, int]]


@functools.lru_cache(maxsize=1)
def _stub_file() -> Optional[str]:
    """cuda-tile's `_stub.py`, found on the path directly (not through tilescope's `cuda.tile`
    import hook, which stands in for a missing cuda-tile)."""
    try:
        spec = importlib.machinery.PathFinder.find_spec("cuda")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = os.path.join(folder, "tile", "_stub.py")
        if os.path.isfile(path):
            return path
    return None


@functools.lru_cache(maxsize=4)
def _python_methods(path: str) -> _Places:
    """The undecorated, non-dunder methods of class `Tile` whose body returns one call."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return {}
    places: _Places = {}
    for cls in tree.body:
        if not (isinstance(cls, ast.ClassDef) and cls.name == "Tile"):
            continue
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or fn.name.startswith("__"):
                continue
            body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Call):
                call = body[0].value
                places[fn.name] = (fn.lineno, fn.col_offset + 1, call.lineno, call.col_offset + 1)
    return places


def tile_method_loc(name: str, call_loc: Optional[Loc], number) -> Optional[Loc]:
    """Where the ops of `Tile.<name>` are, as cuTile's inlining places them (inside its method,
    called from `call_loc`), taking the next inlining number; None when the method is not one
    cuTile writes in Python or cuda-tile is not installed."""
    path = _stub_file()
    if path is None or call_loc is None:
        return None
    place = _python_methods(path).get(name)
    if place is None:
        return None
    def_line, def_col, line, col = place
    scope = InlinedScope(name, path, def_line, def_col, f"s{next(number)}")
    return Loc(path, line, col, call_site=call_loc, scope=scope)
