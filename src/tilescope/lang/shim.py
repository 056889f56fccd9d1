"""Make `import cuda.tile as ct` resolve to tilescope's surface.

Inside tilescope's tools a user's kernel file is imported unchanged; with the shim
active its `cuda.tile` is `tilescope.lang`. The previous `sys.modules` entries are
restored afterwards, so an installed upstream cuda-tile is left untouched.
"""
from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import types
from typing import Dict, Iterator, Optional

ALIASES = ("cuda.tile", "cuda.tile.compilation")


def _modules() -> Dict[str, types.ModuleType]:
    from .. import lang
    from . import compilation
    return {"cuda.tile": lang, "cuda.tile.compilation": compilation}


def upstream_available() -> bool:
    """True when a real cuda-tile package is importable (without importing it)."""
    mod = sys.modules.get("cuda.tile")
    if mod is not None:
        return not getattr(mod, "__tilescope__", False)
    try:
        return importlib.util.find_spec("cuda.tile") is not None
    except (ImportError, ValueError):
        return False


def install() -> None:
    """Point `cuda.tile` at tilescope for the rest of the process."""
    cuda = sys.modules.get("cuda")
    if cuda is None:
        try:
            import cuda  # noqa: F401  (a real namespace package, e.g. cuda-bindings)
            cuda = sys.modules["cuda"]
        except ImportError:
            cuda = types.ModuleType("cuda")
            cuda.__path__ = []
            sys.modules["cuda"] = cuda
    for name, mod in _modules().items():
        sys.modules[name] = mod
    cuda.tile = sys.modules["cuda.tile"]


@contextlib.contextmanager
def active() -> Iterator[None]:
    """`cuda.tile` is tilescope inside the block; the previous state comes back after."""
    saved = {name: sys.modules.get(name) for name in ("cuda",) + ALIASES}
    cuda = saved["cuda"]
    saved_attr = getattr(cuda, "tile", None) if cuda is not None else None
    install()
    try:
        yield
    finally:
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
        if cuda is not None:
            if saved_attr is None:
                with contextlib.suppress(AttributeError):
                    delattr(cuda, "tile")
            else:
                cuda.tile = saved_attr


def load_file(path: str, module_name: Optional[str] = None) -> types.ModuleType:
    """Import a kernel file as a module (not as __main__, so its main block does not run)."""
    path = os.path.abspath(path)
    name = module_name or "_tilescope_user_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    directory = os.path.dirname(path)
    added = directory not in sys.path
    if added:
        sys.path.insert(0, directory)
    try:
        with active():
            spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    finally:
        if added:
            with contextlib.suppress(ValueError):
                sys.path.remove(directory)
    return module
