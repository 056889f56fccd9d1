"""Element-wise binary operations: arithmetic, comparisons, bitwise ops, `where`, conversions.

Typing follows cuTile 1.7.0: loose Python numbers adapt to the typed operand they
meet, typed operands promote (see `dtypes.promote`), shapes broadcast NumPy-style,
and operations on compile-time constants fold to constants.
"""
from __future__ import annotations

import builtins
import math
import operator

from .. import dtypes as D
from ..ir.types import TileType
from ..lang.enums import RoundingMode
from .common import (broadcast_shapes, coerce, common_dtype, const_bool, convert, describe,
                     is_number, is_tile, require_bytecode, require_dtype, shape_of, tile_operand)
from .registry import METHODS, method, primitive, surface

primitive("binary", "Element-wise `fn` on two operands of the same type and shape. Arithmetic: add, sub, "
                    "mul, truediv, floordiv (rounds toward -inf), cdiv (rounds toward +inf), mod (sign of "
                    "the divisor, as Python), pow, atan2, max, min (NaN ignored unless `propagate_nan`); "
                    "integer ops wrap. Bitwise on ints/bools: and, or, xor, lshift, rshift (arithmetic for "
                    "signed, logical for unsigned). Optional attrs: rounding_mode, flush_to_zero.")
primitive("compare", "Element-wise comparison `fn` (eq, ne, lt, le, gt, ge) of two same-typed operands, "
                     "giving bool (ordered: comparisons with NaN are false, except ne).")
primitive("astype", "Element-wise conversion to `dtype` (float→int truncates toward zero, to bool is "
                    "`!= 0`); float→float rounds per `rounding_mode` (default nearest-even).")
primitive("bitcast", "Reinterpret each element's bits as `dtype` (same bit width).")
primitive("where", "Element-wise select: operand 0 (bool) ? operand 1 : operand 2, all of one shape.")
primitive("const", "A compile-time scalar constant.")
primitive("broadcast", "Broadcast to the result shape (size-1 axes repeat).")
primitive("reshape", "Same elements in row-major order, new shape.")


# ---- rounding mode / flush-to-zero rules -----------------------------------

_RM_BASIC = {RoundingMode.RN: None, RoundingMode.RZ: None, RoundingMode.RM: None, RoundingMode.RP: None}

# Rounding modes each op accepts (value: minimum bytecode version, None = any), and
# the ops that accept flush_to_zero. Ops not listed accept neither.
ROUNDING_MODES = {
    "add": _RM_BASIC, "sub": _RM_BASIC, "mul": _RM_BASIC,
    "truediv": {**_RM_BASIC, RoundingMode.FULL: None, RoundingMode.APPROX: None},
    "sqrt": {**_RM_BASIC, RoundingMode.APPROX: None},
    "tanh": {RoundingMode.FULL: None, RoundingMode.APPROX: (13, 2)},
    "exp": {RoundingMode.FULL: None, RoundingMode.APPROX: (13, 3)},
}
FLUSH_TO_ZERO = frozenset({"add", "sub", "mul", "truediv", "max", "min", "exp2", "sqrt", "rsqrt"})


def rounding_mode_arg(ctx, rounding_mode):
    """An optional constant RoundingMode (a member name string is accepted, as upstream)."""
    if rounding_mode is None:
        return None
    from ..lang.bridge import translate
    rm = translate(ctx.require_constant(rounding_mode, "rounding_mode"))
    if isinstance(rm, str) and rm in RoundingMode.__members__:
        return RoundingMode[rm]
    if not isinstance(rm, RoundingMode):
        raise ctx.type_error(f"Expected RoundingMode, but given value is {describe(rm)}")
    return rm


