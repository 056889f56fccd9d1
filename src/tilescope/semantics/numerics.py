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
from .functions import UNARY

# RoundingMode member names understood here (lang.enums.RoundingMode.name).
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
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    if out is None:
        out = np.empty(shape, np.float32)
    n, step, row = _slicing(shape)
    part = lambda v, i: v[i:i + step] if v.ndim == len(shape) and v.shape[0] == n > 1 else v  # noqa: E731
    full = (min(step, n),) + tuple(shape[1:]) if shape else ()
    s_buf, bits_buf = _scratch("s", full, np.float64), _scratch("bits", full, np.uint64)
    bad_buf, tiny_buf, abs_buf = _scratch("bad", full, bool), _scratch("tiny", full, bool), \
        _scratch("abs", full, np.float32)
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
            bad |= np.less_equal(mags, _F32_TINY, out=cut(tiny_buf))
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


def bitcast(x: np.ndarray, src: D.DType, dst: D.DType) -> np.ndarray:
    """Reinterpret the bits of each element (same bit width; fp4 is one value per byte)."""
    x = np.ascontiguousarray(x, dtype=src.numpy)
    if src.bitwidth == 4 or dst.bitwidth == 4:
        bits = x.view(np.uint8) & np.uint8(0xF)
        return bits.view(dst.numpy) if dst.numpy.itemsize == 1 else bits.astype(dst.numpy)
    return x.view(dst.numpy)


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
    if fn in ("pow", "atan2"):
        f = np.power if fn == "pow" else np.arctan2
        return round_via_f32(f(to_float64(x, dtype), to_float64(y, dtype)), dtype)
    raise NotImplementedError(f"binary {fn} on {dtype.name}")


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


# ---- reductions and scans (the executor's rules and transpiled modules both call these) ------
# Values carry a leading block axis, so tile axis `a` is array axis `a + 1`. Reductions combine
# adjacent pairs in a fixed tree and scans run along the axis one element after another, with
# element-wise NumPy only: a block's result never depends on the other blocks of its group.

def _move_to_end(x, tile_axes):
    """(lead, *kept, K): the tile axes moved last and flattened into one."""
    src = [a + 1 for a in tile_axes]
    keep = x.ndim - len(src)
    moved = np.moveaxis(x, src, list(range(keep, x.ndim)))
    return moved.reshape(moved.shape[:keep] + (-1,))


def _tree_reduce(xs, combine, identities):
    """Reduce the last axis of every array by combining adjacent pairs (lhs is the earlier run,
    so associative non-commutative combiners are fine); odd widths are padded with the identity."""
    while xs[0].shape[-1] > 1:
        if xs[0].shape[-1] % 2:
            xs = [np.concatenate([x, np.full(x.shape[:-1] + (1,), i, dtype=x.dtype)], axis=-1)
                  for x, i in zip(xs, identities)]
        xs = combine([x[..., 0::2] for x in xs], [x[..., 1::2] for x in xs])
    return [x[..., 0] for x in xs]


def _flush_subnormals(x):
    """flush_to_zero (float32 only): subnormal values become zero of the same sign."""
    return np.where(np.abs(x) < _F32_TINY, np.copysign(np.float32(0), x), x).astype(np.float32)


def _step_bits(r, up, where):
    """r moved one ulp towards +inf (`up`) or -inf, where `where` holds (bit arithmetic, so it
    works for every IEEE storage dtype incl. bfloat16)."""
    uint = np.dtype(f"u{r.dtype.itemsize}")
    bits = r.view(uint)
    sign_bit = uint.type(1 << (8 * r.dtype.itemsize - 1))
    neg = (bits & sign_bit) != 0
    zero = (bits & ~sign_bit) == 0
    grow = up != neg                                 # magnitude increases
    moved = np.where(grow, bits + uint.type(1), bits - uint.type(1))
    moved = np.where(zero, np.where(up, uint.type(1), sign_bit | uint.type(1)), moved)
    return np.where(where, moved, bits).astype(uint).view(r.dtype)


