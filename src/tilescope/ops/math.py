"""Element-wise unary math (exp, sqrt, sin, abs, ...), bitwise not, isnan, and unary operators.

Each function states what it does with bool, integer and float inputs, as upstream:
transcendental functions promote bools and integers to float32, floor/ceil accept
floats only, negation turns bools into int32, bitwise not rejects floats.
"""
from __future__ import annotations

import builtins
import math as pymath

from .. import dtypes as D
from ..ir.types import TileType
from .common import const_bool, convert, is_tile
from .elementwise import check_rounding, fold, operand, rounding_mode_arg
from .registry import primitive, surface

primitive("unary", "Element-wise `fn` of one operand; result has the operand's type. fn: abs, neg, exp, "
                   "exp2, log, log2, sqrt, rsqrt, sin, cos, tan, sinh, cosh, tanh, floor, ceil, not "
                   "(bitwise complement; logical not on bool). Optional attrs: rounding_mode, "
                   "flush_to_zero.")

# What happens to bool / integer / float inputs: "float" converts to float32,
# "int" to int32, "keep" leaves the dtype, None rejects the input.
FLOAT = ("float", "float", "keep")
STRICT_FLOAT = (None, None, "keep")
INT_FLOAT = ("int", "keep", "keep")
BOOL_INT = ("keep", "keep", None)
ANYTHING = ("keep", "keep", "keep")

_KIND_WORDS = ("Boolean", "Integer", "Float")


def _bitwise_not(x):
    return (not x) if isinstance(x, bool) else ~x


def _invert_operator(x):
    if isinstance(x, bool):
        raise TypeError("`~` on boolean constant is not supported, please use ct.bitwise_not")
    return ~x


# Python evaluation of each fn on constants.
_PY = {"abs": builtins.abs, "neg": lambda x: -x, "exp": pymath.exp, "exp2": lambda x: 2 ** x,
       "log": pymath.log, "log2": pymath.log2, "sqrt": pymath.sqrt, "rsqrt": lambda x: x ** -0.5,
       "sin": pymath.sin, "cos": pymath.cos, "tan": pymath.tan, "sinh": pymath.sinh,
       "cosh": pymath.cosh, "tanh": pymath.tanh, "floor": pymath.floor, "ceil": pymath.ceil,
       "not": _bitwise_not}


def unary(ctx, fn: str, behavior, x, rounding_mode=None, flush_to_zero=False, pyfn=None):
    """Apply unary `fn` following `behavior` for bool/int/float inputs (folding constants)."""
    operand(ctx, x, "x")
    pyfn = pyfn or _PY[fn]
    if not is_tile(x):
        return fold(ctx, pyfn, x)
    dt = x.type.dtype
    kind = 0 if dt.is_bool else 1 if dt.is_int else 2
    handling = behavior[kind]
    if handling is None:
        raise ctx.type_error(f"{_KIND_WORDS[kind]} inputs are not supported")
    if handling == "float":
        x = convert(ctx, x, D.DEFAULT_FLOAT)
    elif handling == "int":
        x = convert(ctx, x, D.DEFAULT_INT)
    ty = x.type
    if x.const is not None and not ty.shape:
        return ctx.constant(fold(ctx, pyfn, x.const), ty.dtype)
    check_rounding(ctx, fn, rounding_mode, flush_to_zero, ty.dtype)
    attrs = {"fn": fn}
    if rounding_mode is not None:
        attrs["rounding_mode"] = rounding_mode
    if flush_to_zero:
        attrs["flush_to_zero"] = True
    return ctx.emit1("unary", [x], ty, **attrs)


def _unary_surface(name, fn, behavior, doc, kwargs=()):
    """Declare `ct.<name>(x, /, *kwargs)` with kwargs among rounding_mode, flush_to_zero."""
    if kwargs == ("rounding_mode",):
        def stub(x, /, *, rounding_mode=None):
            pass
    elif kwargs == ("flush_to_zero",):
        def stub(x, /, *, flush_to_zero=False):
            pass
    elif kwargs == ("rounding_mode", "flush_to_zero"):
        def stub(x, /, *, rounding_mode=None, flush_to_zero=False):
            pass
    else:
        def stub(x, /):
            pass
    stub.__name__ = name
    stub.__doc__ = doc
    sf = surface("math")(stub)

    def rule(ctx, x, rounding_mode=None, flush_to_zero=False):
        rm = rounding_mode_arg(ctx, rounding_mode)
        ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
        return unary(ctx, fn, behavior, x, rm, ftz)
    sf.rule(rule)
    return sf


