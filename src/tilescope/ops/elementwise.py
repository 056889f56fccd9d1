"""Element-wise binary operations: arithmetic, comparisons, bitwise ops, `where`, conversions.

Typing follows cuTile 1.7.0: loose Python numbers adapt to the typed operand they
meet, typed operands promote (see `dtypes.promote`), shapes broadcast NumPy-style,
and operations on compile-time constants fold to constants.
"""
from __future__ import annotations

import builtins
import inspect
import math
import operator

from .. import dtypes as D
from ..backends.numpy import widened
from ..enums import RoundingMode
from ..ir.primitive import BOOL, NUMBER, STR, one_of
from ..ir.types import TileType
from ..semantics import arithmetic, numerics, shapes
from ..semantics.functions import BINARY as BINARY_FNS, COMPARE as COMPARE_FNS, UNARY as UNARY_FNS
from .bridge import translate
from .common import (broadcast_shapes, coerce, common_dtype, const_bool, convert, describe, expect,
                     is_number, is_tile, require_bytecode, require_dtype, same_as_operand, shape_of, target_version,
                     tile_operand, tile_type)
from .registry import DTYPE, METHODS, ROUNDING, SURFACE, Attr, method, no_rule, optional, primitive, surface

# rounding_mode and flush_to_zero, as every float op that takes them declares them.
FP_ATTRS = {"rounding_mode": optional(ROUNDING), "flush_to_zero": Attr(BOOL, False)}

BINARY = primitive(
    "binary", "Element-wise `fn` on two operands of the same type and shape. Arithmetic: add, sub, "
    "mul, truediv, floordiv (rounds toward -inf), cdiv (rounds toward +inf), mod (sign of "
    "the divisor, as Python), pow, atan2, max, min (NaN ignored unless `propagate_nan`); "
    "integer ops wrap. Bitwise on ints/bools: and, or, xor, lshift, rshift (arithmetic for "
    "signed, logical for unsigned). Optional attrs: rounding_mode, flush_to_zero.",
    operands=("x", "y"), traits=("elementwise",),
    attrs={"fn": Attr(one_of(BINARY_FNS)), **FP_ATTRS, "propagate_nan": Attr(BOOL, False),
           "no_lowering": optional(STR, "why upstream cannot lower this live op (raised after DCE)"),
           "exponent": optional(STR, "pow only: the integer dtype the exponent had before conversion, where "
                                     "TileIR raises to an integer power (fpowi)")})
COMPARE = primitive(
    "compare", "Element-wise comparison `fn` (eq, ne, lt, le, gt, ge) of two same-typed operands, "
    "giving bool (ordered: comparisons with NaN are false, except ne).",
    operands=("x", "y"), traits=("elementwise",), attrs={"fn": Attr(one_of(COMPARE_FNS))})
UNARY = primitive(
    "unary", "Element-wise `fn` of one operand; result has the operand's type. fn: abs, neg, exp, "
    "exp2, log, log2, sqrt, rsqrt, sin, cos, tan, sinh, cosh, tanh, floor, ceil, not "
    "(bitwise complement; logical not on bool). Optional attrs: rounding_mode, flush_to_zero.",
    operands=("x",), traits=("elementwise",), attrs={"fn": Attr(one_of(UNARY_FNS)), **FP_ATTRS})
FMA = primitive(
    "fma", "Fused multiply-add `operands[0] * operands[1] + operands[2]` with a single rounding "
    "(made by the fma pass from float mul + add/sub). Optional attrs: rounding_mode, flush_to_zero.",
    operands=("x", "y", "acc"), traits=("elementwise",), attrs=dict(FP_ATTRS))
ASTYPE = primitive(
    "astype", "Element-wise conversion to `dtype` (float→int truncates toward zero, to bool is "
    "`!= 0`); float→float rounds per `rounding_mode` (default nearest-even).",
    operands=("x",), traits=("elementwise",), attrs={"dtype": Attr(DTYPE), "rounding_mode": optional(ROUNDING)})
WHERE = primitive("where", "Element-wise select: operand 0 (bool) ? operand 1 : operand 2, all of one shape.",
                  operands=("cond", "x", "y"), traits=("elementwise",))
