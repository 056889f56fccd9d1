"""Accept objects of upstream `cuda.tile` (when it is installed) as if they were ours.

A kernel written against upstream refers to upstream's functions, dtypes and enums
through its globals. We map them to tilescope's by public name, using nothing but
upstream's public module attributes: what kernel code can name through `ct.` (the ops of
the registry, dtypes, enums, annotations and the classes they name, error classes).
"""
from __future__ import annotations

import enum
import sys
from typing import Any, Dict

from .. import annotations, dtypes, enums, errors
from . import load_all
from .registry import SURFACE

_KERNEL_VISIBLE = (dtypes, enums, annotations, errors)
_table: Dict[int, Any] = {}
_built_for: Any = None


def _build(upstream) -> None:
    global _built_for, _table
    load_all()                          # every op is in SURFACE
    table: Dict[int, Any] = {}          # built aside, then swapped in: other threads read _table
    for name in dir(upstream):
        if name.startswith("_"):
            continue
        theirs = getattr(upstream, name, None)
        ours = _ours(name)
        if ours is None or theirs is None or theirs is ours:
            continue
        if isinstance(theirs, type) and issubclass(theirs, enum.Enum):
            for member in theirs:
                table[id(member)] = ours[member.name]
        table[id(theirs)] = ours
    # typing.Annotated aliases (ct.Constant[int]) keep upstream metadata; the
    # annotation helpers recognise those by class name, so nothing to map.
    _table = table
    _built_for = upstream


def _ours(name: str) -> Any:
    if name in SURFACE:
        return SURFACE[name]
    return next((vars(m)[name] for m in _KERNEL_VISIBLE if name in vars(m)), None)


def translate(obj: Any) -> Any:
    """Our counterpart of an upstream object, or `obj` itself."""
    if isinstance(obj, (int, float, str, bool, type(None))):
        return obj
    upstream = sys.modules.get("cuda.tile")
    if upstream is None or getattr(upstream, "__tilescope__", False):
        return obj
    if upstream is not _built_for:
        _build(upstream)
    return _table.get(id(obj), obj)
