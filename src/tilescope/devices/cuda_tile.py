"""The import hook that makes `import cuda.tile as ct` (and its submodules) tilescope's.

A finder at the front of `sys.meta_path` answers every `cuda.tile...` name: the public
modules and the private ones public code imports (see ALIASES) are tilescope's modules
under upstream's names; any other `cuda.tile._x` is a clear ImportError. Nothing is imported
until the script imports it (this module needs only the standard library, so the start-up
hook stays cheap); `tilescope.lang.shim` builds the tools' scoped use on it.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from typing import Dict

# upstream module name -> the tilescope module that stands for it
ALIASES: Dict[str, str] = {
    "cuda.tile": "tilescope.lang",
    "cuda.tile.compilation": "tilescope.lang.compilation",
    "cuda.tile.tune": "tilescope.lang.tune",
    "cuda.tile.jax": "tilescope.lang.jax",
    "cuda.tile._datatype": "tilescope.lang.private._datatype",
    "cuda.tile._numeric_semantics": "tilescope.lang.private._numeric_semantics",
    "cuda.tile._memory_model": "tilescope.lang.private._memory_model",
    "cuda.tile._exception": "tilescope.lang.private._exception",
    "cuda.tile._cext": "tilescope.lang.private._cext",
    "cuda.tile._stub": "tilescope.lang.private._stub",
    "cuda.tile._execution": "tilescope.lang.private._execution",
    "cuda.tile._by_target": "tilescope.lang.private._by_target",
    "cuda.tile._context": "tilescope.lang.private._context",
    "cuda.tile._version": "tilescope.lang.private._version",
    "cuda.tile._compile": "tilescope.lang.private._compile",
    "cuda.tile._bytecode": "tilescope.lang.private._bytecode",
    "cuda.tile._bytecode.version": "tilescope.lang.private._bytecode.version",
}


def _is_ours(name: str) -> bool:
    return name == "cuda.tile" or name.startswith("cuda.tile.")


class _AliasLoader(importlib.abc.Loader):
    """Loads an upstream name as the tilescope module standing for it (the same object)."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        # The import system returns whatever sys.modules holds for the name afterwards.
        sys.modules[module.__name__] = importlib.import_module(self.target)


class _EmptyPackageLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__path__ = []


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "cuda":
            if _other_finders_find("cuda"):
                return None
            return importlib.machinery.ModuleSpec("cuda", _EmptyPackageLoader(), is_package=True)
        if not _is_ours(fullname):
            return None
        alias = ALIASES.get(fullname)
        if alias is None:
            raise ModuleNotFoundError(f"No module named '{fullname}': tilescope provides cuda.tile's public "
                                      f"modules and the private names public code imports, not this one",
                                      name=fullname)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(alias),
                                              is_package=any(k.startswith(fullname + ".") for k in ALIASES))


_FINDER = _Finder()


def _other_finders_find(name: str) -> bool:
    for finder in sys.meta_path:
        if finder is _FINDER or not hasattr(finder, "find_spec"):
            continue
        try:
            if finder.find_spec(name, None) is not None:
                return True
        except (ImportError, ValueError):
            continue
    return False


def upstream_available() -> bool:
    """True when a real cuda-tile package is importable (without importing it)."""
    mod = sys.modules.get("cuda.tile")
    if mod is not None:
        return not getattr(mod, "__tilescope__", False)
    if _FINDER in sys.meta_path:
        return False
    try:
        return importlib.util.find_spec("cuda.tile") is not None
    except (ImportError, ValueError):
        return False


def install() -> None:
    """Point `cuda.tile` at tilescope for the rest of the process. Modules of an upstream
    cuda-tile imported before are dropped, so later imports get tilescope's."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    stale = [n for n, m in sys.modules.items()
             if _is_ours(n) and m is not None and not m.__name__.startswith("tilescope.")]
    for name in stale:
        del sys.modules[name]
    if stale:
        importlib.import_module("cuda.tile")