CONST = primitive("const", "A compile-time scalar constant.", attrs={"value": Attr(NUMBER)})
BROADCAST = primitive("broadcast", "Broadcast to the result shape (size-1 axes repeat).", operands=("x",))
RESHAPE = primitive("reshape", "Same elements in row-major order, new shape.", operands=("x",))


# ---- rounding mode / flush-to-zero rules -----------------------------------

def _function(fn: str):
    """The function table's row for a unary or binary `fn` (their names are distinct)."""
    return UNARY_FNS.get(fn) or BINARY_FNS[fn]


def given_fp_attrs(rounding_mode=None, flush_to_zero=False, propagate_nan=False) -> dict:
    """rounding_mode / flush_to_zero / propagate_nan as ops record them: only those set."""
    return {k: v for k, v in (("rounding_mode", rounding_mode), ("flush_to_zero", flush_to_zero),
                              ("propagate_nan", propagate_nan)) if v is not None and v is not False}


def rounding_mode_arg(ctx, rounding_mode):
    """An optional constant RoundingMode (a member name string is accepted, as upstream)."""
    if rounding_mode is None:
        return None
    rm = translate(ctx.require_constant(rounding_mode, "rounding_mode"))
    if isinstance(rm, str) and rm in RoundingMode.__members__:
        return RoundingMode[rm]
    if not isinstance(rm, RoundingMode):
        raise ctx.type_error(f"Expected RoundingMode, but given value is {describe(rm)}")
    return rm


def check_rounding(ctx, fn: str, rm, ftz: bool, dtype: D.DType) -> None:
    """Whether `fn` on `dtype` accepts this rounding mode and flush-to-zero flag."""
    row = _function(fn)
    if rm is not None:
        if rm.name not in row.rounding:
            raise ctx.type_error(f"Rounding mode {rm.value} is not supported for {fn}")
        if row.rounding[rm.name] is not None:
            require_bytecode(ctx, row.rounding[rm.name], f"{fn} rounding_mode={rm.value}")
        if not dtype.is_float or dtype.is_restricted:
            raise ctx.type_error(f"Rounding mode can only be used for unrestricted float types, "
                                 f"but got {dtype}")
        if rm in (RoundingMode.APPROX, RoundingMode.FULL) and dtype is not D.float32:
            raise ctx.type_error(f"Rounding mode {rm.value} can only be used for float32 type, "
                                 f"but got {dtype}")
    if ftz:
        if not row.ftz:
            raise ctx.type_error(f"Flush to zero is not supported for {fn}")
        if dtype is not D.float32:
            raise ctx.type_error(f"Flush to zero can only be used for float32 type, but got {dtype}")


# ---- operands and constant folding ----------------------------------------

def operand(ctx, x, what: str = "operand"):
    """A tile or a loose Python number; anything else is a type error."""
    if is_tile(x) or is_number(x):
        return x
    raise ctx.type_error(f"Expected a tile for {what}, but given value is {describe(x)}")


def dtype_of(x) -> D.DType:
    """The dtype of a tile, or the dtype a loose number takes on its own."""
    return x.type.dtype if is_tile(x) else D.literal_dtype(x)


def fold(ctx, pyfn, *args):
    """Evaluate a Python function on constants, turning Python errors into located Tile errors."""
    try:
        return pyfn(*args)
    except (ZeroDivisionError, ValueError, OverflowError) as ex:
        raise ctx.value_error(str(ex)) from None
    except TypeError as ex:
        raise ctx.type_error(str(ex)) from None


def _both_constant(vx, vy) -> bool:
    return vx.const is not None and vy.const is not None and not vx.type.shape


# ---- arithmetic --------------------------------------------------------------

