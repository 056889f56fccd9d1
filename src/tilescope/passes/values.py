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
from .bound import plain


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


class Closure:
    """A function defined inside tile code (nested `def` or `lambda`).

    Enclosing variables are found through `frame` when it runs (Python's late binding).
    Where closures of one function made on different paths meet (`c = make(1) if cond else
    make(2)`), they merge like tuples: their enclosing values (`free` names) are taken then
    and kept in `captured`, which takes precedence over `frame`.
    """

    def __init__(self, fn, frame, defaults: dict, captured: dict, free=()):
        self.fn, self.frame, self.defaults, self.captured = fn, frame, defaults, captured
        self.free = tuple(free)
        self.__name__ = fn.name

    def enclosing_values(self) -> dict:
        out = {}
        for name in self.free:
            if name in self.captured:
                out[name] = self.captured[name]
                continue
            f = self.frame
            while f is not None:
                if name in f.vars:
                    out[name] = f.vars[name]
                    break
                f = f.parent
        return out

    def __repr__(self) -> str:
        return f"<tile function {self.fn.name}>"


class _Anchor:
    """Carries an object through a flatten tree without taking part in its equality."""

    def __init__(self, obj):
        self.obj = obj

    def __eq__(self, other) -> bool:
        return isinstance(other, _Anchor)

    def __hash__(self) -> int:
        return 0


def is_aggregate(x: Any) -> bool:
    return isinstance(x, (tuple, Closure)) or (dataclasses.is_dataclass(x) and not isinstance(x, type))


def flatten(x: Any) -> Tuple[List[Any], Any]:
    """Leaves (Values and non-aggregate Python objects) and a tree description."""
    leaves: List[Any] = []

    def walk(v):
        if isinstance(v, tuple):
            return ("tuple", tuple(walk(i) for i in v))
        if isinstance(v, Closure):
            env = v.enclosing_values()
            cap, dfl = sorted(env), sorted(v.defaults)
            return ("closure", id(v.fn), _Anchor(v), tuple(cap), tuple(dfl),
                    tuple(walk(env[n]) for n in cap), tuple(walk(v.defaults[n]) for n in dfl))
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
        if t[0] == "closure":
            _, _, anchor, cap, dfl, cap_t, dfl_t = t
            proto = anchor.obj
            captured = dict(zip(cap, (build(i) for i in cap_t)))    # (in flatten's order: leaves first)
            defaults = dict(zip(dfl, (build(i) for i in dfl_t)))
            return Closure(proto.fn, proto.frame, defaults, captured, proto.free)
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
        return type(plain(a)) is type(plain(b)) and bool(a == b)
    except Exception:
        return False
