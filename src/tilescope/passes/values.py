"""Compile-time structure of abstract values: flattening aggregates into IR leaves.

During inference a Python name is bound to an *abstract value*: an IR `Value`, a
Python constant (a "loose" literal, a dtype, an enum, a function...), or an
aggregate of those (tuple, frozen dataclass instance). Merging control flow and
carrying loop variables needs aggregates flattened into leaves and rebuilt.
"""
from __future__ import annotations

import dataclasses
from typing import Any, List, Tuple

from ..ir.core import Value


class Undefined:
    """A name bound on only some paths (or `None` placeholders before a loop)."""
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<undefined>"


UNDEFINED = Undefined()


def is_aggregate(x: Any) -> bool:
    return isinstance(x, tuple) or (dataclasses.is_dataclass(x) and not isinstance(x, type))


def flatten(x: Any) -> Tuple[List[Any], Any]:
    """Leaves (Values and non-aggregate Python objects) and a tree description."""
    leaves: List[Any] = []

    def walk(v):
        if isinstance(v, tuple):
            return ("tuple", tuple(walk(i) for i in v))
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            names = tuple(f.name for f in dataclasses.fields(v))
            return ("dataclass", type(v), names, tuple(walk(getattr(v, n)) for n in names))
        leaves.append(v)
        return "leaf"

    tree = walk(x)
    return leaves, tree


def unflatten(tree: Any, leaves: List[Any]) -> Any:
    it = iter(leaves)

    def build(t):
        if t == "leaf":
            return next(it)
        if t[0] == "tuple":
            return tuple(build(i) for i in t[1])
        _, cls, names, items = t
        return make_dataclass_instance(cls, dict(zip(names, (build(i) for i in items))))

    return build(tree)


def make_dataclass_instance(cls, fields: dict):
    """Build a (frozen) dataclass holding abstract values without running user code."""
    obj = object.__new__(cls)
    for k, v in fields.items():
        object.__setattr__(obj, k, v)
    return obj


def same_leaf(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, Value) or isinstance(b, Value):
        return False
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False