def binary_arith(ctx, fn: str, x, y, rounding_mode=None, flush_to_zero=False, propagate_nan=False):
    """Promote, broadcast and apply arithmetic `fn` (folding constants)."""
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    for side, v in (("Left-hand side", x), ("Right-hand side", y)):
        if not dtype_of(v).is_arithmetic:
            raise ctx.type_error(f"{side} has non-arithmetic dtype {dtype_of(v)}")
    if not is_tile(x) and not is_tile(y):
        return fold(ctx, BINARY_FNS[fn].fold, x, y)
    dtype = common_dtype(ctx, x, y, force_float=(fn == "truediv"))
    if dtype.is_bool:
        raise ctx.type_error(f"Binary arithmetic op `{fn}` does not support bool, please cast bool to int")
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if _both_constant(vx, vy):
        return ctx.constant(fold(ctx, BINARY_FNS[fn].fold, vx.const, vy.const), dtype)
    check_rounding(ctx, fn, rounding_mode, flush_to_zero, dtype)
    attrs = {"fn": fn}
    exponent = integer_exponent(ctx, x, y, dtype) if fn == "pow" else None
    if exponent is not None:
        attrs["exponent"] = exponent.name
    if ("float" if dtype.is_float else "int") in BINARY_FNS[fn].unlowered:
        # Upstream fails only when lowering a live op (dead ones are gone by then, and typing
        # errors further down come first): record it; compile() raises it after DCE.
        attrs["no_lowering"] = (f"Missing binary arithmetic implementation for {fn}, "
                                f"{'float' if dtype.is_float else 'int'}")
    return ctx.emit1("binary", [vx, vy], TileType(dtype, shape), **attrs,
                     **given_fp_attrs(rounding_mode, flush_to_zero, propagate_nan))


def integer_exponent(ctx, x, y, dtype: D.DType):
    """For `x ** y` with an integer y, the dtype upstream gives the exponent of an integer power
    (TileIR's fpowi, from bytecode 13.4): the narrowest of int8/int16/int32 holding every value
    of y's dtype, where x is an unrestricted float (not two Python numbers: those fold). None
    where it converts y to float instead."""
    xd, yd = dtype_of(x), dtype_of(y)
    if target_version(ctx) < (13, 4) or not (xd.is_float and not xd.is_restricted) or xd is not dtype \
            or not yd.is_int:
        return None
    return next((c for c in (D.int8, D.int16, D.int32) if c.min <= yd.min and yd.max <= c.max), None)


def _arith_rule(fn: str, kwargs):
    """The typing rule of an arithmetic surface taking `kwargs` (rounding or NaN handling)."""
    if kwargs == ("rounding_mode", "flush_to_zero"):
        def rule(ctx, x, y, rounding_mode, flush_to_zero):
            rm = rounding_mode_arg(ctx, rounding_mode)
            ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
            return binary_arith(ctx, fn, x, y, rm, ftz)
    elif kwargs == ("flush_to_zero", "propagate_nan"):
        def rule(ctx, x, y, flush_to_zero, propagate_nan):
            ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
            pn = const_bool(ctx, propagate_nan, "propagate_nan")
            return binary_arith(ctx, fn, x, y, None, ftz, pn)
    else:
        def rule(ctx, x, y):
            return binary_arith(ctx, fn, x, y)
    return rule


_KWARG_DEFAULTS = {"rounding_mode": None, "flush_to_zero": False, "propagate_nan": False}


def function_stub(name: str, doc: str, params, kwargs=()):
    """A stub `def name(*params, /, *, **kwargs)` for a function-table surface."""
    positional = [inspect.Parameter(p, inspect.Parameter.POSITIONAL_ONLY) for p in params]
    keywords = [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=_KWARG_DEFAULTS[k]) for k in kwargs]

    def stub(*args, **kw):
        pass
    stub.__name__, stub.__qualname__, stub.__doc__ = name, name, doc
    stub.__signature__ = inspect.Signature(positional + keywords)
    return stub


def binary_surface(row):
    """Declare `ct.<row.surface>(x, y, /, **kwargs)` for a binary function-table row."""
    sf = surface("elementwise", static=row.static)(function_stub(row.surface, row.doc, ("x", "y"), row.kwargs))
    fn = row.name
    if row.form == "arith":
        sf.rule(_arith_rule(fn, row.kwargs))
    else:
        rule_fn = bitwise if row.form == "bitwise" else shift
        sf.rule(lambda ctx, x, y: rule_fn(ctx, fn, x, y))
    return sf


def _non_bool_pair(ctx, x, y, message):
    """Both operands checked, and not both bool (`message` otherwise)."""
    operand(ctx, x), operand(ctx, y)
    if dtype_of(x).is_bool and dtype_of(y).is_bool:
        raise ctx.type_error(message)


@surface("elementwise", static=True)
def mod(x, y, /):
    """Element-wise `x % y`; the result has the sign of `y` (Python semantics)."""


