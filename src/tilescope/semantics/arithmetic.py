"""Element-wise ops on storage arrays, as the GPU computes them: comparisons, max/min, and the
`binary` and `unary` functions (floats correctly rounded, integers wrapping).

The executor's rules and transpiled modules both call these."""
from __future__ import annotations

import numpy as np

from .. import dtypes as D
from .functions import UNARY
from .numerics import (_FAST, _flush, _via_float64, float_arith, float_sqrt, in_slices, round_float, round_via_f32,
                       to_float64)


# ---- integers --------------------------------------------------------------------------

def _int_info(x):
    info = np.iinfo(x.dtype)
    return info.min, info.max


def _int_divide(x, y, ceil: bool):
    """Floor (or ceiling) division with the by-zero and overflow choices of `int_floordiv`."""
    zero = y == 0
    safe = np.where(zero, 1, y).astype(y.dtype)
    ovf = None
    if x.dtype.kind == "i":
        lo, _ = _int_info(x)
        ovf = (x == lo) & (safe == -1)
        safe = np.where(ovf, 1, safe).astype(y.dtype)
    q = np.floor_divide(x, safe)
    if ceil:
        q = q + (q * safe != x).astype(x.dtype)        # ceil = floor + 1 unless exact
    if ovf is not None:
        q = np.where(ovf, x, q)
    return np.where(zero, np.array(-1).astype(x.dtype), q).astype(x.dtype)


def int_floordiv(x, y):
    """Floor division (signed) / plain division (unsigned). Division by zero gives -1 (all bits set),
    `min // -1` wraps to `min`. (Both are undefined behaviour in TileIR; we pick values and never trap.)"""
    return _int_divide(x, y, ceil=False)


def int_cdiv(x, y):
    """Ceiling division; same by-zero and overflow choices as `int_floordiv`."""
    return _int_divide(x, y, ceil=True)


def int_mod(x, y):
    """Python-style modulo (sign of the divisor). `x % 0` gives x; `min % -1` gives 0."""
    zero = y == 0
    safe = np.where(zero, 1, y).astype(y.dtype)
    if x.dtype.kind == "i":
        safe = np.where(safe == -1, 1, safe).astype(y.dtype)     # x % -1 == 0 == x % 1
    r = np.mod(x, safe)
    return np.where(zero, x, r).astype(x.dtype)


def int_pow(x, y):
    """Exact, wrapping integer power; a negative exponent gives the truncated quotient 1 / x**-y
    (1 for x == 1, ±1 for x == -1, else 0 — also 0 for 0 ** -k instead of a trap)."""
    neg = y < 0
    e = np.where(neg, 0, y).astype(np.uint64)
    base = x.copy() if isinstance(x, np.ndarray) else np.asarray(x)
    base, e = np.broadcast_arrays(base, e)
    base = base.copy()
    e = e.copy()
    result = np.ones(base.shape, dtype=x.dtype)
    while e.any():
        odd = (e & np.uint64(1)) == 1
        result = np.where(odd, result * base, result).astype(x.dtype)
        base = (base * base).astype(x.dtype)
        e = e >> np.uint64(1)
    if x.dtype.kind == "i":
        special = np.where(x == 1, 1, np.where(x == -1, np.where(y % 2 == 0, 1, -1), 0))
    else:
        special = np.where(x == 1, 1, 0)
    return np.where(neg, special, result).astype(x.dtype)


def shift_left(x, y):
    """`x << y`; shift amounts are taken as unsigned and amounts >= the bit width give 0
    (PTX shl clamps the amount to the width)."""
    bits = 8 * x.dtype.itemsize
    amount = y.astype(np.uint64) if y.dtype.kind == "u" else y.astype(np.int64).astype(np.uint64)
    big = amount >= bits
    ux = x.view(np.dtype(f"u{x.dtype.itemsize}")) if x.dtype.kind == "i" else x
    out = np.left_shift(ux, np.where(big, 0, amount).astype(ux.dtype))
    out = np.where(big, 0, out).astype(ux.dtype)
    return out.view(x.dtype) if x.dtype.kind == "i" else out


def shift_right(x, y):
    """`x >> y`: arithmetic for signed, logical for unsigned; amounts (taken as unsigned)
    >= the bit width give the sign fill (0 or -1) / 0, as PTX shr clamps the amount."""
    bits = 8 * x.dtype.itemsize
    amount = y.astype(np.uint64) if y.dtype.kind == "u" else y.astype(np.int64).astype(np.uint64)
    clamped = np.minimum(amount, bits - 1 if x.dtype.kind == "i" else bits).astype(np.int64)
    if x.dtype.kind == "i":
        return np.right_shift(x, clamped.astype(x.dtype)).astype(x.dtype)
    big = clamped >= bits
    out = np.right_shift(x, np.where(big, 0, clamped).astype(x.dtype))
    return np.where(big, 0, out).astype(x.dtype)


# ---- element-wise ops (the executor's rules and transpiled modules both call these) ---------

_COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}


def compare(x, y, fn, dtype):
    """IEEE comparisons (anything with NaN is false except `ne`); `dtype` is the operands'."""
    if dtype.is_float and dtype.numpy.kind != "f":       # ml_dtypes / raw-bit storage: compare values
        x, y = to_float64(x, dtype), to_float64(y, dtype)
    return _COMPARE[fn](x, y)


