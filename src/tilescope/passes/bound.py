"""Compile-time numbers that remember where they were bound.

Upstream's front end makes a typed constant where it evaluates a number (a literal, a folded
expression, a constant parameter at the kernel's `def`) and every later use of that value with its
own type reads that one constant; a use in another type converts it there. tilescope's interpreter
keeps such numbers as Python numbers, so they carry their `Site` along (through variables, tuples,
dataclass fields and inlined calls): `BoundInt`/`BoundFloat` behave as the int or float they hold
(arithmetic on them gives plain numbers), and `RuleServices.constant` records the site on the
`const` op it makes, for the TileIR lowering (backends/tileir/bound_sites.py). Nothing that leaves
the interpreter keeps them: op attributes and compile-time Python calls get plain numbers (`plain`).
Booleans are not bound (bool has no subclasses).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

from .. import dtypes as D
from ..ir.core import Site


class BoundInt(int):
    """An int and the Site where it was bound."""

    def __new__(cls, value: int, site: Site):
        obj = super().__new__(cls, value)
        obj.site = site
        return obj


class BoundFloat(float):
    """A float and the Site where it was bound."""
    __slots__ = ("site",)

    def __new__(cls, value: float, site: Site):
        obj = super().__new__(cls, value)
        obj.site = site
        return obj


# messages name a value's type as Python does ("got int")
BoundInt.__name__ = BoundInt.__qualname__ = "int"
BoundFloat.__name__ = BoundFloat.__qualname__ = "float"
_BOUND = (BoundInt, BoundFloat)


def bind(value: Any, site: Site) -> Any:
    """`value` bound at `site` when it is a plain int or float (a bound one keeps its site)."""
    t = type(value)
    if t is int:
        return BoundInt(value, site)
    if t is float:
        return BoundFloat(value, site)
    return value


def bind_all(value: Any, site) -> Any:
    """`value` with every plain number in it (in tuples too) bound at a new `site()`."""
    if type(value) is tuple:
        return tuple(bind_all(x, site) for x in value)
    return bind(value, site())


def rebind(value: Any, site) -> Any:
    """`value` with every number in it (in tuples and frozen dataclasses too) bound anew at a
    `site()` each, in order: upstream makes a compile-time Python result's constants where the
    result enters tile code (`ct.static_eval`, `ct.static_iter`)."""
    t = type(value)
    if t is BoundInt or t is BoundFloat:
        return bind(plain(value), site())
    if t is tuple:
        return tuple(rebind(x, site) for x in value)
    if dataclasses.is_dataclass(t) and hasattr(value, "__dict__"):
        out = object.__new__(t)
        for k, v in vars(value).items():
            object.__setattr__(out, k, rebind(v, site))
        return out
    return bind(value, site())


def anchor_sites(fn) -> None:
    """Fix the place of every site a constant of the finished function `fn` records."""
    for op in fn.walk():
        if op.origin is not None and op.origin.param is None and op.origin.block is not None:
            op.origin.anchor()


def site_of(value: Any) -> Optional[Site]:
    return value.site if type(value) in _BOUND else None


def natural_dtype(value: Any) -> D.DType:
    """The dtype of the typed constant upstream makes where a number is bound."""
    return D.float32 if isinstance(value, float) else D.literal_dtype(int(value))


def plain(value: Any) -> Any:
    """`value` with every bound number in it (in tuples and lists too) a plain one."""
    t = type(value)
    if t is BoundInt:
        return int(value)
    if t is BoundFloat:
        return float(value)
    if (t is tuple or t is list) and any(type(x) in _BOUND or type(x) in (tuple, list) for x in value):
        return t(plain(x) for x in value)
    return value