def check_rounding(ctx, fn: str, rm, ftz: bool, dtype: D.DType) -> None:
    """Whether `fn` on `dtype` accepts this rounding mode and flush-to-zero flag."""
    if rm is not None:
        modes = ROUNDING_MODES.get(fn, {})
        if rm not in modes:
            raise ctx.type_error(f"Rounding mode {rm.value} is not supported for {fn}")
        if modes[rm] is not None:
            require_bytecode(ctx, modes[rm], f"{fn} rounding_mode={rm.value}")
        if not dtype.is_float or dtype.is_restricted:
            raise ctx.type_error(f"Rounding mode can only be used for unrestricted float types, "
                                 f"but got {dtype}")
        if rm in (RoundingMode.APPROX, RoundingMode.FULL) and dtype is not D.float32:
            raise ctx.type_error(f"Rounding mode {rm.value} can only be used for float32 type, "
                                 f"but got {dtype}")
    if ftz:
        if fn not in FLUSH_TO_ZERO:
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


_PY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
       "floordiv": operator.floordiv, "cdiv": lambda x, y: -((-x) // y), "mod": operator.mod,
       "pow": operator.pow, "atan2": math.atan2, "max": max, "min": min,
       "and": operator.and_, "or": operator.or_, "xor": operator.xor,
       "lshift": operator.lshift, "rshift": operator.rshift}

# (fn, kind) pairs that type-check upstream but that its TileIR lowering does not
# implement; upstream fails later with an internal error, which we raise right away.
_NO_LOWERING = {("pow", "int"), ("atan2", "int"), ("cdiv", "float")}


# ---- arithmetic --------------------------------------------------------------

def binary_arith(ctx, fn: str, x, y, rounding_mode=None, flush_to_zero=False, propagate_nan=False):
    """Promote, broadcast and apply arithmetic `fn` (folding constants)."""
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    for side, v in (("Left-hand side", x), ("Right-hand side", y)):
        if not dtype_of(v).is_arithmetic:
            raise ctx.type_error(f"{side} has non-arithmetic dtype {dtype_of(v)}")
    if not is_tile(x) and not is_tile(y):
        return fold(ctx, _PY[fn], x, y)
    dtype = common_dtype(ctx, x, y, force_float=(fn == "truediv"))
    if dtype.is_bool:
        raise ctx.type_error(f"Binary arithmetic op `{fn}` does not support bool, please cast bool to int")
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if _both_constant(vx, vy):
        return ctx.constant(fold(ctx, _PY[fn], vx.const, vy.const), dtype)
    check_rounding(ctx, fn, rounding_mode, flush_to_zero, dtype)
    attrs = {"fn": fn}
    if (fn, "float" if dtype.is_float else "int") in _NO_LOWERING:
        # Upstream fails only when lowering a live op (dead ones are gone by then, and typing
        # errors further down come first): record it; compile() raises it after DCE.
        attrs["no_lowering"] = (f"Missing binary arithmetic implementation for {fn}, "
                                f"{'float' if dtype.is_float else 'int'}")
    if rounding_mode is not None:
        attrs["rounding_mode"] = rounding_mode
    if flush_to_zero:
        attrs["flush_to_zero"] = True
    if propagate_nan:
        attrs["propagate_nan"] = True
    return ctx.emit1("binary", [vx, vy], TileType(dtype, shape), **attrs)


def _arith_surface(name, fn, doc, kwargs):
    """Declare `ct.<name>(x, y, /, **kwargs)`; kwargs is "rounding", "nan" or None."""
    if kwargs == "rounding":
        def stub(x, y, /, *, rounding_mode=None, flush_to_zero=False):
            pass

        def rule(ctx, x, y, rounding_mode, flush_to_zero):
            rm = rounding_mode_arg(ctx, rounding_mode)
            ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
            return binary_arith(ctx, fn, x, y, rm, ftz)
    elif kwargs == "nan":
        def stub(x, y, /, *, flush_to_zero=False, propagate_nan=False):
            pass

        def rule(ctx, x, y, flush_to_zero, propagate_nan):
            ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
            pn = const_bool(ctx, propagate_nan, "propagate_nan")
            return binary_arith(ctx, fn, x, y, None, ftz, pn)
    else:
        def stub(x, y, /):
            pass

        def rule(ctx, x, y):
            return binary_arith(ctx, fn, x, y)
    stub.__name__ = name
    stub.__doc__ = doc
    sf = surface("elementwise")(stub)
    sf.rule(rule)
    return sf


