"""Tile-code values seen from compile-time Python, and back: tiles and arrays become proxies
exposing what is known statically (shape, dtype, ndim), tile-code callables become objects that
refuse to be called, and results come back as tile-code values."""
from __future__ import annotations

import dataclasses
from typing import Any

from ...ir.core import Value
from ...ir.types import ArrayType, TileType
from ...ops.bridge import translate
from ...pyeval import ForbiddenCall
from ..bound import plain
from ..values import Closure, make_dataclass_instance
from .abstract import BoundMethod


class StaticProxy:
    """What compile-time Python sees of a run-time value: shape, dtype and ndim are known;
    operators build IR in the kernel being compiled, as cuTile's symbolic tiles do."""

    def __init__(self, value: Value, ctx):
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_ctx", ctx)

    def __getattr__(self, name: str) -> Any:
        t = self._value.type
        if isinstance(t, (TileType, ArrayType)):
            if name == "dtype":
                return t.dtype
            if name == "ndim":
                return t.ndim
            if name == "shape" and isinstance(t, TileType):
                return t.shape
        # Other attributes (array shapes, methods) resolve as in tile code; methods come
        # back as callables that may be passed around but not called at compile time.
        return to_static(self._ctx, self._ctx.getattr(self._value, name))

    # upstream's wording for symbolic tiles used as concrete Python values
    def __bool__(self):
        raise ValueError("Symbolic tile has no concrete value and thus cannot be converted to boolean")

    def __index__(self):
        raise ValueError("Symbolic tile has no concrete value and thus cannot be converted to an integer")

    __int__ = __index__

    def __float__(self):
        raise ValueError("Symbolic tile has no concrete value and thus cannot be converted to a float")

    def __repr__(self) -> str:
        t = self._value.type
        if isinstance(t, TileType):
            return f"<tile[{t.dtype.name}, {t.shape!r}]>"
        if isinstance(t, ArrayType):
            dims = [str(d) if known else "?" for d, known in
                    zip(t.shape or (None,) * t.ndim, t.static_shape or (False,) * t.ndim)]
            return f"<array[{t.dtype.name}, ({', '.join(dims)})]>"
        return f"<{t}>"


def _proxy_binary(op: str, reflected: bool):
    def fn(self, other):
        ctx = self._ctx
        a, b = from_static(self), from_static(other)
        if reflected:
            a, b = b, a
        return to_static(ctx, ctx.binary(op, a, b))
    return fn


def _proxy_compare(op: str):
    def fn(self, other):
        ctx = self._ctx
        return to_static(ctx, ctx.compare(op, from_static(self), from_static(other)))
    return fn


def _proxy_unary(op: str):
    def fn(self):
        ctx = self._ctx
        return to_static(ctx, ctx.unary(op, from_static(self)))
    return fn


for _op, _dunder in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "truediv"),
                     ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow"), ("matmul", "matmul"),
                     ("lshift", "lshift"), ("rshift", "rshift"), ("and_", "and"), ("or_", "or"),
                     ("xor", "xor")):
    setattr(StaticProxy, f"__{_dunder}__", _proxy_binary(_op, False))
    setattr(StaticProxy, f"__r{_dunder}__", _proxy_binary(_op, True))
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(StaticProxy, f"__{_op}__", _proxy_compare(_op))
for _op, _dunder in (("neg", "neg"), ("pos", "pos"), ("invert", "invert")):
    setattr(StaticProxy, f"__{_dunder}__", _proxy_unary(_op))
StaticProxy.__hash__ = object.__hash__


class StaticCallable:
    """A tile-code callable (nested function, bound method) seen from compile-time Python."""

    def __init__(self, target: Any, desc: str):
        self.target, self.desc = target, desc

    def __call__(self, *args, **kwargs):
        raise ForbiddenCall(self.desc)

    def __repr__(self) -> str:
        return self.desc


def _callable_desc(x: Any) -> str | None:
    """How upstream names a tile-code callable in 'cannot be called' errors, or None."""
    if isinstance(x, Closure):
        loc = getattr(x.fn, "loc", None)
        where = f" @{loc.filename.rsplit('/', 1)[-1]}:{loc.line}" if loc is not None else ""
        if x.fn.name == "<lambda>":
            return f"<lambda{where}>"
        return f"<function '{x.fn.name}'{where}>"
    if isinstance(x, BoundMethod):
        target = x.target
        name = getattr(target, "name", None) or getattr(target, "__name__", "method")
        return f"{name}()"
    return None


def check_static_visible(ctx, x: Any) -> None:
    """Only tiles and arrays have a compile-time view (as cuTile's symbolic values)."""
    if isinstance(x, tuple):
        for i in x:
            check_static_visible(ctx, i)
    elif isinstance(x, Value) and x.const is None and not isinstance(x.type, (TileType, ArrayType)):
        raise ctx.type_error(f"Objects of type {x.type} are not supported at compile time")


def to_static(ctx, x: Any) -> Any:
    x = plain(x)
    t = type(x)
    if t is Value:
        # A known scalar is its Python value; a tile (even a constant splat) stays a proxy.
        scalar = isinstance(x.type, TileType) and not x.type.shape
        return x.const if x.const is not None and scalar else StaticProxy(x, ctx)
    if t is tuple:
        return tuple(to_static(ctx, i) for i in x)
    if t is dict:
        return {k: to_static(ctx, v) for k, v in x.items()}
    if t in _PLAIN or t is StaticProxy:
        return x
    desc = _callable_desc(x)
    if desc is not None:
        return StaticCallable(x, desc)
    return x


_PLAIN = frozenset({int, float, bool, str, type(None)})


def from_static(x: Any) -> Any:
    t = type(x)
    if t is StaticCallable:
        return x.target
    if t is StaticProxy:
        return object.__getattribute__(x, "_value")
    if t is tuple or t is list:
        return tuple(from_static(i) for i in x)
    if t is dict:
        return {k: from_static(v) for k, v in x.items()}
    if dataclasses.is_dataclass(t) and not isinstance(x, type):
        fields = {f.name: object.__getattribute__(x, f.name) for f in dataclasses.fields(t)
                  if _has_field(x, f.name)}
        converted = {k: from_static(v) for k, v in fields.items()}
        if any(converted[k] is not fields[k] for k in fields):
            return make_dataclass_instance(t, converted)
        return x
    return translate(x)


def _has_field(obj: Any, name: str) -> bool:
    try:
        object.__getattribute__(obj, name)
        return True
    except AttributeError:
        return False


def type_and_str(ex: BaseException) -> str:
    s = str(ex)
    return f"{type(ex).__name__}: {s}" if s else type(ex).__name__
