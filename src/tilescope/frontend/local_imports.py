"""Imports of the user's own modules, read from source as the importing file is.

Kernels call helpers from sibling files (`from .gelu import gelu_forward_ct`, TileGym; `from
cutile.ops.utils import next_power_of_2`): the named file is found next to the importing one (a
relative import) or under one of its parent folders (an absolute one), read with the same static
reader, and the name taken from its globals. Nothing is imported or run; a name the reader does
not find stays an unknown value.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, Optional, Tuple

MAX_DEPTH = 3                # files read through chains of imports
MAX_BYTES = 2 << 20          # larger files are not kernel helpers
_PARENTS = 6                 # folders searched upwards for an absolute import
_CACHE: Dict[Tuple[str, int, int], Any] = {}    # (path, mtime, size) -> its StaticModule
_CACHE_LIMIT = 64


def module_file(importer: str, module: str, level: int) -> Optional[str]:
    """The .py file `from {'.' * level}{module} import ...` in `importer` names, if there is one."""
    if not importer or not os.path.isfile(importer):
        return None
    parts = [p for p in module.split(".") if p]
    here = os.path.dirname(os.path.abspath(importer))
    if level:
        for _ in range(level - 1):
            here = os.path.dirname(here)
        roots = [here]
    elif parts:
        roots = [here]
        for _ in range(_PARENTS):
            parent = os.path.dirname(roots[-1])
            if parent == roots[-1]:
                break
            roots.append(parent)
    else:
        return None
    for root in roots:
        base = os.path.join(root, *parts)
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(path) and os.path.abspath(path) != os.path.abspath(importer):
                return path
    return None


def read_module(path: str, depth: int, analyze: Callable[..., Any]) -> Optional[Any]:
    """The static module of `path` (cached while the file is unchanged), or None."""
    if depth > MAX_DEPTH:
        return None
    try:
        st = os.stat(path)
        if st.st_size > MAX_BYTES:
            return None
        key = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
        if key in _CACHE:
            return _CACHE[key]
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    module = analyze(text.lstrip("\ufeff"), path, depth=depth)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = module
    return module