add = _arith_surface("add", "add", "Element-wise `x + y` with promotion and broadcasting.", "rounding")
sub = _arith_surface("sub", "sub", "Element-wise `x - y` with promotion and broadcasting.", "rounding")
mul = _arith_surface("mul", "mul", "Element-wise `x * y` with promotion and broadcasting.", "rounding")
truediv = _arith_surface("truediv", "truediv", "Element-wise `x / y`; integer operands give float32.",
                         "rounding")
floordiv = _arith_surface("floordiv", "floordiv", "Element-wise `x // y`, rounding toward negative infinity.",
                          None)
cdiv = _arith_surface("cdiv", "cdiv", "Element-wise ceiling division of integers, `-(-x // y)`.", None)
pow = _arith_surface("pow", "pow", "Element-wise `x ** y` (floats only: integer powers are not lowered).",
                     None)
atan2 = _arith_surface("atan2", "atan2", "Element-wise arc tangent of `x1 / x2` in the correct quadrant.",
                       None)
maximum = _arith_surface("maximum", "max", "Element-wise maximum; NaN is ignored unless `propagate_nan`.",
                         "nan")
minimum = _arith_surface("minimum", "min", "Element-wise minimum; NaN is ignored unless `propagate_nan`.",
                         "nan")


def _reject_bool_pair(ctx, x, y, message):
    if dtype_of(x).is_bool and dtype_of(y).is_bool:
        raise ctx.type_error(message)


@surface("elementwise")
def mod(x, y, /):
    """Element-wise `x % y`; the result has the sign of `y` (Python semantics)."""


@mod.rule
def _(ctx, x, y):
    operand(ctx, x), operand(ctx, y)
    _reject_bool_pair(ctx, x, y, "Modulo operation does not support bool")
    return binary_arith(ctx, "mod", x, y)


@surface("elementwise")
def divmod(x, y, /):
    """`(x // y, x % y)` element-wise, for integer operands."""


@divmod.rule
def _(ctx, x, y):
    operand(ctx, x), operand(ctx, y)
    _reject_bool_pair(ctx, x, y, "divmod() operation does not support bool")
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

_CMP = {"equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt",
        "greater_equal": "ge"}
_PY_CMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
           "gt": operator.gt, "ge": operator.ge}


def compare(ctx, fn: str, x, y):
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    if not is_tile(x) and not is_tile(y):
        return _PY_CMP[fn](x, y)
    dtype = common_dtype(ctx, x, y)
    shape = broadcast_shapes(ctx, shape_of(x), shape_of(y))
    vx, vy = coerce(ctx, x, dtype, shape), coerce(ctx, y, dtype, shape)
    if _both_constant(vx, vy):
        return ctx.constant(_PY_CMP[fn](vx.const, vy.const), D.bool_)
    return ctx.emit1("compare", [vx, vy], TileType(D.bool_, shape), fn=fn)


def _cmp_surface(name):
    fn = _CMP[name]

    def stub(x, y, /):
        pass
    stub.__name__ = name
    stub.__doc__ = f"Element-wise `{fn}` comparison giving a bool tile."
    sf = surface("elementwise")(stub)
    sf.rule(lambda ctx, x, y: compare(ctx, fn, x, y))
    return sf


equal = _cmp_surface("equal")
not_equal = _cmp_surface("not_equal")
less = _cmp_surface("less")
less_equal = _cmp_surface("less_equal")
greater = _cmp_surface("greater")
greater_equal = _cmp_surface("greater_equal")


# ---- bitwise ---------------------------------------------------------------

def bitwise(ctx, fn: str, x, y):
    """and / or / xor on integers or bools of one dtype (a loose constant may adapt)."""
    operand(ctx, x, "the left-hand side")
    operand(ctx, y, "the right-hand side")
    if not is_tile(x) and not is_tile(y):
        return fold(ctx, _PY[fn], x, y)
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
        return fold(ctx, _PY[fn], x, y)
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
        return ctx.constant(fold(ctx, _PY[fn], vx.const, vy.const), dtype)
    return ctx.emit1("binary", [vx, vy], TileType(dtype, shape), fn=fn)


