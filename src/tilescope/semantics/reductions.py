"""Reductions and scans along tile axes, in a fixed order: a block's result never depends on
the other blocks of its group.

The executor's rules and transpiled modules both call these."""
from __future__ import annotations

import numpy as np

from .numerics import RM, RN, RP, _F32_TINY, mode_name, two_prod, two_sum


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