@mod.rule
def _(ctx, x, y):
    _non_bool_pair(ctx, x, y, "Modulo operation does not support bool")
    return binary_arith(ctx, "mod", x, y)


@surface("elementwise", static=True)
def divmod(x, y, /):
    """`(x // y, x % y)` element-wise, for integer operands."""


@divmod.rule
def _(ctx, x, y):
    _non_bool_pair(ctx, x, y, "divmod() operation does not support bool")
    if not is_tile(x) and not is_tile(y):
        return fold(ctx, builtins.divmod, x, y)
    dtype = common_dtype(ctx, x, y)
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if _both_constant(vx, vy):
        return (ctx.constant(fold(ctx, operator.floordiv, vx.const, vy.const), dtype),
                ctx.constant(fold(ctx, operator.mod, vx.const, vy.const), dtype))
    if dtype.is_float:
        raise ctx.type_error("divmod() is not implemented for floating point values")
    ty = TileType(dtype, shape)
    return (ctx.emit1("binary", [vx, vy], ty, fn="floordiv"), ctx.emit1("binary", [vx, vy], ty, fn="mod"))


# ---- comparisons -----------------------------------------------------------

def compare(ctx, fn: str, x, y):
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    if not is_tile(x) and not is_tile(y):
        return COMPARE_FNS[fn].fold(x, y)
    dtype = common_dtype(ctx, x, y)
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if _both_constant(vx, vy):
        return ctx.constant(COMPARE_FNS[fn].fold(vx.const, vy.const), D.bool_)
    return ctx.emit1("compare", [vx, vy], TileType(D.bool_, shape), fn=fn)


def compare_surface(row):
    """Declare `ct.<row.surface>(x, y, /)` for a comparison row."""
    sf = surface("elementwise", static=row.static)(function_stub(row.surface, row.doc, ("x", "y")))
    fn = row.name
    sf.rule(lambda ctx, x, y: compare(ctx, fn, x, y))
    return sf


# ---- bitwise ---------------------------------------------------------------

def bitwise(ctx, fn: str, x, y):
    """and / or / xor on integers or bools of one dtype (a loose constant may adapt)."""
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    if not is_tile(x) and not is_tile(y):
        return fold(ctx, BINARY_FNS[fn].fold, x, y)
    dx, dy = dtype_of(x), dtype_of(y)
    if not D.is_integral(dx) or not D.is_integral(dy):
        raise ctx.type_error("Bitwise operations require integers or booleans. "
                             "Use an explicit cuda.tile.bitcast() for non-integer operands.")
    if is_tile(x) == is_tile(y) and dx is not dy:
        raise ctx.type_error(f"Bitwise operands must have same data type, got: {dx} and {dy}")
    if {dx, dy} == {D.bool_, D.int8}:
        raise ctx.type_error("Bitwise op does not support bool and int8")
    return _integer_binary(ctx, fn, x, y)


def shift(ctx, fn: str, x, y):
    """lshift / rshift: both operands integers (not bool), promoted together."""
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    if not is_tile(x) and not is_tile(y):
        return fold(ctx, BINARY_FNS[fn].fold, x, y)
    for side, v in (("left", x), ("right", y)):
        if not dtype_of(v).is_int:
            raise ctx.type_error(f"Bitwise shift requires an integer for {side}-hand side, "
                                 f"got: {dtype_of(v)}")
    return _integer_binary(ctx, fn, x, y)


def _integer_binary(ctx, fn, x, y):
    dtype = common_dtype(ctx, x, y)
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if _both_constant(vx, vy):
        return ctx.constant(fold(ctx, BINARY_FNS[fn].fold, vx.const, vy.const), dtype)
    return ctx.emit1("binary", [vx, vy], TileType(dtype, shape), fn=fn)


for _row in BINARY_FNS.values():
    if _row.form is not None:
        binary_surface(_row)
for _row in COMPARE_FNS.values():
    compare_surface(_row)
# `ct.cdiv(7, 2)` in ordinary Python computes on ints, as upstream's does.
SURFACE["cdiv"].host = BINARY_FNS["cdiv"].fold


# ---- where -----------------------------------------------------------------

@surface("elementwise")
def where(cond, x, y, /):
    """Element-wise `x if cond else y`; `cond` (converted to bool) and both branches broadcast."""


