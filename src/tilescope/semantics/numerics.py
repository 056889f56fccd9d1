"""Element-wise numerics that must match the GPU bit for bit: conversions, rounding, fma, integer edge cases.

Depends only on NumPy, ml_dtypes and `tilescope.dtypes`, so the op families can import it
lazily from their NumPy rules without import cycles.

Rounding model. An exactly computed value is carried as a pair `(hi, lo)`: `hi` is the value
rounded to float64 (nearest-even) and `lo` a residual of which only the sign matters
(`exact = hi + lo`, NaN residuals count as zero). `round_pair` turns such a pair into any
cuTile float format with one rounding (RN, RZ, RM or RP): it first rounds *to odd* in
float64 and float32 (which keeps every later rounding exact, because each step keeps at
least two extra bits), then rounds once into the target, then steps by one unit in the last
place where a directed mode says the nearest value went the wrong way.
"""
from __future__ import annotations

import contextlib
import contextvars
import threading

import numpy as np

from .. import dtypes as D

# RoundingMode member names understood here (enums.RoundingMode.name).
RN, RZ, RM, RP = "RN", "RZ", "RM", "RP"
_F32_TINY = np.float32(np.finfo(np.float32).tiny)
_LOW29, _HALF29 = np.uint64(0x1FFFFFFF), np.uint64(0x10000000)   # f64 bits below float32 precision


# ---- numerics modes ----------------------------------------------------------------
# "exact" (the default) is the rounding model above everywhere. "fast" trades the last bits for
# speed where that model costs several vector passes per element: float32 fma is a multiply and
# an add rounded separately, float32 (and f16/bf16) transcendentals are NumPy's own float32
# functions, and matrix products of narrow floats (f16, bf16, fp8) into float32 are summed by
# float32 BLAS (their products are still exact). Either way a block's result never depends on
# the other blocks of its group.
NUMERICS_MODES = ("exact", "fast")
ENV_NUMERICS = "TILESCOPE_NUMERICS"      # the mode of launches that do not name one
_FAST = contextvars.ContextVar("tilescope_fast_numerics", default=False)
_NARROW_FLOATS = (D.float16, D.bfloat16, D.float8_e4m3fn, D.float8_e5m2)


@contextlib.contextmanager
def numerics_mode(mode: str):
    """Run the enclosed code with numerics `mode` ('exact' or 'fast')."""
    if mode not in NUMERICS_MODES:
        raise ValueError(f"unknown numerics mode {mode!r} (use {' or '.join(NUMERICS_MODES)})")
    token = _FAST.set(mode == "fast")
    try:
        yield
    finally:
        _FAST.reset(token)


def mode_name(rounding_mode) -> str:
    """'RN' for None / RN / FULL / APPROX (we cannot reproduce approximate hardware paths), else RZ/RM/RP."""
    name = getattr(rounding_mode, "name", rounding_mode)
    return name if name in (RZ, RM, RP) else RN


# ---- float formats -----------------------------------------------------------------

