"""Functions of the standard library compile-time Python may call: math, operator, functools,
itertools, dataclasses and enum helpers, each bounded like the built-ins (builtins.py)."""
from __future__ import annotations

import dataclasses
import enum
import functools
import itertools
import math
import typing
from typing import Callable, Dict, Tuple

from . import objects
from .builtins import BUILTINS, _call, _int, _register, items_of
from .kinds import ATOMS, describe, is_plain
from .limits import OverBudget, Refused, check_int

MODULE_FUNCTIONS: Dict[Tuple[str, str], Callable] = {}


def _math_guarded(name: str, limit: int):
    fn = getattr(math, name)

    def impl(ev, *args):
        for a in args:
            if type(a) is int and a > limit:
                raise OverBudget(f"math.{name}() of {a:,} is too large to evaluate at compile time "
                                 f"(at most {limit:,})")
        return check_int(fn(*args)) if name != "comb" or True else fn(*args)
    return impl


for _name in ("acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh degrees dist erf erfc exp "
              "exp2 expm1 fabs floor fmod frexp gamma gcd hypot isclose isfinite isinf isnan isqrt lcm ldexp "
              "lgamma log log10 log1p log2 modf nextafter pow radians remainder sin sinh sqrt tan tanh trunc "
              "ulp").split():
    if hasattr(math, _name):
        MODULE_FUNCTIONS[("math", _name)] = (lambda f: lambda ev, *a: f(*a) if all(is_plain(x) for x in a)
                                             else _refuse_math(f, a))(getattr(math, _name))
for _name, _limit in (("factorial", 5000), ("comb", 20000), ("perm", 20000)):
    MODULE_FUNCTIONS[("math", _name)] = _math_guarded(_name, _limit)
MODULE_FUNCTIONS[("math", "prod")] = lambda ev, iterable, start=1: functools.reduce(
    lambda a, b: objects.binary(ev, "mul", a, b), items_of(ev, iterable), start)
MODULE_FUNCTIONS[("math", "fsum")] = lambda ev, iterable: math.fsum(items_of(ev, iterable))


def _refuse_math(fn, args):
    raise Refused(f"math.{fn.__name__}() of {', '.join(describe(a) for a in args)} is not evaluated "
                  f"at compile time")


_OPERATOR_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "truediv", "floordiv": "floordiv",
                    "mod": "mod", "pow": "pow", "matmul": "matmul", "lshift": "lshift", "rshift": "rshift",
                    "and_": "and", "or_": "or", "xor": "xor"}
for _name, _op in _OPERATOR_BINARY.items():
    MODULE_FUNCTIONS[("_operator", _name)] = (lambda op: lambda ev, a, b: objects.binary(ev, op, a, b))(_op)
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    MODULE_FUNCTIONS[("_operator", _name)] = (lambda op: lambda ev, a, b: objects.compare(ev, op, a, b))(_name)
for _name, _op in (("neg", "neg"), ("pos", "pos"), ("invert", "invert"), ("inv", "invert")):
    MODULE_FUNCTIONS[("_operator", _name)] = (lambda op: lambda ev, a: objects.unary(ev, op, a))(_op)
MODULE_FUNCTIONS[("_operator", "not_")] = lambda ev, a: not objects.truth(ev, a)
MODULE_FUNCTIONS[("_operator", "truth")] = lambda ev, a: objects.truth(ev, a)
MODULE_FUNCTIONS[("_operator", "index")] = lambda ev, a: _int(ev, a)
MODULE_FUNCTIONS[("_operator", "getitem")] = lambda ev, a, b: objects.get_item(ev, a, b)
MODULE_FUNCTIONS[("_operator", "contains")] = lambda ev, a, b: objects.contains(ev, a, b)
MODULE_FUNCTIONS[("_functools", "reduce")] = lambda ev, fn, iterable, *init: functools.reduce(
    lambda a, b: _call(ev, fn, a, b), items_of(ev, iterable), *init)


# ---- a few functions written in Python in the standard library ------------------------------

@_register(functools.reduce)
def _reduce(ev, fn, iterable, *init):
    return functools.reduce(lambda a, b: _call(ev, fn, a, b), items_of(ev, iterable), *init)


class Native:
    """A callable the evaluator made itself (what `functools.wraps(f)` returns, say)."""

    def __init__(self, name: str, impl: Callable):
        self.__name__ = name
        self.impl = impl

    def __repr__(self) -> str:
        return f"<{self.__name__} (compile time)>"


@_register(functools.wraps)
def _wraps(ev, wrapped, *args, **kwargs):
    # The metadata functools.wraps copies does not change what a call computes.
    return Native("functools.wraps decorator", lambda ev, fn: fn)


@_register(dataclasses.replace)
def _replace(ev, obj, **changes):
    if not dataclasses.is_dataclass(obj) or issubclass(type(obj), type):
        raise TypeError("replace() should be called on dataclass instances")
    values = {f.name: object.__getattribute__(obj, f.name) for f in dataclasses.fields(obj) if f.init}
    values.update(changes)
    return ev.construct(type(obj), [], values)


@_register(dataclasses.fields)
def _fields(ev, obj):
    return dataclasses.fields(obj)


@_register(dataclasses.is_dataclass)
def _is_dataclass(ev, obj):
    return dataclasses.is_dataclass(obj)


@_register(enum.auto)
def _auto(ev):
    return enum.auto()


@_register(dataclasses.field)
def _field(ev, **kwargs):
    return dataclasses.field(**kwargs)


for _fn in (typing.cast,):
    BUILTINS[id(_fn)] = (_fn, lambda ev, typ, value: value)


def _itertools(name: str, fn: Callable):
    def impl(ev, *args, **kwargs):
        iterables = [objects.EvalIterator(objects.iterate(ev, a)) if type(a) not in ATOMS else a for a in args]
        return objects.EvalIterator(objects.iterate(ev, fn(*iterables, **kwargs)))
    return impl


for _name in ("product", "permutations", "combinations", "combinations_with_replacement", "chain",
              "accumulate", "islice", "zip_longest", "repeat", "count"):
    _fn = getattr(itertools, _name)
    BUILTINS[id(_fn)] = (_fn, _itertools(_name, _fn))