@where.rule
def _(ctx, cond, x, y):
    operand(ctx, cond, "cond"), operand(ctx, x, "x"), operand(ctx, y, "y")
    dtype = common_dtype(ctx, x, y)
    shape = broadcast_shapes(ctx, shape_of(cond), broadcast_shapes(ctx, shape_of(x), shape_of(y)))
    vc = coerce(ctx, cond, D.bool_, shape)
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    return ctx.emit1("where", [vc, vx, vy], TileType(dtype, shape))


# ---- conversions -----------------------------------------------------------

def cast(ctx, x, dtype: D.DType, rounding_mode=None):
    """Convert without checks (upstream's internal astype): a loose number of that dtype stays loose."""
    if is_number(x):
        if D.literal_dtype(x) is dtype:
            return x
        if rounding_mode is None:
            return ctx.constant(x, dtype)
    return convert(ctx, tile_operand(ctx, x), dtype, rounding_mode)


_F = (D.float64, D.float32, D.tfloat32, D.float16, D.bfloat16, D.float8_e5m2, D.float8_e8m0fnu,
      D.float8_e4m3fn, D.float4_e2m1fn, D.float8_e5m3fnu)
_V134 = (13, 4)


def float_conversion_modes(src: D.DType, dst: D.DType) -> dict:
    """Rounding modes a float→float conversion accepts, each with its minimum bytecode version."""
    rm = RoundingMode
    modes = {}
    if dst is D.float8_e5m3fnu:
        modes[rm.RN] = _V134
    elif dst is not D.float8_e8m0fnu:
        modes[rm.RN] = None
    if dst in (D.float64, D.float32, D.tfloat32, D.float16, D.bfloat16):
        modes[rm.RZ] = _V134
    # Narrow sources can't round down/up/away into f16; e8m0 can't into f32 either.
    no_f16 = (D.float64, D.float32, D.tfloat32, D.float8_e8m0fnu, D.float8_e5m3fnu)
    e8m0_slow = (D.float64, D.float8_e5m2, D.float8_e4m3fn)
    if dst is D.float8_e8m0fnu:
        modes[rm.RZ] = _V134 if src in e8m0_slow else (13, 3)
    for mode in (rm.RM, rm.RP):
        if dst is D.float64 or (dst is D.float32 and src is not D.float8_e8m0fnu) \
                or (dst is D.float16 and src not in no_f16):
            modes[mode] = _V134
    if dst is D.float8_e8m0fnu:
        modes[rm.RP] = _V134 if src in e8m0_slow else (13, 3)
    if dst is D.float64 or (dst in (D.float32, D.tfloat32) and src not in (D.float64, D.float8_e8m0fnu)) \
            or (dst is D.float16 and src not in no_f16):
        modes[rm.RA] = _V134
    return modes


@surface("elementwise")
def astype(x, dtype, /, *, rounding_mode=None):
    """Convert every element to `dtype` (float→int truncates toward zero, to bool is `!= 0`).

    `rounding_mode` applies to float→float conversions only; which modes are
    available depends on the source and target dtypes.
    """


@astype.rule
def _(ctx, x, dtype, rounding_mode):
    operand(ctx, x, "x")
    dt = require_dtype(ctx, dtype)
    rm = rounding_mode_arg(ctx, rounding_mode)
    src = dtype_of(x)
    is_ftof = src.is_float and dt.is_float
    if rm is not None and not is_ftof:
        raise ctx.type_error("rounding_mode is only valid for float to float conversions")
    if src is dt:
        return x
    if is_ftof:
        modes = float_conversion_modes(src, dt)
        mode = RoundingMode.RN if rm is None else rm
        if mode not in modes:
            raise ctx.type_error(f"rounding_mode={mode} is not supported for conversion from {src} to "
                                 f"{dt}; supported rounding modes for this conversion are "
                                 f"{', '.join(m.name for m in modes)}")
        if modes[mode] is not None:
            require_bytecode(ctx, modes[mode], "This conversion with this rounding_mode")
        if mode is RoundingMode.RN:
            rm = None       # the default
    return cast(ctx, x, dt, rm)


if (TileType, "astype") not in METHODS:
    method(TileType, "astype", astype)