def round_to_tf32(x: np.ndarray) -> np.ndarray:
    """Round float32 values to TF32 (10 explicit mantissa bits), nearest-even, kept in float32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    keep = np.uint32(0xFFFFE000)
    lsb = (bits >> np.uint32(13)) & np.uint32(1)
    rounded = (bits + np.uint32(0x0FFF) + lsb) & keep
    special = (bits & np.uint32(0x7F800000)) == np.uint32(0x7F800000)   # inf / nan unchanged
    return np.where(special, bits, rounded).view(np.float32)


# float8_e5m3fnu (no ml_dtypes type): unsigned, 5 exponent bits (bias 15), 3 mantissa bits,
# subnormals, no infinity, 0xFF is NaN. Stored as raw uint8 bits.
_E5M3_BIAS, _E5M3_MBITS = 15, 3


def _e5m3_encode(v: np.ndarray) -> np.ndarray:
    """Nearest-even; overflow and NaN give NaN (0xFF), negatives give NaN (unsigned format)."""
    v = np.asarray(v, dtype=np.float64)
    a = np.where(np.isfinite(v) & (v >= 0), v, 0.0)
    _, e = np.frexp(a)                                   # a = m * 2**e, m in [0.5, 1)
    exp = np.maximum(e - 1, 1 - _E5M3_BIAS)              # unbiased exponent (subnormals share the min)
    quantum = np.ldexp(1.0, exp - _E5M3_MBITS)
    q = np.rint(a / quantum) * quantum                   # np.rint rounds half to even
    _, e2 = np.frexp(q)
    exp2 = np.maximum(e2 - 1, 1 - _E5M3_BIAS)
    mant = np.rint(q / np.ldexp(1.0, exp2 - _E5M3_MBITS)).astype(np.int64)
    normal = mant >= 8
    bits = np.where(normal, ((exp2 + _E5M3_BIAS) << _E5M3_MBITS) | (mant - 8), mant)
    bad = ~np.isfinite(v) | (v < 0) | (bits >= 0xFF)
    return np.where(bad & ~(v == 0), 0xFF, bits).astype(np.uint8)


def _e8m0_encode(v: np.ndarray, mode: str) -> np.ndarray:
    """Powers of two 2**(bits-127): RZ rounds the exponent down, RP up; saturating; NaN → 0xFF.

    Zero, negative and tiny inputs give the smallest value 2**-127 (bits 0); infinity saturates
    to 2**127 (bits 254).
    """
    v = np.asarray(v, dtype=np.float64)
    a = np.where(np.isfinite(v) & (v > 0), v, 1.0)
    m, e = np.frexp(a)
    exp = e - 1 + ((mode == RP) & (m != 0.5)).astype(np.int64)
    bits = np.clip(exp + 127, 0, 254)
    bits = np.where(np.isinf(v) & (v > 0), 254, bits)
    bits = np.where((v <= 0) | np.isneginf(v), 0, bits)
    return np.where(np.isnan(v), 255, bits).astype(np.uint8)


def to_float64(x: np.ndarray, dtype: D.DType) -> np.ndarray:
    """Values of any cuTile dtype (storage form) as float64 (exact for every float format)."""
    if dtype is D.float8_e5m3fnu:
        return decode_e5m3fnu(x)
    if dtype.is_bool:
        return np.asarray(x).astype(np.float64)
    return np.asarray(x).astype(np.float64)


def decode_e5m3fnu(bits: np.ndarray) -> np.ndarray:
    """float8_e5m3fnu (stored as raw uint8): unsigned, 5 exponent bits (bias 15), 3 mantissa bits,
    subnormals, 0xFF is NaN."""
    b = bits.astype(np.int64)
    e, m = b >> 3, (b & 7).astype(np.float64)
    val = np.where(e == 0, np.ldexp(m / 8, -14), np.ldexp(1 + m / 8, e - 15))
    return np.where(b == 0xFF, np.nan, val)


# ---- stepping by one unit in the last place -------------------------------------------

_IEEE = {"float64": (np.uint64, 1), "float32": (np.uint32, 1), "tfloat32": (np.uint32, 1 << 13),
         "float16": (np.uint16, 1), "bfloat16": (np.uint16, 1)}


def step(r: np.ndarray, dtype: D.DType, up: np.ndarray, down: np.ndarray) -> np.ndarray:
    """Move elements of `r` (IEEE-like storage of dtype) one ulp up where `up`, down where `down`."""
    ut, unit = _IEEE[dtype.name]
    r = np.array(r, dtype=dtype.numpy, copy=True)
    bits = r.view(ut)
    nbits = 8 * np.dtype(ut).itemsize
    sign = ut(1) << ut(nbits - 1)
    unit = ut(unit)
    neg = (bits & sign) != 0
    mag = bits & ~sign
    zero = mag == 0
    # Toward larger magnitude when moving away from zero, smaller otherwise.
    away = (up & ~neg) | (down & neg)
    toward = (up & neg) | (down & ~neg)
    new = np.where(away & ~zero, bits + unit, bits)
    new = np.where(toward & ~zero, bits - unit, new)
    new = np.where(zero & up, unit, new)                 # ±0 up → +smallest
    new = np.where(zero & down, sign | unit, new)        # ±0 down → -smallest
    return new.astype(ut).view(dtype.numpy)


# ---- exact arithmetic in float64 ---------------------------------------------------

def two_sum(a, b):
    """(s, e) with s = fl(a + b) and a + b = s + e exactly (barring overflow)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _split(a):
    c = 134217729.0 * a                                  # 2**27 + 1 (Veltkamp)
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a, b):
    """(p, e) with p = fl(a * b) and a * b = p + e exactly (for |a|, |b| < 2**995, no underflow)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _odd64(hi, lo):
    """Round-to-odd of hi + lo in float64 (hi already the nearest double)."""
    pos, neg = lo > 0, lo < 0
    bits = hi.view(np.uint64)
    even = (bits & np.uint64(1)) == 0
    fix = even & (pos | neg) & np.isfinite(hi)
    if not fix.any():
        return hi
    return np.where(fix, step(hi, D.float64, fix & pos, fix & neg), hi)


def _odd32(v):
    """Round-to-odd of float64 `v` into float32 (overflow saturates to ±max: the odd neighbour)."""
    r = v.astype(np.float32)
    inexact = (r.astype(np.float64) != v) & ~np.isnan(v)
    over = np.isinf(r) & np.isfinite(v)
    r = np.where(over, np.copysign(np.float32(np.finfo(np.float32).max), r), r)
    even = (r.view(np.uint32) & np.uint32(1)) == 0
    fix = inexact & even & ~over
    if fix.any():
        r = np.where(fix, step(r, D.float32, fix & (v > r), fix & (v < r)), r)
    return r


def round_pair(hi, lo, dtype: D.DType, rounding_mode=None) -> np.ndarray:
    """Round the exact value hi + lo (see module doc) to `dtype` storage, once, with the mode."""
    mode = mode_name(rounding_mode)
    hi = np.asarray(hi, dtype=np.float64)
    lo = np.zeros_like(hi) if lo is None else np.asarray(lo, dtype=np.float64)
    if dtype is D.float64:
        r = hi
        above = lo < 0                                   # r is bigger than the exact value
        below = lo > 0
        over = np.isinf(hi) & np.isnan(lo)               # finite exact value that overflowed
        above = above | (over & (hi > 0))
        below = below | (over & (hi < 0))
    else:
        v = _odd64(hi, lo)
        if dtype is D.float8_e8m0fnu:
            return _e8m0_encode(v, RP if mode == RP else RZ).view(dtype.numpy)
        if dtype is D.float8_e5m3fnu:
            return _e5m3_encode(_odd32(v).astype(np.float64))
        if dtype is D.float32:
            r = v.astype(np.float32)
        else:
            v32 = _odd32(v)
            r = round_to_tf32(v32) if dtype is D.tfloat32 else v32.astype(dtype.numpy)
        if mode == RN:
            return r
        r64 = r.astype(np.float64)
        above, below = r64 > v, r64 < v
    if mode == RN:
        return r.astype(dtype.numpy)
    if mode == RZ:
        up, down = below & (r < 0), above & (r > 0)
        down = down | (above & np.isinf(r) & (r > 0))
    elif mode == RM:
        up, down = np.zeros_like(above), above
    else:
        up, down = below, np.zeros_like(below)
    if not (up.any() or down.any()):
        return r.astype(dtype.numpy)
    return step(r, dtype, up, down)


def round_float(v, dtype: D.DType, rounding_mode=None) -> np.ndarray:
    """Round float64 values (taken as exact) to `dtype`."""
    if dtype in (D.float32, D.float16, D.float64) and mode_name(rounding_mode) == RN:
        # NumPy converts float64 to these directly, rounding once to nearest even.
        return np.asarray(v, dtype=np.float64).astype(dtype.numpy)
    return round_pair(v, None, dtype, rounding_mode)


def f16_values(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest float16 (ties to even, overflow to ±inf, signed
    zeros kept), left in float32: `x.astype(float16).astype(float32)` in a few vector passes,
    where NumPy converts each way one element at a time (~2.5 ns per element)."""
    x = np.asarray(x, np.float32)
    out = np.empty(x.shape, np.float32)
    n, step, _ = _slicing(x.shape)
    for i in range(0, n, step):
        _f16_values(x[i:i + step] if x.shape else x, out[i:i + step] if x.shape else out)
    return out


