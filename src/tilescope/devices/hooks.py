"""Run a function right after a module is first imported, without importing it now.

The device layer must not import torch at start-up (seconds, and most scripts never use it),
yet must patch torch before the script's first line that uses it. A finder at the front of
`sys.meta_path` lets the normal finders locate the module and wraps its loader so the patch
runs as soon as the module body has executed.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
from typing import Callable, Dict, List

_callbacks: Dict[str, List[Callable]] = {}
_lock = threading.RLock()


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, loader, name: str):
        self._loader = loader
        self._name = name

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _fire(self._name, sys.modules.get(self._name, module))

    def __getattr__(self, item):          # get_resource_reader, is_package, ... of the real loader
        return getattr(self._loader, item)


class _PostImportFinder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self._busy = set()

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _callbacks or fullname in self._busy:
            return None
        self._busy.add(fullname)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self._busy.discard(fullname)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _PatchingLoader(spec.loader, fullname)
        return spec


_FINDER = _PostImportFinder()


def _fire(name: str, module) -> None:
    with _lock:
        callbacks = _callbacks.pop(name, [])
    for cb in callbacks:
        cb(module)


def when_imported(name: str, callback: Callable) -> None:
    """Call `callback(module)` once `name` is imported (now, if it already is)."""
    with _lock:
        if name in sys.modules and sys.modules[name] is not None:
            module = sys.modules[name]
        else:
            _callbacks.setdefault(name, []).append(callback)
            if _FINDER not in sys.meta_path:
                sys.meta_path.insert(0, _FINDER)
            return
    callback(module)
