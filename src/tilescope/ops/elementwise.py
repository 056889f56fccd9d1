"""Element-wise arithmetic and comparisons (binary ops with promotion and broadcasting)."""
from __future__ import annotations

import math
import operator

from .. import dtypes as D
from ..ir.types import TileType
from ..lang.enums import RoundingMode
from .common import (broadcast_shapes, coerce, common_dtype, const_bool, const_enum, convert, is_number,
                     is_tile, require_dtype, shape_of, tile_operand)
from .registry import primitive, surface

primitive("binary", "Element-wise arithmetic `fn` on two operands of equal type (Python semantics "
                    "for floordiv/mod; integer ops wrap).")
primitive("compare", "Element-wise comparison `fn` giving bool.")
primitive("astype", "Element-wise conversion to `dtype` (float→int truncates toward zero).")
primitive("const", "A compile-time scalar constant.")
primitive("broadcast", "Broadcast to the result shape (size-1 axes repeat).")
primitive("reshape", "Same elements in row-major order, new shape.")

_PY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
       "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
       "max": max, "min": min}


def _check_rounding(ctx, fn, rounding_mode, flush_to_zero, dtype):
    rm = None if rounding_mode is None else const_enum(ctx, rounding_mode, RoundingMode, "rounding_mode")
    ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
    if rm is not None and not dtype.is_float:
        raise ctx.type_error(f"rounding_mode is only supported for floating-point {fn}, got {dtype}")
    if ftz and dtype is not D.float32:
        raise ctx.type_error(f"flush_to_zero is only supported for float32, got {dtype}")
    return rm, ftz


def binary_arith(ctx, fn: str, x, y, rounding_mode=None, flush_to_zero=False, propagate_nan=False):
    for side, v in (("Left-hand side", x), ("Right-hand side", y)):
        if is_tile(v) and not v.type.dtype.is_arithmetic:
            raise ctx.type_error(f"{side} has non-arithmetic dtype {v.type.dtype}")
        if not is_tile(v) and not is_number(v):
            raise ctx.type_error(f"unsupported operand for {fn}: {_describe(v)}")
    if not is_tile(x) and not is_tile(y):
        return _fold(ctx, fn, x, y)
    dtype = common_dtype(ctx, x, y, force_float=(fn == "truediv"))
    if dtype.is_bool:
        raise ctx.type_error(f"Binary arithmetic op `{fn}` does not support bool, please cast bool to int")
    if fn == "mod" and dtype.is_bool:
        raise ctx.type_error("Modulo operation does not support bool")
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    rm, ftz = _check_rounding(ctx, fn, rounding_mode, flush_to_zero, dtype)
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if vx.const is not None and vy.const is not None and not shape and rm is None:
        return _fold_typed(ctx, fn, vx.const, vy.const, dtype)
    attrs = {"fn": fn}
    if rm is not None:
        attrs["rounding_mode"] = rm
    if ftz:
        attrs["flush_to_zero"] = True
    if propagate_nan:
        attrs["propagate_nan"] = True
    return ctx.emit1("binary", [vx, vy], TileType(dtype, shape), **attrs)


def _fold(ctx, fn, x, y):
    try:
        return _PY[fn](x, y)
    except ZeroDivisionError:
        raise ctx.value_error("division by zero in a constant expression") from None
    except (OverflowError, ValueError) as ex:
        raise ctx.value_error(f"cannot evaluate constant expression: {ex}") from None


def _fold_typed(ctx, fn, a, b, dtype):
    if dtype.is_int and fn in ("floordiv", "mod", "truediv") and b == 0:
        raise ctx.value_error("integer division by zero in a constant expression")
    try:
        value = _PY[fn](a, b)
    except ZeroDivisionError:
        value = math.copysign(math.inf, a) if a else math.nan
    return ctx.constant(value, dtype)


def _arith_surface(name, fn, doc, *, rounding=True, nan=False):
    if rounding:
        def stub(x, y, /, *, rounding_mode=None, flush_to_zero=False):
            pass
    elif nan:
        def stub(x, y, /, *, flush_to_zero=False, propagate_nan=False):
            pass
    else:
        def stub(x, y, /):
            pass
    stub.__name__ = name
    stub.__doc__ = doc
    sf = surface("elementwise")(stub)

    if rounding:
        def rule(ctx, x, y, rounding_mode, flush_to_zero):
            return binary_arith(ctx, fn, x, y, rounding_mode, flush_to_zero)
    elif nan:
        def rule(ctx, x, y, flush_to_zero, propagate_nan):
            ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
            pn = const_bool(ctx, propagate_nan, "propagate_nan")
            return binary_arith(ctx, fn, x, y, None, ftz, pn)
    else:
        def rule(ctx, x, y):
            return binary_arith(ctx, fn, x, y)
    sf.rule(rule)
    return sf