def _bitwise_surface(name, fn, rule_fn, doc):
    def stub(x, y, /):
        pass
    stub.__name__ = name
    stub.__doc__ = doc
    sf = surface("elementwise")(stub)
    sf.rule(lambda ctx, x, y: rule_fn(ctx, fn, x, y))
    return sf


bitwise_and = _bitwise_surface("bitwise_and", "and", bitwise, "Element-wise `x & y` on integers or bools.")
bitwise_or = _bitwise_surface("bitwise_or", "or", bitwise, "Element-wise `x | y` on integers or bools.")
bitwise_xor = _bitwise_surface("bitwise_xor", "xor", bitwise, "Element-wise `x ^ y` on integers or bools.")
bitwise_lshift = _bitwise_surface("bitwise_lshift", "lshift", shift, "Element-wise `x << y` on integers.")
bitwise_rshift = _bitwise_surface("bitwise_rshift", "rshift", shift,
                                  "Element-wise `x >> y` on integers (sign-extending for signed types).")


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


# ---- CPU executor rules ----------------------------------------------------------
# Values carry a leading block axis (size B, or 1 when uniform); every rule here is
# element-wise, so NumPy broadcasting handles mixed leading sizes. GPU-exact numerics
# live in backends/numpy/numerics.py (imported lazily: no executor import at load time).

from .registry import numpy_rule  # noqa: E402

primitive("fma", "Fused multiply-add `operands[0] * operands[1] + operands[2]` with a single rounding "
                 "(made by the fma pass from float mul + add/sub). Optional attrs: rounding_mode, "
                 "flush_to_zero.")


def _num():
    from ..backends.numpy import numerics
    return numerics


def _scalar_array(values, dtype: D.DType):
    """Python constants (already in the dtype's value set) as a storage array."""
    import numpy as np
    if dtype.is_bool or dtype.is_int:
        return np.array(values, dtype=dtype.numpy)
    return _num().round_float(np.array(values, dtype=np.float64), dtype)


@numpy_rule("const")
def _(ex, op):
    return _scalar_array([op.attrs["value"]], op.results[0].type.dtype)


@numpy_rule("broadcast")
def _(ex, op, x):
    import numpy as np
    return np.broadcast_to(x, (x.shape[0],) + op.results[0].type.shape)


@numpy_rule("reshape")
def _(ex, op, x):
    return x.reshape((x.shape[0],) + op.results[0].type.shape)


@numpy_rule("astype")
def _(ex, op, x):
    from ..backends.numpy import widened
    if not ex.checks.poison and id(op) in widened.sites(ex.fn):
        return _num().f16_values(x)          # only mma reads it: float16 values kept in float32
    return _num().convert(x, op.operands[0].type.dtype, op.attrs["dtype"], op.attrs.get("rounding_mode"))


@numpy_rule("where")
def _(ex, op, cond, x, y):
    import numpy as np
    dt = op.results[0].type.dtype.numpy
    # A condition that holds (or fails) everywhere picks one side whole: no pass over the data
    # when that side already has the result's shape (a mask of the columns inside the array).
    for pick, side in ((True, x), (False, y)):
        side = np.asarray(side)
        if side.dtype == dt and side.shape == np.broadcast_shapes(np.shape(cond), np.shape(x), np.shape(y)) \
                and (cond.all() if pick else not cond.any()):
            return side
    return np.where(cond, x, y).astype(dt, copy=False)


@numpy_rule("compare")
def _(ex, op, x, y):
    return _num().compare(x, y, op.attrs["fn"], op.operands[0].type.dtype)


@numpy_rule("binary")
def _(ex, op, x, y):
    a = op.attrs
    return _num().binary(x, y, a["fn"], op.results[0].type.dtype, a.get("rounding_mode"),
                         a.get("flush_to_zero", False), a.get("propagate_nan", False))


@numpy_rule("fma")
def _(ex, op, a, b, c):
    dt = op.results[0].type.dtype
    return _num().fma(a, b, c, dt, op.attrs.get("rounding_mode"), op.attrs.get("flush_to_zero", False))