def float_minmax(fn, x, y, dtype, propagate_nan=False, ftz=False):
    """max/min picking one operand's exact bits; -0 < +0; NaN ignored unless propagate_nan."""
    if ftz:
        x, y = _flush(x, dtype), _flush(y, dtype)
    x64, y64 = to_float64(x, dtype), to_float64(y, dtype)
    eq = x64 == y64
    if fn == "max":
        pick_x = (x64 > y64) | (eq & ~np.signbit(x64))
    else:
        pick_x = (x64 < y64) | (eq & np.signbit(x64))
    xn, yn = np.isnan(x64), np.isnan(y64)
    if propagate_nan:
        pick_x = (pick_x & ~yn) | xn
    else:
        pick_x = (pick_x | yn) & ~(xn & ~yn)
    return np.where(pick_x, x, y)


def _float_binary(fn, x, y, dtype, rounding_mode, ftz, propagate_nan):
    if fn in ("add", "sub", "mul", "truediv"):
        return float_arith(fn, x, y, dtype, rounding_mode, ftz)
    if fn in ("max", "min"):
        return float_minmax(fn, x, y, dtype, propagate_nan, ftz)
    if fn == "floordiv":                              # upstream lowers to floor(x / y)
        q = float_arith("truediv", x, y, dtype, rounding_mode, ftz)
        return round_float(np.floor(to_float64(q, dtype)), dtype)
    if fn == "mod":                                   # C fmod, then + y where the signs differ
        x64, y64 = to_float64(x, dtype), to_float64(y, dtype)
        r64 = np.fmod(x64, y64)                       # exact
        fix = ((r64 < 0) != (y64 < 0)) & (r64 != 0)
        r = round_float(r64, dtype)
        return np.where(fix, float_arith("add", r, y, dtype), r)
    if fn == "pow":
        return round_via_f32(_pow(to_float64(x, dtype), to_float64(y, dtype)), dtype)
    if fn == "atan2":
        return round_via_f32(np.arctan2(to_float64(x, dtype), to_float64(y, dtype)), dtype)
    raise NotImplementedError(f"binary {fn} on {dtype.name}")


def _pow(x64, y64):
    """C's pow, whatever the operands' layout: NumPy takes the square root for an exponent of 0.5
    that it sees as one value (0-d or broadcast), which differs at -inf and -0 (pow gives +inf
    and +0, as the GPU does); so the whole-grid and one-block runs differed."""
    shape = np.broadcast_shapes(np.shape(x64), np.shape(y64))
    x1 = np.array(np.broadcast_to(x64, shape), ndmin=1)        # (copies: full, at least 1-d)
    y1 = np.array(np.broadcast_to(y64, shape), ndmin=1)
    return np.power(x1, y1).reshape(shape)


_INT_SIMPLE = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
               "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def binary(x, y, fn, dtype, rounding_mode=None, flush_to_zero=False, propagate_nan=False):
    """x <fn> y in `dtype` (the result's): floats correctly rounded, integers wrapping."""
    if dtype.is_float:
        return _float_binary(fn, x, y, dtype, rounding_mode, flush_to_zero, propagate_nan)
    if fn in _INT_SIMPLE:
        return _INT_SIMPLE[fn](x, y).astype(dtype.numpy, copy=False)     # wraps
    special = {"floordiv": int_floordiv, "cdiv": int_cdiv, "mod": int_mod, "pow": int_pow,
               "lshift": shift_left, "rshift": shift_right}.get(fn)
    if special is None:
        raise NotImplementedError(f"binary {fn} on {dtype.name}")
    return special(*np.broadcast_arrays(x, y))


# Transcendentals (function-table rows with a `libm` function) are computed in float64 and
# rounded once to float32 (the GPU's f32 results agree with float64 to ~2e-7 relative, so this
# is the closest match); f16/bf16 go through float32 as the hardware computes them; float64
# uses NumPy's libm. Exact ops (abs, neg, floor, ceil) and sqrt are exact / correctly rounded
# in every dtype.

def unary(x, fn, dtype, rounding_mode=None, flush_to_zero=False):
    """fn(x) in `dtype`."""
    if fn == "not":
        return np.logical_not(x) if dtype.is_bool else np.invert(x)
    if not dtype.is_float:
        if fn == "abs":
            return np.abs(x).astype(dtype.numpy, copy=False)      # abs(min) wraps to min
        if fn == "neg":
            return np.negative(x).astype(dtype.numpy, copy=False)
        if fn in ("floor", "ceil"):
            return x
        raise NotImplementedError(f"unary {fn} on {dtype.name}")
    if flush_to_zero:
        x = _flush(x, dtype)
    if fn == "sqrt":
        return float_sqrt(x, dtype, rounding_mode)
    if fn in ("abs", "neg", "floor", "ceil"):
        f = {"abs": np.abs, "neg": np.negative, "floor": np.floor, "ceil": np.ceil}[fn]
        return round_float(f(to_float64(x, dtype)), dtype)      # exact in every format
    f64 = UNARY[fn].libm
    if dtype is D.float64:
        out = f64(x)
    elif _FAST.get():
        # NumPy's float32 function; on a contiguous array so that every element takes the same
        # code path wherever it lies (one-block and vectorised runs agree).
        out = f64(np.ascontiguousarray(x, np.float32)).astype(dtype.numpy, copy=False)
    elif dtype is D.float32 and isinstance(f64, np.ufunc):
        out = _via_float64(f64, np.asarray(x))
    else:
        out = in_slices(lambda v: round_via_f32(f64(to_float64(v, dtype)), dtype), np.asarray(x),
                        dtype=dtype.numpy)
    return _flush(out, dtype) if flush_to_zero else out