add = _arith_surface("add", "add", "Element-wise `x + y` with promotion and broadcasting.")
sub = _arith_surface("sub", "sub", "Element-wise `x - y` with promotion and broadcasting.")
mul = _arith_surface("mul", "mul", "Element-wise `x * y` with promotion and broadcasting.")
truediv = _arith_surface("truediv", "truediv", "Element-wise `x / y`; integer operands give float32.")
floordiv = _arith_surface("floordiv", "floordiv", "Element-wise `x // y`, rounding toward negative infinity.",
                          rounding=False)
mod = _arith_surface("mod", "mod", "Element-wise `x % y` with the sign of `y` (Python semantics).",
                     rounding=False)
pow = _arith_surface("pow", "pow", "Element-wise `x ** y`.", rounding=False)
maximum = _arith_surface("maximum", "max", "Element-wise maximum; NaN is ignored unless `propagate_nan`.",
                         rounding=False, nan=True)
minimum = _arith_surface("minimum", "min", "Element-wise minimum; NaN is ignored unless `propagate_nan`.",
                         rounding=False, nan=True)


# ---- comparisons -----------------------------------------------------------

_CMP = {"equal": ("eq", operator.eq), "not_equal": ("ne", operator.ne), "less": ("lt", operator.lt),
        "less_equal": ("le", operator.le), "greater": ("gt", operator.gt),
        "greater_equal": ("ge", operator.ge)}


def compare(ctx, fn: str, x, y):
    if not is_tile(x) and not is_tile(y):
        return dict(_CMP.values())[fn] if False else {v[0]: v[1] for v in _CMP.values()}[fn](x, y)
    for v in (x, y):
        if not is_tile(v) and not is_number(v):
            raise ctx.type_error(f"cannot compare {_describe(v)}")
    dtype = common_dtype(ctx, x, y)
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if vx.const is not None and vy.const is not None and not shape:
        return ctx.constant({v[0]: v[1] for v in _CMP.values()}[fn](vx.const, vy.const), D.bool_)
    return ctx.emit1("compare", [vx, vy], TileType(D.bool_, shape), fn=fn)


def _cmp_surface(name):
    fn = _CMP[name][0]

    def stub(x, y, /):
        pass
    stub.__name__ = name
    stub.__doc__ = f"Element-wise comparison `{name}` giving a bool tile."
    sf = surface("elementwise")(stub)
    sf.rule(lambda ctx, x, y: compare(ctx, fn, x, y))
    return sf


equal = _cmp_surface("equal")
not_equal = _cmp_surface("not_equal")
less = _cmp_surface("less")
less_equal = _cmp_surface("less_equal")
greater = _cmp_surface("greater")
greater_equal = _cmp_surface("greater_equal")


# ---- conversions -----------------------------------------------------------

@surface("elementwise")
def astype(x, dtype, /, *, rounding_mode=None):
    """Convert every element to `dtype` (float→int truncates toward zero; to fp8 rounds to nearest even)."""


@astype.rule
def _(ctx, x, dtype, rounding_mode):
    dt = require_dtype(ctx, dtype)
    rm = None if rounding_mode is None else const_enum(ctx, rounding_mode, RoundingMode, "rounding_mode")
    v = tile_operand(ctx, x, "x")
    return convert(ctx, v, dt, rm)


@surface("elementwise")
def cdiv(x, y, /):
    """Ceiling division `(x + y - 1) // y` for integers."""


@cdiv.rule
def _(ctx, x, y):
    if not is_tile(x) and not is_tile(y):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
            raise ctx.type_error("cdiv() needs integer operands")
        if y == 0:
            raise ctx.value_error("cdiv() division by zero")
        return -(-x // y)
    dtype = common_dtype(ctx, x, y)
    if not dtype.is_int:
        raise ctx.type_error(f"cdiv() needs integer operands, got {dtype}")
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    return ctx.emit1("binary", [vx, vy], TileType(dtype, shape), fn="cdiv")


def _describe(x):
    from ..passes.infer import describe
    return describe(x)