_TO_FLOAT = " Bool and integer inputs are converted to float32 first."
exp = _unary_surface("exp", "exp", FLOAT, "Element-wise e**x (rounding_mode FULL or APPROX, float32 only)."
                     + _TO_FLOAT, ("rounding_mode",))
exp2 = _unary_surface("exp2", "exp2", FLOAT, "Element-wise 2**x." + _TO_FLOAT, ("flush_to_zero",))
log = _unary_surface("log", "log", FLOAT, "Element-wise natural logarithm." + _TO_FLOAT)
log2 = _unary_surface("log2", "log2", FLOAT, "Element-wise base-2 logarithm." + _TO_FLOAT)
sqrt = _unary_surface("sqrt", "sqrt", FLOAT, "Element-wise square root." + _TO_FLOAT,
                      ("rounding_mode", "flush_to_zero"))
rsqrt = _unary_surface("rsqrt", "rsqrt", FLOAT, "Element-wise 1 / sqrt(x)." + _TO_FLOAT, ("flush_to_zero",))
sin = _unary_surface("sin", "sin", FLOAT, "Element-wise sine (radians)." + _TO_FLOAT)
cos = _unary_surface("cos", "cos", FLOAT, "Element-wise cosine (radians)." + _TO_FLOAT)
tan = _unary_surface("tan", "tan", FLOAT, "Element-wise tangent (radians)." + _TO_FLOAT)
sinh = _unary_surface("sinh", "sinh", FLOAT, "Element-wise hyperbolic sine." + _TO_FLOAT)
cosh = _unary_surface("cosh", "cosh", FLOAT, "Element-wise hyperbolic cosine." + _TO_FLOAT)
tanh = _unary_surface("tanh", "tanh", FLOAT, "Element-wise hyperbolic tangent (rounding_mode FULL or "
                                             "APPROX, float32 only)." + _TO_FLOAT, ("rounding_mode",))
floor = _unary_surface("floor", "floor", STRICT_FLOAT, "Element-wise round toward -inf (float tiles only).")
ceil = _unary_surface("ceil", "ceil", STRICT_FLOAT, "Element-wise round toward +inf (float tiles only).")
abs = _unary_surface("abs", "abs", ANYTHING, "Element-wise absolute value (any dtype; also builtin abs()).")
negative = _unary_surface("negative", "neg", INT_FLOAT, "Element-wise `-x`; a bool tile becomes int32 first.")
bitwise_not = _unary_surface("bitwise_not", "not", BOOL_INT,
                             "Element-wise `~x` on integers; logical not on bools. Floats are rejected.")


def invert(ctx, x):
    """The `~` operator: as bitwise_not, except that `~` on a loose Python bool is an error
    (a typed bool tile, constant or not, is fine)."""
    return unary(ctx, "not", BOOL_INT, x, pyfn=_bitwise_not if is_tile(x) else _invert_operator)


@surface("math")
def isnan(x, /):
    """Element-wise test for NaN, giving bool (float tiles or Python numbers)."""


@isnan.rule
def _(ctx, x):
    operand(ctx, x, "x")
    if not is_tile(x):
        return fold(ctx, pymath.isnan, x)
    ty = x.type
    if not ty.dtype.is_float:
        raise ctx.type_error(f"Unexpected input type {ty}")
    if x.const is not None and not ty.shape:
        return ctx.constant(pymath.isnan(x.const), D.bool_)
    # NaN is the only value that differs from itself.
    return ctx.emit1("compare", [x, x], TileType(D.bool_, ty.shape), fn="ne")


# ---- Python unary operators on tiles ----------------------------------------

def logical_not(ctx, x):
    """`not x` on a tile: element-wise, after converting to bool."""
    if not is_tile(x):
        return not x
    v = convert(ctx, x, D.bool_)
    if v.const is not None and not v.type.shape:
        return ctx.constant(not v.const, D.bool_)
    return ctx.emit1("unary", [v], v.type, fn="not")


def unary_plus(ctx, x):
    """`+x` on a tile: a bool tile becomes int32, other tiles are unchanged."""
    if not is_tile(x):
        return +x
    if x.type.dtype.is_bool:
        return convert(ctx, x, D.DEFAULT_INT)
    return x


# ---- CPU executor rule -------------------------------------------------------------
# (the numerics, shared with transpiled modules, are in backends/numpy/numerics.py `unary`)

from .registry import numpy_rule  # noqa: E402


@numpy_rule("unary")
def _(ex, op, x):
    from ..backends.numpy import numerics as N
    return N.unary(x, op.attrs["fn"], op.results[0].type.dtype, op.attrs.get("rounding_mode"),
                   op.attrs.get("flush_to_zero", False))