def _f16_values(x: np.ndarray, r: np.ndarray) -> None:
    bits = x.view(np.uint32)
    # big = 1.5 · 2^(e + 13), e: x's exponent clamped to float16's normal range [-14, 16]. The
    # float32 sum x + big is rounded at 2^(e - 10) (2^-24 below 2^-14), float16's spacing there.
    e = np.bitwise_and(bits, np.uint32(0x7F800000), out=_scratch("f16", x.shape, np.uint32))
    np.clip(e, np.uint32((127 - 14) << 23), np.uint32((127 + 16) << 23), out=e)
    e += np.uint32((13 << 23) | (1 << 22))
    big = e.view(np.float32)
    np.add(x, big, out=r)
    r -= big
    r *= np.float32(2.0 ** 112)            # |r| ≥ 2^16, past float16's largest (65504), overflows...
    r *= np.float32(2.0 ** -112)           # ...and every other value comes back exactly
    sign = np.bitwise_and(bits, np.uint32(0x80000000), out=e)
    np.bitwise_or(r.view(np.uint32), sign, out=r.view(np.uint32))     # values rounded to zero keep x's sign


def round_via_f32(v, dtype: D.DType) -> np.ndarray:
    """A float64 result rounded as the GPU rounds a float32 computation: to float32, then to dtype."""
    v32 = np.asarray(v, dtype=np.float64).astype(np.float32)
    if dtype is D.float32:
        return v32
    if dtype is D.float64:
        return np.asarray(v, dtype=np.float64)
    return round_float(v32.astype(np.float64), dtype)


