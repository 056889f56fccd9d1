"""Element-wise unary math (exp, sqrt, sin, abs, ...), bitwise not, isnan, and unary operators.

Each function states what it does with bool, integer and float inputs, as upstream:
transcendental functions promote bools and integers to float32, floor/ceil accept
floats only, negation turns bools into int32, bitwise not rejects floats.
"""
from __future__ import annotations

import math as pymath

from .. import dtypes as D
from ..ir.types import TileType
from ..semantics import arithmetic
from ..semantics.functions import UNARY as UNARY_FNS
from .common import const_bool, convert, is_tile
from .elementwise import UNARY, check_rounding, fold, function_stub, given_fp_attrs, operand, rounding_mode_arg
from .registry import surface

_KIND_WORDS = ("Boolean", "Integer", "Float")


def _invert_operator(x):
    if isinstance(x, bool):
        raise TypeError("`~` on boolean constant is not supported, please use ct.bitwise_not")
    return ~x


def unary(ctx, fn: str, behavior, x, rounding_mode=None, flush_to_zero=False, pyfn=None):
    """Apply unary `fn` following `behavior` for bool/int/float inputs (folding constants)."""
    operand(ctx, x, "x")
    pyfn = pyfn or UNARY_FNS[fn].fold
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
    return ctx.emit1("unary", [x], ty, fn=fn, **given_fp_attrs(rounding_mode, flush_to_zero))


def unary_surface(row):
    """Declare `ct.<row.surface>(x, /, **kwargs)` for a unary function-table row."""
    sf = surface("math", static=row.static)(function_stub(row.surface, row.doc, ("x",), row.kwargs))
    fn, behavior = row.name, row.inputs

    def rule(ctx, x, rounding_mode=None, flush_to_zero=False):
        rm = rounding_mode_arg(ctx, rounding_mode)
        ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
        return unary(ctx, fn, behavior, x, rm, ftz)
    sf.rule(rule)
    return sf


for _row in UNARY_FNS.values():
    unary_surface(_row)

# The functions of semantics/functions.py itself: a transpiled module carries that table whole.
_LIBRARY_FUNCTIONS = frozenset(UNARY_FNS)


def declare_unary(row):
    """A new unary function: its function-table row, and the `cuda.tile` surface made from it."""
    if row.name in UNARY_FNS:
        raise ValueError(f"unary function {row.name!r} exists already")
    UNARY_FNS[row.name] = row
    return unary_surface(row)


def invert(ctx, x):
    """The `~` operator: as bitwise_not, except that `~` on a loose Python bool is an error
    (a typed bool tile, constant or not, is fine)."""
    return unary(ctx, "not", UNARY_FNS["not"].inputs, x,
                 pyfn=UNARY_FNS["not"].fold if is_tile(x) else _invert_operator)


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


# ---- rules ------------------------------------------------------------------------
# (the numerics, shared with transpiled modules, are semantics/arithmetic.py `unary`)

@UNARY.numpy
def _(ex, op, x):
    return arithmetic.unary(x, op.attrs["fn"], op.results[0].type.dtype, op.attrs["rounding_mode"],
                   op.attrs["flush_to_zero"])


@UNARY.fold
def _(attrs, x):
    return UNARY_FNS[attrs["fn"]].fold(x)


@UNARY.transpile
def _(w, op):
    dt = op.results[0].type.dtype
    x = w.name(op.operands[0])
    fn = op.attrs["fn"]
    if fn not in _LIBRARY_FUNCTIONS:
        raise w.unsupported(op, f"unary function '{fn}' is not in tilescope/semantics/functions.py, the table "
                                f"transpiled modules carry")
    if fn == "not" and dt.is_bool:
        w.assign(op, f"np.logical_not({x})")
    elif fn == "neg" and dt.is_int:
        w.assign(op, f"-{x}")
    else:
        w.call(op, "unary", x, **w.attrs(op, "fn", "rounding_mode", "flush_to_zero"), dtype=dt)
