"""Make `import cuda.tile as ct` resolve to tilescope's surface (see tilescope.devices.cuda_tile).

Inside tilescope's tools a user's kernel file is imported unchanged (`load_file`); with the
shim active its `cuda.tile` is `tilescope.lang`. The previous state of `sys.modules` comes
back afterwards (`active()`), so an installed upstream cuda-tile is left untouched.
"""
from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import types
from typing import Dict, Iterator, Optional

from ..devices.cuda_tile import _FINDER, ALIASES, _is_ours, install, upstream_available  # noqa: F401


def _snapshot() -> Dict[str, Optional[types.ModuleType]]:
    return {n: m for n, m in sys.modules.items() if n == "cuda" or _is_ours(n)}


@contextlib.contextmanager
def active() -> Iterator[None]:
    """`cuda.tile` is tilescope inside the block; the previous state comes back after."""
    saved = _snapshot()
    cuda = saved.get("cuda")
    saved_attr = getattr(cuda, "tile", None) if cuda is not None else None
    had_finder = _FINDER in sys.meta_path
    install()
    try:
        yield
    finally:
        if not had_finder:
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(_FINDER)
        for name in list(_snapshot()):
            if name not in saved:
                del sys.modules[name]
        sys.modules.update(saved)
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