# ---- correctly rounded arithmetic ------------------------------------------------------

def exact_binary(fn: str, a, b):
    """(hi, lo) of the exact add/sub/mul/truediv of float64 operands (lo: sign of the residual)."""
    if fn == "add":
        return two_sum(a, b)
    if fn == "sub":
        return two_sum(a, -b)
    if fn == "mul":
        return two_prod(a, b)
    if fn == "truediv":
        q = a / b
        p, e = two_prod(q, b)
        resid = (a - p) - e                              # a - q*b, sign exact
        return q, np.sign(resid) * np.sign(b)
    raise ValueError(fn)


def exact_sqrt(a):
    s = np.sqrt(a)
    p, e = two_prod(s, s)
    return s, np.sign((a - p) - e)


def _flush(x, dtype: D.DType):
    """Flush float32 subnormals to sign-preserving zero."""
    if dtype is not D.float32:
        return x
    return np.where(np.abs(x) < _F32_TINY, np.copysign(np.float32(0), x), x).astype(np.float32)


# NumPy's own +, -, *, / and sqrt are correctly rounded to nearest-even for these: f32/f64
# natively, and f16/bf16 because they compute in float32, whose 24-bit significand is at
# least 2p+2 bits for p = 11 and p = 8, so rounding twice gives the same result as once.
_NATIVE_RN = (D.float16, D.bfloat16, D.float32, D.float64)


def float_arith(fn: str, x, y, dtype: D.DType, rounding_mode=None, ftz=False):
    """add / sub / mul / truediv correctly rounded in `dtype` (one rounding, any mode)."""
    if ftz:
        x, y = _flush(x, dtype), _flush(y, dtype)
    mode = mode_name(rounding_mode)
    if mode == RN and dtype in _NATIVE_RN:
        out = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide}[fn](x, y)
    else:
        hi, lo = exact_binary(fn, to_float64(x, dtype), to_float64(y, dtype))
        out = round_pair(hi, lo, dtype, mode)
    return _flush(out, dtype) if ftz else out


def float_sqrt(x, dtype: D.DType, rounding_mode=None, ftz=False):
    if ftz:
        x = _flush(x, dtype)
    mode = mode_name(rounding_mode)
    if mode == RN and dtype in _NATIVE_RN:
        out = np.sqrt(x)
    else:
        hi, lo = exact_sqrt(to_float64(x, dtype))
        out = round_pair(hi, lo, dtype, mode)
    return _flush(out, dtype) if ftz else out


