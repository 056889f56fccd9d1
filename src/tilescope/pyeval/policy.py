"""What compile-time Python may read: module attributes and methods of plain values."""
from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from ..ops.bridge import translate
from .kinds import is_tilescope_module
from .limits import Refused

# Dunder attributes that are plain data wherever they are found.
READABLE_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__"})

# Modules compile-time Python may import (in a helper function's body).
READABLE_MODULES = frozenset({"math", "operator", "enum", "dataclasses", "typing", "functools", "itertools"})

_COMMON_ATTRS = {"real", "imag", "conjugate"}
VALUE_METHODS = {
    str: {"capitalize", "casefold", "center", "count", "endswith", "find", "format", "index", "isalnum",
          "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
          "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition",
          "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit",
          "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "upper", "zfill",
          "expandtabs"},
    tuple: {"count", "index"},
    list: {"count", "index", "copy", "append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort"},
    dict: {"get", "keys", "values", "items", "copy", "update", "setdefault", "pop", "popitem", "clear"},
    set: {"union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset",
          "isdisjoint", "copy", "add", "discard", "remove", "update", "pop", "clear"},
    frozenset: {"union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset",
                "isdisjoint", "copy"},
    int: _COMMON_ATTRS | {"bit_length", "bit_count", "numerator", "denominator", "as_integer_ratio", "is_integer"},
    bool: _COMMON_ATTRS | {"bit_length", "bit_count", "numerator", "denominator", "as_integer_ratio"},
    float: _COMMON_ATTRS | {"is_integer", "as_integer_ratio", "hex"},
    complex: _COMMON_ATTRS,
    range: {"start", "stop", "step", "count", "index"},
    slice: {"start", "stop", "step", "indices"},
}
# Methods that change their object: only on objects the evaluation created.
MUTATING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort", "update",
                      "setdefault", "popitem", "add", "discard"})


def value_attribute(obj: Any, name: str) -> Any:
    """`"abc".upper`, `(1, 2).index`, `x.real`: attributes of plain values on the allow-list."""
    t = type(obj)
    if name in VALUE_METHODS.get(t, ()):
        return getattr(obj, name)
    if hasattr(t, name):
        raise Refused(f"'{t.__name__}.{name}' is not evaluated in compile-time Python")
    raise AttributeError(f"'{t.__name__}' object has no attribute '{name}'")


def module_name(module: types.ModuleType) -> str:
    name = object.__getattribute__(module, "__dict__").get("__name__")
    return name if isinstance(name, str) else "?"


def module_attribute(module: types.ModuleType, name: str) -> Any:
    """An attribute of a module, read from its namespace: no code runs (a module-level
    `__getattr__` is not called, except tilescope's own). Reading is harmless; what may be
    called or done with the value is decided where it is used."""
    mod = module_name(module)
    namespace = object.__getattribute__(module, "__dict__")
    value = dict.get(namespace, name, _MISSING) if type(namespace) is dict else _MISSING
    if value is _MISSING:
        if is_tilescope_module(mod):
            return getattr(module, name)          # tilescope.lang's lazily registered ops
        if mod == "cuda" and name == "tile":
            # `import cuda.tile` in a file tilescope loaded (lang/shim.active) binds the `cuda`
            # package, whose `tile` is taken back afterwards when `cuda` was imported before: the
            # name still means the cuTile the file was loaded with.
            return sys.modules.get("cuda.tile") or importlib.import_module("tilescope.lang")
        raise AttributeError(f"module '{mod}' has no attribute '{name}'")
    return translate(value)


_MISSING = object()