@surface("elementwise")
def bitcast(x, /, dtype):
    """Reinterpret the bits of every element as `dtype`, which must have the same bit width."""


@bitcast.rule
def _(ctx, x, dtype):
    v = tile_operand(ctx, operand(ctx, x, "x"), "x")
    dt = require_dtype(ctx, dtype)
    src = v.type.dtype
    if src.is_bool or dt.is_bool:
        raise ctx.type_error(f"Cannot bitcast from {src} to {dt}: bitcast to or from bool is not supported")
    if src.bitwidth != dt.bitwidth:
        raise ctx.type_error(f"Cannot bitcast from {src} to {dt}: bit width is different "
                             f"({src.bitwidth} vs. {dt.bitwidth})")
    if src is dt:
        return v
    return ctx.emit1("bitcast", [v], TileType(dt, v.type.shape), dtype=dt)


# ---- rules ----------------------------------------------------------------------------
# NumPy: values carry a leading block axis (size B, or 1 when uniform); every rule here is
# element-wise, so NumPy broadcasting handles mixed leading sizes. GPU-exact numerics live in
# the semantics library (semantics/numerics.py, arithmetic.py). Transpile: an op becomes a
# plain NumPy expression where that is exactly the executor's rule, else a call of the
# prelude function of the op's name.

def _result_dtype(op):
    return op.results[0].type.dtype


def _same_dtypes(op) -> bool:
    return len({v.type.dtype for v in list(op.operands) + list(op.results)}) == 1


@CONST.numpy
def _(ex, op):
    return shapes.const(op.attrs["value"], _result_dtype(op))


@CONST.transpile
def _(w, op):
    dt = _result_dtype(op)
    if w.is_native(dt):
        w.assign(op, f"np.array([{w.literal(op.attrs['value'])}], dtype={w.np_dtype(dt)})")
    else:
        w.call(op, "const", w.literal(op.attrs["value"]), w.literal(dt))


@BROADCAST.numpy
def _(ex, op, x):
    return shapes.broadcast(x, op.results[0].type.shape)


@RESHAPE.numpy
def _(ex, op, x):
    return shapes.reshape(x, op.results[0].type.shape)


@BROADCAST.transpile
@RESHAPE.transpile
def _(w, op):
    w.call(op, op.name, w.name(op.operands[0]), w.literal(tuple(op.results[0].type.shape)))


@ASTYPE.numpy
def _(ex, op, x):
    if not ex.checks.poison and id(op) in widened.sites(ex.fn):
        return numerics.f16_values(x)          # only mma reads it: float16 values kept in float32
    return numerics.convert(x, op.operands[0].type.dtype, op.attrs["dtype"], op.attrs["rounding_mode"])


@ASTYPE.transpile
def _(w, op):
    src, dst = op.operands[0].type.dtype, op.attrs["dtype"]
    x = w.name(op.operands[0])
    if src is dst:
        w.assign(op, x)
    else:
        w.call(op, "astype", x, w.literal(src), w.literal(dst), **w.attrs(op, "rounding_mode"))


@WHERE.numpy
def _(ex, op, cond, x, y):
    import numpy as np
    dt = _result_dtype(op).numpy
    # A condition that holds (or fails) everywhere picks one side whole: no pass over the data
    # when that side already has the result's shape (a mask of the columns inside the array).
    for pick, side in ((True, x), (False, y)):
        side = np.asarray(side)
        if side.dtype == dt and side.shape == np.broadcast_shapes(np.shape(cond), np.shape(x), np.shape(y)) \
                and (cond.all() if pick else not cond.any()):
            return side
    return np.where(cond, x, y).astype(dt, copy=False)


@WHERE.transpile
def _(w, op):
    dt = _result_dtype(op)
    if op.operands[1].type.dtype is dt and op.operands[2].type.dtype is dt:
        w.assign(op, f"np.where({w.args(op.operands)})")
    else:
        w.call(op, "where", w.args(op.operands), dtype=dt)


@COMPARE.numpy
def _(ex, op, x, y):
    return arithmetic.compare(x, y, op.attrs["fn"], op.operands[0].type.dtype)


