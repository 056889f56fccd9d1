"""Python built-in functions inside tile code."""
from __future__ import annotations

import builtins

from ... import dtypes as D
from ...annotations import Array, TiledView, Tile
from ...dtypes import int32
from ...ir.core import Value
from ...ir.types import ArrayType, ListType, TiledViewType, TileType
from ...ops.common import describe
from ...ops.registry import register_python_call
from ...pyeval.builtins import getattr_or_default, has_attribute
from .abstract import RangeValue
from .static import host_call



def _rule(fn_obj):
    def wrap(rule):
        return register_python_call(fn_obj, rule)
    return wrap


def _int_bound(ctx, x, what):
    if isinstance(x, Value):
        t = x.type
        if not (isinstance(t, TileType) and t.shape == ()):
            raise ctx.type_error(f"Expected a scalar value, but given value has type {t}")
        if not (t.dtype.is_int or t.dtype.is_bool) or t.dtype.is_int and not t.dtype.is_signed:
            # cuTile loops count with signed integers.
            raise ctx.type_error(f"Expected a signed integer scalar, but got {t}")
        return x if x.const is None else x.const
    if isinstance(x, bool) or not isinstance(x, int):
        raise ctx.type_error(f"range() {what} must be an integer, got {type(x).__name__}")
    return x


@_rule(builtins.range)
def _range(ctx, *args, **kwargs):
    if kwargs or not 1 <= len(args) <= 3:
        raise ctx.type_error("range() takes 1 to 3 positional arguments")
    args = [_int_bound(ctx, a, w) for a, w in zip(args, ("start", "stop", "step") if len(args) > 1 else ("stop",))]
    if len(args) == 1:
        return RangeValue(0, args[0], 1)
    if len(args) == 2:
        return RangeValue(args[0], args[1], 1)
    if not isinstance(args[2], Value) and args[2] <= 0:
        raise ctx.type_error(f"Step must be positive, got {args[2]}")
    return RangeValue(*args)


@_rule(builtins.len)
def _len(ctx, x):
    if isinstance(x, tuple):
        return len(x)
    if isinstance(x, Value):
        if isinstance(x.type, ListType):
            return ctx.emit1("list_len", [x], TileType(ctx_int32(), ()))
        if isinstance(x.type, TileType) and x.type.shape:
            return x.type.shape[0]
        if isinstance(x.type, ArrayType):
            return ctx.getattr(x, "shape")[0]
    raise ctx.type_error(f"object of {describe(x)} has no len()")


def ctx_int32():
    return int32


def _minmax(name, pyfn):
    def rule(ctx, *args, **kwargs):
        if kwargs:
            raise ctx.type_error(f"{name}() keyword arguments are not supported in tile code")
        if len(args) == 1 and isinstance(args[0], tuple):
            args = args[0]
        if not args:
            raise ctx.value_error(f"{name}() of an empty sequence")
        if not any(isinstance(a, Value) for a in args):
            return _host(ctx, pyfn, [tuple(args)], {})
        result = args[0]
        for a in args[1:]:
            result = ctx.call_surface("maximum" if name == "max" else "minimum", [result, a], {})
        return result
    return rule


register_python_call(builtins.max, _minmax("max", max))
register_python_call(builtins.min, _minmax("min", min))


@_rule(builtins.abs)
def _abs(ctx, x):
    return ctx.call_surface("abs", [x], {}) if isinstance(x, Value) else _host(ctx, abs, [x], {})


@_rule(builtins.divmod)
def _divmod(ctx, x, y):
    return ctx.call_surface("divmod", [x, y], {})


def _convert(pytype, dtype_name):
    def rule(ctx, x=0):
        if isinstance(x, Value):
            if x.const is not None:
                return pytype(x.const)
            if not (isinstance(x.type, TileType) and x.type.shape == ()):
                raise ctx.type_error(f"{pytype.__name__}() needs a scalar, got {x.type}")
            return ctx.call_surface("astype", [x, getattr(D, dtype_name)], {})
        try:
            return _host(ctx, pytype, [x], {})
        except (TypeError, ValueError) as ex:
            raise ctx.type_error(f"{pytype.__name__}(): {ex}") from None
    return rule


register_python_call(builtins.int, _convert(int, "int32"))
register_python_call(builtins.float, _convert(float, "float32"))
register_python_call(builtins.bool, lambda ctx, x=False: ctx.to_bool(x))


@_rule(builtins.tuple)
def _tuple(ctx, x=()):
    if isinstance(x, tuple):
        return x
    if isinstance(x, (list, range)):
        return tuple(x)
    raise ctx.type_error(f"tuple() of {describe(x)} is not supported in tile code")


@_rule(builtins.isinstance)
def _isinstance(ctx, obj, cls):
    if isinstance(obj, Value):
        classes = cls if isinstance(cls, tuple) else (cls,)
        return any(_value_is_instance(obj, c) for c in classes)
    try:
        return _host(ctx, isinstance, [obj, cls], {})
    except TypeError as ex:
        raise ctx.type_error(f"isinstance(): {ex}") from None


def _value_is_instance(value: Value, cls) -> bool:
    """isinstance() of a run-time value: its IR type against `ct.Tile`, `ct.Array`, int..."""
    t = value.type
    if cls is Tile:
        return isinstance(t, TileType)
    if cls is Array:
        return isinstance(t, ArrayType)
    if cls is TiledView:
        return isinstance(t, TiledViewType)
    if cls in (int, float, bool):
        return isinstance(t, TileType) and t.shape == () and (
            (cls is bool and t.dtype.is_bool) or (cls is int and t.dtype.is_int)
            or (cls is float and t.dtype.is_float))
    if cls is list:
        return isinstance(t, ListType)
    return False


@_rule(builtins.print)
def _print(ctx, *args, **kwargs):
    return ctx.call_surface("print", list(args), kwargs)


@_rule(builtins.getattr)
def _getattr(ctx, obj, name, *default):
    if not isinstance(name, str):
        raise ctx.type_error("getattr(): attribute name must be a constant string")
    return getattr_or_default(ctx.getattr, obj, name, default, missing=Exception)


@_rule(builtins.hasattr)
def _hasattr(ctx, obj, name):
    return has_attribute(ctx.getattr, obj, name, missing=Exception)


def _tuple_builtin(fn):
    def rule(ctx, *args):
        for a in args:
            if not isinstance(a, tuple):
                raise ctx.type_error(f"{fn.__name__}() in tile code works on tuples, got {describe(a)}")
        return tuple(fn(*args))
    return rule


register_python_call(builtins.zip, _tuple_builtin(zip))
register_python_call(builtins.reversed, _tuple_builtin(reversed))


@_rule(builtins.enumerate)
def _enumerate(ctx, x, start=0):
    if not isinstance(x, tuple):
        raise ctx.type_error(f"enumerate() in tile code works on tuples, got {describe(x)}")
    return tuple(enumerate(x, start))


@_rule(builtins.breakpoint)
def _breakpoint(ctx, *args, **kwargs):
    ctx.emit("breakpoint")
    return None


def _host(ctx, fn, args, kwargs):
    """A built-in applied to compile-time values by the evaluator (a user's special methods are
    interpreted, not called)."""
    return host_call(ctx, fn, args, kwargs)