def fma(a, b, c, dtype: D.DType, rounding_mode=None, ftz=False, out=None) -> np.ndarray:
    """a * b + c with a single rounding into `dtype`.

    f16 / bf16 / f32: the product is exact in float64 and the sum is carried exactly as a pair,
    so the result is the correctly rounded fma. f64: Boldo–Melquiond's emulation (TwoProduct,
    TwoSum, round-to-odd addition), exact whenever the operands and the product lie in
    [2**-900, 2**995] in magnitude (or are zero); the remaining finite elements are computed
    exactly with Python fractions. Non-finite inputs give a * b + c (same NaN/inf as fma).
    `out`: an array to write the result into (float32, round to nearest, no flushing).
    """
    mode = mode_name(rounding_mode)
    if _FAST.get() and dtype is D.float32 and mode == RN and not ftz:
        # fast numerics: two roundings (the product may be smaller than the result: c broadcasts)
        product = np.multiply(a, b, out=out, dtype=np.float32)
        return np.add(product, c, out=out, dtype=np.float32)
    if out is not None:
        return _fma32_rn(np.asarray(a, np.float32), np.asarray(b, np.float32), np.asarray(c, np.float32), out)
    if ftz:
        a, b, c = _flush(a, dtype), _flush(b, dtype), _flush(c, dtype)
    if dtype is D.float64:
        out = _fma64(*np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                          np.asarray(c, np.float64)), mode)
    elif dtype is D.float32 and mode == RN:
        out = _fma32_rn(np.asarray(a, np.float32), np.asarray(b, np.float32), np.asarray(c, np.float32))
    else:
        a64, b64, c64 = (to_float64(v, dtype) for v in (a, b, c))
        hi, lo = two_sum(a64 * b64, c64)
        special = ~np.isfinite(hi)
        if special.any():
            lo = np.where(special, 0.0, lo)
        out = round_pair(hi, lo, dtype, mode)
    return _flush(out, dtype) if ftz else out


_SLICE_ELEMENTS = 1 << 17      # float64 temporaries of this many elements (1 MB) stay in a core's L2 cache