def _directed(fn, a, b, dtype, mode):
    """a + b or a * b rounded towards zero / -inf / +inf in `dtype` (a NumPy dtype)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    hi, lo = (two_sum if fn == "sum" else two_prod)(a64, b64)
    r = np.asarray(hi.astype(dtype))
    diff = (r.astype(np.float64) - hi) - lo          # sign of (rounded - exact)
    ok = np.isfinite(hi) & np.isfinite(lo)
    if mode == RM:
        fix, up = ok & (diff > 0), False
    elif mode == RP:
        fix, up = ok & (diff < 0), True
    else:                                            # RZ: shrink the magnitude where it grew
        fix = ok & (((hi > 0) & (diff > 0)) | ((hi < 0) & (diff < 0)))
        up = hi < 0
    return _step_bits(r, np.broadcast_to(np.asarray(up), r.shape), fix)


def _reduce_step(fn, a, b, rounding_mode=None, flush_to_zero=False, propagate_nan=False):
    """One element-wise sum/prod/max/min step of a built-in reduction or scan."""
    dtype = a.dtype
    if flush_to_zero:
        a, b = _flush_subnormals(a), _flush_subnormals(b)
    if fn in ("max", "min"):
        if dtype.kind in "iub" or propagate_nan:
            out = (np.maximum if fn == "max" else np.minimum)(a, b)
        else:
            out = (np.fmax if fn == "max" else np.fmin)(a, b)
        return out.astype(dtype, copy=False)
    mode = mode_name(rounding_mode)
    out = _directed(fn, a, b, dtype, mode) if mode != RN else (a + b) if fn == "sum" else (a * b)
    out = out.astype(dtype, copy=False)
    return _flush_subnormals(out) if flush_to_zero else out


def _identity_of(fn, dtype):
    if fn == "sum":
        return 0
    if fn == "prod":
        return 1
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if fn == "max" else info.max
    return -np.inf if fn == "max" else np.inf


def _arg_reduce(fn, x, axis, propagate_nan):
    """First index of the largest/smallest value along tile axis `axis` (int32). NaN is the
    worst value (ignored; index 0 when every value is NaN), or with `propagate_nan` the best
    one (the first NaN wins)."""
    v = np.moveaxis(x, axis + 1, -1)
    if v.dtype.kind in "iub":
        return (np.argmax(v, axis=-1) if fn == "argmax" else np.argmin(v, axis=-1)).astype(np.int32)
    v = v.astype(np.float64)                          # exact for every float storage dtype
    nan = np.isnan(v)
    best = (np.fmax if fn == "argmax" else np.fmin).reduce(v, axis=-1)
    hit = v == best[..., None]                        # never true for NaN
    idx = np.where(hit.any(axis=-1), np.argmax(hit, axis=-1), 0)
    if propagate_nan:
        idx = np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), idx)
    return idx.astype(np.int32)


_ORDER_FREE = tuple(np.dtype(t) for t in ("float16", "float32", "float64", "bool", "int8", "int16", "int32",
                                             "int64", "uint8", "uint16", "uint32", "uint64"))


def reduce(*xs, fn, axes, dtype=None, combine=None, identities=None, **attrs):
    """Reduce tile axes `axes` (pairwise tree, as the GPU does); fn 'custom' calls
    `combine(*lhs, *rhs)` on flat arrays, which returns the combined values."""
    if fn == "custom":
        xs = np.broadcast_arrays(*xs)
        moved = [_move_to_end(x, axes) for x in xs]
        outer = moved[0].shape[:-1]
        flat = [m.reshape(-1, m.shape[-1]) for m in moved]      # (N, K)

        def pairwise(lhs, rhs):
            n, h = lhs[0].shape
            outs = combine(*[a.reshape(-1) for a in lhs + rhs])
            return [np.broadcast_to(o, (n * h,)).astype(x.dtype, copy=False).reshape(n, h)
                    for o, x in zip(outs, lhs)]

        res = [r.reshape(outer) for r in _tree_reduce(flat, pairwise, identities)]
        return res if len(res) > 1 else res[0]
    x = xs[0]
    if fn in ("argmax", "argmin"):
        return _arg_reduce(fn, x, axes[0], attrs.get("propagate_nan", False))
    v = _move_to_end(np.asarray(x, dtype=dtype.numpy), axes)
    tree = lambda w: _tree_reduce([w], lambda l, r: [_reduce_step(fn, l[0], r[0], **attrs)],  # noqa: E731
                                  [_identity_of(fn, w.dtype)])[0]
    if fn not in ("max", "min") or v.dtype not in _ORDER_FREE or v.shape[-1] == 0:
        return tree(v)
    # max/min pick the same value in any order but for the sign of a zero, which NumPy leaves
    # to its code path: one NumPy reduction, then zeros signed as the element-wise max/min
    # does (-0 < +0), so the result never depends on the order or the group.
    w = _flush_subnormals(v) if attrs.get("flush_to_zero") else v
    nan_aware = v.dtype.kind in "iub" or attrs.get("propagate_nan")
    ufunc = (np.maximum if fn == "max" else np.minimum) if nan_aware else (np.fmax if fn == "max" else np.fmin)
    res = ufunc.reduce(w, axis=-1)
    if v.dtype.kind == "f":
        zero = res == 0
        if zero.any():
            rows = w[zero]
            want_neg = (rows == 0) & (np.signbit(rows) if fn == "min" else ~np.signbit(rows))
            neg = want_neg.any(axis=-1) if fn == "min" else ~want_neg.any(axis=-1)
            res[zero] = np.where(neg, -0.0, 0.0).astype(res.dtype)
    return res


def scan(*xs, fn, axis, reverse=False, combine=None, **attrs):
    """Inclusive scan along tile axis `axis`, one element after another; fn 'custom' calls
    `combine(*acc, *current)`."""
    axis = axis + 1
    xs = np.broadcast_arrays(*xs) if len(xs) > 1 else list(xs)
    vs = [np.moveaxis(x, axis, -1) for x in xs]
    if reverse:
        vs = [v[..., ::-1] for v in vs]
    if fn == "custom":
        shape = vs[0].shape[:-1]

        def step_(acc, cur):
            outs = combine(*[a.reshape(-1) for a in acc + cur])
            return [np.broadcast_to(o, a.reshape(-1).shape).astype(a.dtype, copy=False).reshape(shape)
                    for o, a in zip(outs, acc)]
    else:
        def step_(acc, cur):
            return [_reduce_step(fn, acc[0], cur[0], **attrs)]
    outs = [np.empty(v.shape, dtype=v.dtype) for v in vs]
    acc = [v[..., 0] for v in vs]
    for o, a in zip(outs, acc):
        o[..., 0] = a
    for k in range(1, vs[0].shape[-1]):
        acc = step_(acc, [v[..., k] for v in vs])
        for o, a in zip(outs, acc):
            o[..., k] = a
    if reverse:
        outs = [o[..., ::-1] for o in outs]
    outs = [np.ascontiguousarray(np.moveaxis(o, -1, axis)) for o in outs]
    return outs if len(outs) > 1 else outs[0]


# ---- matrix multiply-accumulate --------------------------------------------------------------
# Products of every supported input dtype are exact in float64, so the GPU's numerics reduce
# to where the result is rounded:
#   float32 accumulators: with f32/tf32 inputs float32 BLAS over all of K; with narrow inputs
#   (f16/bf16/fp8, whose products are exact) a float64 sum over all of K rounded once. Both are
#   float32-accurate, as the GPU is (it rounds per tensor-core step, in its own order);
#   float16 accumulators: each step's sum exact in float64, rounded to f16 once per step (the GPU
#   accumulates f16 matmuls in f16); float64: float64 throughout; int8/uint8: exact, wrapped to int32.
# Leading (block and grid) axes are batch axes of np.matmul: every block's product is one BLAS
# call on the same shapes whatever the grouping, so vectorised and one-block runs agree bit for
# bit. (Blocks that share an operand may be joined into one call where a probe shows that to
# be bit-identical on this machine's BLAS: joined.py.)

_MMA_K_STEP = {"float16": 16, "bfloat16": 16, "float8_e4m3fn": 32, "float8_e5m2": 32}


def decode_e5m3fnu(bits: np.ndarray) -> np.ndarray:
    """float8_e5m3fnu (stored as raw uint8): unsigned, 5 exponent bits (bias 15), 3 mantissa bits,
    subnormals, 0xFF is NaN."""
    b = bits.astype(np.int64)
    e, m = b >> 3, (b & 7).astype(np.float64)
    val = np.where(e == 0, np.ldexp(m / 8, -14), np.ldexp(1 + m / 8, e - 15))
    return np.where(b == 0xFF, np.nan, val)


def mma_width(acc_dtype, x_dtype):
    """The float type an mma's products are computed in (see above; fast numerics also sum
    narrow floats in float32)."""
    if acc_dtype is D.float32 and (x_dtype in (D.float32, D.tfloat32) or (_FAST.get() and x_dtype in _NARROW_FLOATS)):
        return np.float32
    return np.float64


def mma_operand(x: np.ndarray, dtype, width) -> np.ndarray:
    """An mma operand of cuTile dtype `dtype` as a contiguous `width` array (its exact values)."""
    if dtype is D.tfloat32:
        x = round_to_tf32(x)
    elif dtype is D.float8_e5m3fnu:
        x = decode_e5m3fnu(x)
    return np.ascontiguousarray(x, dtype=width)


def _mma_steps(x, y, acc, k_step: int, width, matmul=np.matmul) -> np.ndarray:
    out, k = acc, x.shape[-1]
    for start in range(0, k, k_step):
        part = matmul(x[..., start:start + k_step], y[..., start:start + k_step, :])
        # out + part in `width` (out widens exactly); in place when the shapes allow it
        if part.shape == np.broadcast_shapes(part.shape, out.shape):
            part += out
        else:
            part = out.astype(width) + part
        out = part if start + k_step >= k else part.astype(acc.dtype)
    return out.astype(acc.dtype, copy=False)


def mma(x: np.ndarray, y: np.ndarray, acc: np.ndarray, x_dtype, y_dtype, matmul=np.matmul) -> np.ndarray:
    """acc + x @ y as the GPU's mma computes it (see above). `matmul` computes the float
    products: np.matmul or anything bit-identical to it (grid.joined_matmul)."""
    if x_dtype.is_int or x_dtype.is_bool:
        return (np.matmul(x.astype(np.int64), y.astype(np.int64)) + acc.astype(np.int64)).astype(np.int32)
    f32_acc = acc.dtype == np.float32
    # float32 inputs: float32 BLAS. Narrow inputs (f16, bf16, fp8): their products are exact, and a
    # float64 sum rounded once is what the tensor cores approach (measured closer to the H200's
    # results than float32 sums: docs/gpu-validation.md).
    width = mma_width(D.float32 if f32_acc else None, x_dtype)
    k_step = x.shape[-1] if f32_acc else _MMA_K_STEP.get(x_dtype.name, x.shape[-1])
    return _mma_steps(mma_operand(x, x_dtype, width), mma_operand(y, y_dtype, width), acc, max(k_step, 1), width,
                      matmul)


def mma_scaled(x, x_scale, y, y_scale, acc, dtypes) -> np.ndarray:
    """Dequantise with the per-block scales (exact in float64), then one rounding to acc's dtype."""
    x64, xs64, y64, ys64 = (mma_operand(v, dt, np.float64) for v, dt in zip((x, x_scale, y, y_scale), dtypes))
    x64 = x64 * np.repeat(xs64, x64.shape[-1] // xs64.shape[-1], axis=-1)
    y64 = y64 * np.repeat(ys64, y64.shape[-2] // ys64.shape[-2], axis=-2)
    return _mma_steps(np.ascontiguousarray(x64), np.ascontiguousarray(y64), acc, max(x64.shape[-1], 1),
                      np.float64)


# ---- NaN results ------------------------------------------------------------------------------

def canonical_nans(x: np.ndarray) -> np.ndarray:
    """NaNs made by arithmetic as the GPU makes them: the positive quiet NaN with an all-ones
    payload. (NumPy's NaN sign and payload depend on its loop's code path, which differs with
    the array's length; canonical NaNs also keep vectorised and one-block runs bit-identical.)"""
    x = np.asarray(x)
    if x.dtype.kind != "f" and x.dtype.name not in ("bfloat16",):
        return x
    if x.dtype.name == "bfloat16":
        nan = np.isnan(x.astype(np.float32))
    elif x.size == 0 or not np.isnan(np.max(x)):       # max propagates NaN: one pass, no temporary
        return x
    else:
        nan = np.isnan(x)
    if not nan.any():
        return x
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    canon = np.array(np.iinfo(bits).max >> 1, dtype=bits).view(x.dtype)
    return np.where(nan, canon, x)


# Ops whose float results are fresh arithmetic (unary neg/abs only move the sign bit).
CANONICAL_NAN_OPS = frozenset({"binary", "fma", "reduce", "scan", "mma", "mma_scaled"})


def makes_canonical_nans(op) -> bool:
    if op.name == "unary":
        return op.attrs.get("fn") not in ("neg", "abs", "not")
    return op.name in CANONICAL_NAN_OPS


# ---- atomics ----------------------------------------------------------------------------------
# Lanes hitting one element are applied in execution order (block, then lane, row-major), so the
# old values they return are those of a sequential run: order-independent read-modify-writes use
# segmented prefix scans, float adds and CAS replay each element's lanes in turn.

_ATOMIC_UINT = {4: np.uint32, 8: np.uint64, 2: np.uint16}
_ATOMIC_IDENTITY = {
    "add": lambda dt: 0,
    "or": lambda dt: 0,
    "xor": lambda dt: 0,
    "and": lambda dt: -1 if dt.kind == "i" else np.iinfo(dt).max,
    "max": lambda dt: np.iinfo(dt).min,
    "min": lambda dt: np.iinfo(dt).max,
}
_ATOMIC_COMBINE = {"add": np.add, "max": np.maximum, "min": np.minimum, "and": np.bitwise_and,
                   "or": np.bitwise_or, "xor": np.bitwise_xor}


def _atomic_bits(x: np.ndarray) -> np.ndarray:
    return x.view(_ATOMIC_UINT[x.dtype.itemsize]) if x.dtype.kind == "f" or x.dtype.kind == "V" else x


def _segmented_inclusive_scan(values: np.ndarray, seg: np.ndarray, fn) -> np.ndarray:
    """Inclusive scan of `values` within runs of equal `seg` (exact for associative `fn`)."""
    x = values.copy()
    d, n = 1, len(x)
    while d < n:
        same = seg[d:] == seg[:-d]
        if not same.any():
            break
        x[d:] = np.where(same, fn(x[:-d], x[d:]), x[d:])
        d *= 2
    return x


def _replay(init, su, starts, lengths, step):
    """Apply each address's lanes in order: old values (sorted-lane order) and final values.
    `step(cur, lane_positions)` returns the new values after those lanes."""
    old = np.empty_like(su) if su is not None else None
    cur = init.copy()
    for r in range(int(lengths.max())):
        segs = np.flatnonzero(lengths > r)
        pos = starts[segs] + r
        old[pos] = cur[segs]
        cur[segs] = step(cur[segs], pos)
    return old, cur


def apply_atomic(a: np.ndarray, coords, mode: str, update: np.ndarray, expected: np.ndarray = None):
    """Atomically apply `mode` for lanes listed in execution order (coords: 1-D per axis);
    returns the old value each lane saw. `a` is updated in place."""
    n = len(update)
    if n == 0:
        return update.copy()
    lin = np.ravel_multi_index(coords, a.shape) if a.ndim else np.zeros(n, np.int64)
    order = np.argsort(lin, kind="stable")
    sl = lin[order]
    head = np.concatenate([[True], sl[1:] != sl[:-1]])
    starts = np.flatnonzero(head)
    lengths = np.diff(np.concatenate([starts, [n]]))
    ucoords = tuple(np.asarray(c)[order][starts] for c in coords)
    init = np.array(a[ucoords]) if a.ndim else np.array([a[()]])
    su = update[order]
    dt = a.dtype
    unique = len(starts) == n
    if mode == "cas":
        se = expected[order]

        def step(cur, pos):
            return np.where(_atomic_bits(cur) == _atomic_bits(se[pos]), su[pos], cur)
        old_s, final = (init.copy(), step(init, np.arange(n))) if unique else _replay(init, su, starts, lengths, step)
    elif mode == "xchg":
        old_s = np.empty_like(su)
        old_s[1:] = su[:-1]
        old_s[starts] = init
        final = su[starts + lengths - 1]
    elif mode == "add" and dt.kind not in "iu":
        if unique:
            old_s, final = init.copy(), (init + su).astype(dt)
        elif len(starts) - int((lengths == 1).sum()) < int(lengths.max()):
            old_s, final = np.empty_like(su), init.copy()
            for s in range(len(starts)):
                lo, ln = starts[s], lengths[s]
                run = np.add.accumulate(np.concatenate([init[s:s + 1], su[lo:lo + ln]]), dtype=dt)
                old_s[lo:lo + ln] = run[:-1]
                final[s] = run[-1]
        else:
            old_s, final = _replay(init, su, starts, lengths, lambda cur, pos: (cur + su[pos]).astype(dt))
    else:
        fn = _ATOMIC_COMBINE[mode]
        if unique:
            old_s, final = init.copy(), fn(init, su).astype(dt)
        else:
            seg = np.cumsum(head) - 1
            if mode == "add":      # integer add wraps: prefix sums minus each run's offset are exact
                total = np.cumsum(su, dtype=dt)
                incl = (total - (total[starts] - su[starts])[seg]).astype(dt)
            else:
                incl = _segmented_inclusive_scan(su, seg, fn)
            excl = np.empty_like(incl)
            excl[1:] = incl[:-1]
            excl[starts] = np.asarray(_ATOMIC_IDENTITY[mode](dt)).astype(dt)
            old_s = fn(init[seg], excl).astype(dt)
            final = fn(init, incl[starts + lengths - 1]).astype(dt)
    if a.ndim:
        a[ucoords] = final
    else:
        a[()] = final[0]
    old = np.empty_like(old_s)
    old[order] = old_s
    return old