_COMPARE_OPERATOR = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@COMPARE.transpile
def _(w, op):
    dt = op.operands[0].type.dtype
    x, y = (w.name(v) for v in op.operands)
    if w.is_native(dt) and op.operands[1].type.dtype is dt:
        w.assign(op, f"{x} {_COMPARE_OPERATOR[op.attrs['fn']]} {y}")
    else:
        w.call(op, "compare", x, y, fn=op.attrs["fn"], dtype=dt)


@BINARY.numpy
def _(ex, op, x, y):
    a = op.attrs
    return arithmetic.binary(x, y, a["fn"], _result_dtype(op), a["rounding_mode"], a["flush_to_zero"],
                         a["propagate_nan"])


_FLOAT_OPERATOR = {"add": "+", "sub": "-", "mul": "*", "truediv": "/"}
_INT_OPERATOR = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^"}


@BINARY.transpile
def _(w, op):
    dt, fn = _result_dtype(op), op.attrs["fn"]
    x, y = (w.name(v) for v in op.operands)
    plain = _same_dtypes(op) and not op.attrs["rounding_mode"] and not op.attrs["flush_to_zero"]
    if plain and w.is_native(dt) and dt.is_float and fn in _FLOAT_OPERATOR:
        w.assign(op, f"{x} {_FLOAT_OPERATOR[fn]} {y}")
    elif plain and w.is_native(dt) and not dt.is_float and fn in _INT_OPERATOR:
        w.assign(op, f"{x} {_INT_OPERATOR[fn]} {y}")
    elif plain and w.is_native(dt) and not dt.is_float and fn in ("max", "min"):
        w.assign(op, f"np.{'maximum' if fn == 'max' else 'minimum'}({x}, {y})")
    else:
        w.call(op, "binary", x, y, **w.attrs(op, "fn", "rounding_mode", "flush_to_zero", "propagate_nan"), dtype=dt)


@BINARY.fold
def _(attrs, x, y):
    return BINARY_FNS[attrs["fn"]].fold(x, y)


@COMPARE.fold
def _(attrs, x, y):
    return COMPARE_FNS[attrs["fn"]].fold(x, y)


@FMA.numpy
def _(ex, op, a, b, c):
    return numerics.fma(a, b, c, _result_dtype(op), op.attrs["rounding_mode"], op.attrs["flush_to_zero"])


@FMA.transpile
def _(w, op):
    extra = [w.literal(op.attrs["rounding_mode"]), w.literal(op.attrs["flush_to_zero"])] \
        if op.attrs["rounding_mode"] is not None or op.attrs["flush_to_zero"] else []
    w.call(op, "fma", w.args(op.operands), w.literal(_result_dtype(op)), *extra)


# ---- typing (the verifier's rules) -----------------------------------------------------

BINARY.typing(same_as_operand)
FMA.typing(same_as_operand)
UNARY.typing(same_as_operand)


@COMPARE.typing
def _(op):
    t = tile_type(op)
    expect(op.operands[1].type == t, f"compared operands differ: {t} and {op.operands[1].type}")
    return [TileType(D.bool_, t.shape)]


@ASTYPE.typing
def _(op):
    return [TileType(op.attrs["dtype"], tile_type(op).shape)]


@WHERE.typing
def _(op):
    c, x, y = (tile_type(op, i) for i in range(3))
    expect(c.dtype is D.bool_ and c.shape == x.shape and x == y, f"where({c}, {x}, {y}): operands differ")
    return [x]


@CONST.typing
def _(op):
    t = op.results[0].type
    expect(isinstance(t, TileType) and not t.shape, f"a constant is a 0-d tile, not {t}")
    return [t]


@BROADCAST.typing
def _(op):
    t, r = tile_type(op), op.results[0].type
    expect(isinstance(r, TileType) and r.dtype is t.dtype and len(r.shape) == len(t.shape)
           and all(a in (1, b) for a, b in zip(t.shape, r.shape)), f"cannot broadcast {t} to {r}")
    return [r]


@RESHAPE.typing
def _(op):
    t, r = tile_type(op), op.results[0].type
    expect(isinstance(r, TileType) and r.dtype is t.dtype and math.prod(r.shape) == math.prod(t.shape),
           f"cannot reshape {t} to {r}")
    return [r]


@CONST.fold
def _(attrs):
    return attrs["value"]


no_rule("fold", "folded by the typing rules of the functions that make it", ASTYPE, WHERE, BROADCAST, RESHAPE, FMA)