def _slicing(shape):
    """(n, step, row): `shape`'s leading axis n cut into slices of `step` rows of `row` elements
    each, so that float64 temporaries stay cache-sized (one slice when the whole is small)."""
    n = shape[0] if shape else 1
    row = int(np.prod(shape[1:], dtype=np.int64)) if shape else 1
    return n, (n if n * row <= 2 * _SLICE_ELEMENTS else max(1, _SLICE_ELEMENTS // max(row, 1))), row


def in_slices(fn, *args, dtype=None, out=None) -> np.ndarray:
    """fn(*args) computed over slices of the leading axis: an element-wise fn whose float64
    temporaries would not fit in cache runs several times faster on cache-sized pieces.
    The result has `dtype` (default: the arguments' common type); it is written into `out`
    when given."""
    shape = np.broadcast_shapes(*(x.shape for x in args))
    n, step, _ = _slicing(shape)
    if not shape or step >= n:
        if out is None:
            return fn(*args)
        out[...] = fn(*args)
        return out
    if out is None:
        out = np.empty(shape, dtype if dtype is not None else np.result_type(*args))
    for i in range(0, n, step):
        out[i:i + step] = fn(*(x[i:i + step] if x.ndim == len(shape) and x.shape[0] == shape[0] else x
                               for x in args))
    return out


_SCRATCH = threading.local()


def _scratch(role: str, shape, dtype) -> np.ndarray:
    """A temporary reused from call to call (per thread): fresh temporaries of a few hundred
    kilobytes cost page faults every time, as the allocator hands their memory back."""
    size = int(np.prod(shape, dtype=np.int64))
    buf = getattr(_SCRATCH, role, None)
    if buf is None or buf.dtype != dtype or buf.size < size:
        buf = np.empty(size, dtype)
        setattr(_SCRATCH, role, buf)
    return buf[:size].reshape(shape)


def _via_float64(ufunc, x: np.ndarray) -> np.ndarray:
    """A float32 ufunc result computed in float64 and rounded once, slice by slice through
    reused scratch."""
    out = np.empty(x.shape, np.float32)
    n, step, _ = _slicing(x.shape)
    for i in range(0, n, step):
        o = out[i:i + step] if x.shape else out
        t = _scratch("via64", o.shape, np.float64)
        t[...] = x[i:i + step] if x.shape else x
        o[...] = ufunc(t, out=t)
    return out


def _fma32_rn(a, b, c, out=None) -> np.ndarray:
    """float32 fma, round to nearest even, fast path (into `out` when given).

    a*b is exact in float64 and s = a*b + c rounded once in float64 is off by less than half an
    f64 ulp. Converting s to float32 can then only go wrong when s lies exactly halfway between
    two float32 values (its 29 low mantissa bits are 1000...0) while the exact sum does not, or
    when the result is subnormal in float32. The work runs on cache-sized slices; the few
    elements flagged in any slice are recomputed exactly together at the end.
    """
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape, () if out is None else out.shape)
    if out is None:
        out = np.empty(shape, np.float32)
    n, step, row = _slicing(shape)
    part = lambda v, i: v[i:i + step] if v.ndim == len(shape) and v.shape[0] == n > 1 else v  # noqa: E731
    full = (min(step, n),) + tuple(shape[1:]) if shape else ()
    s_buf, bits_buf = _scratch("s", full, np.float64), _scratch("bits", full, np.uint64)
    bad_buf, tiny_buf, abs_buf = _scratch("bad", full, bool), _scratch("tiny", full, bool), \
        _scratch("abs", full, np.float32)
    nz_buf = _scratch("nonzero", full, bool)
    flagged = []
    for i in range(0, n, step):
        m = min(step, n - i)
        cut = (lambda x: x[:m]) if shape else (lambda x: x)     # noqa: E731
        s = np.multiply(part(a, i), part(b, i), out=cut(s_buf), dtype=np.float64)
        np.add(s, part(c, i), out=s)
        o = out[i:i + step] if shape else out
        o[...] = s
        bad = np.equal(np.bitwise_and(s.view(np.uint64), _LOW29, out=cut(bits_buf)), _HALF29, out=cut(bad_buf))
        mags = np.abs(o, out=cut(abs_buf))
        if o.size and np.fmin.reduce(mags, axis=None) <= _F32_TINY:      # every |s| < 2**-126 (NaNs aside)
            # s == 0 is exact (a*b is exact in float64, so only an exact zero sum rounds to 0):
            # leaving zeros out keeps padded or masked tiles off the element-by-element path
            tiny = np.less_equal(mags, _F32_TINY, out=cut(tiny_buf))
            tiny &= np.not_equal(s, 0, out=cut(nz_buf))
            bad |= tiny
        if bad.any():
            idx = np.flatnonzero(bad)
            idx = idx[np.broadcast_to(s, bad.shape).reshape(-1)[idx] != 0]     # s == 0 is exact already
            flagged.append(idx + i * row)
    if flagged:
        where = np.unravel_index(np.concatenate(flagged), shape)
        a64, b64, c64 = (np.broadcast_to(v, shape)[where].astype(np.float64) for v in (a, b, c))
        hi, lo = two_sum(a64 * b64, c64)
        inexact = (lo != 0) & np.isfinite(hi)       # an exact s was rounded once, correctly
        if inexact.any():
            where = tuple(w[inexact] for w in where)
            out[where] = round_pair(hi[inexact], lo[inexact], D.float32, RN)
    return out


def _fma64(a, b, c, mode: str):
    uh, ul = two_prod(a, b)
    th, tl = two_sum(c, uh)
    s, e = two_sum(tl, ul)
    v = _odd64(s, e)                                     # round-to-odd of tl + ul
    r, err = two_sum(th, v)
    out = round_pair(r, err, D.float64, mode)
    mags = [np.abs(a), np.abs(b), np.abs(c), np.abs(uh)]
    ok = np.ones(a.shape, bool)
    for m in mags:
        ok &= (m == 0) | ((m >= 2.0 ** -900) & (m <= 2.0 ** 995))
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    out = np.where(finite, out, a * b + c)
    slow = finite & ~ok
    if slow.any():
        out = np.array(out, copy=True)
        for idx in zip(*np.nonzero(slow)):
            out[idx] = _fma_exact_scalar(float(a[idx]), float(b[idx]), float(c[idx]), mode)
    return out


def _fma_exact_scalar(a: float, b: float, c: float, mode: str) -> float:
    from fractions import Fraction
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        # IEEE: (-0) + (-0) is -0; any other exact zero is +0, except -0 when rounding down.
        prod_is_neg_zero = a * b == 0 and (np.signbit(a) != np.signbit(b))
        if c == 0 and a * b == 0 and prod_is_neg_zero and np.signbit(c):
            return -0.0
        return -0.0 if mode == RM else 0.0
    try:
        r = float(exact)                                 # correctly rounded (nearest-even)
    except OverflowError:
        r = float("inf") if exact > 0 else float("-inf")
    if mode == RN:
        return r
    fr = Fraction(r) if np.isfinite(r) else None
    above = fr is None and r > 0 or (fr is not None and fr > exact)
    below = fr is None and r < 0 or (fr is not None and fr < exact)
    arr = np.array([r])
    if mode == RZ:
        up, down = below and r < 0, above and r > 0
    elif mode == RM:
        up, down = False, above
    else:
        up, down = below, False
    return float(step(arr, D.float64, np.array([up]), np.array([down]))[0])


# ---- conversions ---------------------------------------------------------------------

def _int_pair(x: np.ndarray):
    """Integers (any width) as an exact (hi, lo) float64 pair."""
    x = np.asarray(x)
    if x.dtype.itemsize < 8 or x.dtype == np.bool_:
        return x.astype(np.float64), None
    # Split into 32-bit halves, each exact in float64, and add them exactly.
    if x.dtype.kind == "u":
        high = (x >> np.uint64(32)).astype(np.float64) * 4294967296.0
        low = (x & np.uint64(0xFFFFFFFF)).astype(np.float64)
    else:
        high = (x >> np.int64(32)).astype(np.float64) * 4294967296.0   # arithmetic shift: floor
        low = (x & np.int64(0xFFFFFFFF)).astype(np.float64)
    return two_sum(high, low)


def float_to_int(v: np.ndarray, dst: D.DType) -> np.ndarray:
    """Truncate toward zero and saturate to the integer range; NaN → 0 (TileIR ftoi)."""
    f = np.trunc(np.nan_to_num(np.asarray(v, dtype=np.float64), nan=0.0, posinf=np.inf, neginf=-np.inf))
    lo, hi = float(dst.min), float(dst.max)
    too_big = f >= hi                                    # hi may round up to 2**bits: compare, then pin
    too_small = f <= lo
    safe = np.where(too_big | too_small, 0.0, f)
    out = safe.astype(dst.numpy)
    out = np.where(too_big, np.array(dst.max, dtype=dst.numpy), out)
    return np.where(too_small, np.array(dst.min, dtype=dst.numpy), out).astype(dst.numpy)


def convert(x: np.ndarray, src: D.DType, dst: D.DType, rounding_mode=None) -> np.ndarray:
    """cuTile `astype` of storage array `x` from `src` to `dst`.

    float → int truncates toward zero, saturating, NaN → 0; int → int wraps (two's complement);
    anything → bool is `!= 0` (NaN is true); bool → number is 0/1; int/float → float rounds
    once (nearest-even unless `rounding_mode` is RZ/RM/RP).
    """
    if src is dst:
        return x
    x = np.asarray(x)
    if dst.is_bool:
        return to_float64(x, src) != 0 if src.is_float else x != 0
    if dst.is_int:
        if src.is_float:
            return float_to_int(to_float64(x, src), dst)
        return x.astype(dst.numpy)                       # wraps, as trunci/exti do
    # dst is a float format
    if src.is_float:
        return round_float(to_float64(x, src), dst, rounding_mode)
    hi, lo = _int_pair(x)
    return round_pair(hi, lo, dst, rounding_mode)


# ---- NaN results ------------------------------------------------------------------------------

def canonical_nans(x: np.ndarray) -> np.ndarray:
    """NaNs made by arithmetic as the GPU makes them: the positive quiet NaN with an all-ones
    payload. (NumPy's NaN sign and payload depend on its loop's code path, which differs with
    the array's length; canonical NaNs also keep vectorised and one-block runs bit-identical.)"""
    x = np.asarray(x)
    if x.dtype.kind != "f" and x.dtype.name not in ("bfloat16",):
        return x
    if x.dtype.itemsize == 2:
        # f16 / bf16 from their bits: NumPy's float16 max runs in software (60x slower)
        magnitude = np.bitwise_and(x.view(np.uint16), 0x7FFF)
        inf_bits = 0x7C00 if x.dtype == np.float16 else 0x7F80
        if x.size == 0 or magnitude.max() <= inf_bits:
            return x
        nan = magnitude > inf_bits
    elif x.size == 0 or not np.isnan(np.max(x)):       # max propagates NaN: one pass, no temporary
        return x
    else:
        nan = np.isnan(x)
    if not nan.any():
        return x
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    canon = np.array(np.iinfo(bits).max >> 1, dtype=bits).view(x.dtype)
    return np.where(nan, canon, x)
