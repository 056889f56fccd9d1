"""Reductions and scans on the CPU executor, against independent NumPy/Python references.

Every kernel also runs one block at a time; the vectorised run must agree bit for bit.
"""
import math

import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_reduce as K

G, P, M, N = 3, 2, 4, 8          # blocks, and each block's (P, M, N) tile
BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
INTS = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)]
ALL = FLOATS + INTS + [np.dtype(bool)]


def both_ways(grid, kernel, make_args):
    a1 = make_args()
    run_kernel(grid, kernel, a1, checks={"races": False})
    a2 = make_args()
    run_kernel(grid, kernel, a2, sequential=True, checks={"races": False})
    for x, y in zip(a1, a2):
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype
            assert np.array_equal(x.view(np.uint8), y.view(np.uint8)), "vectorised != sequential"
    return a1


def is_float(dt):
    return dt.kind == "f" or dt == BF16


def eps(dt):
    return float(ml_dtypes.finfo(dt).eps)


def make_data(dt, kind, rng, shape=(G * P, M, N)):
    """'wide' values (full int range, wrapping sums), 'ties' (few distinct values, NaNs for floats)
    or 'near1' (floats near 1, small ints: for products)."""
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if is_float(dt):
        if kind == "near1":
            return rng.uniform(0.75, 1.3, shape).astype(dt)
        if kind == "ties":
            v = rng.integers(-3, 4, shape).astype(np.float64) * 0.5
            v[rng.random(shape) < 0.15] = np.nan
            return v.astype(dt)
        return (rng.standard_normal(shape) * 4).astype(dt)
    info = np.iinfo(dt)
    if kind == "ties":
        lo, hi = (0, 5) if info.min == 0 else (-3, 3)
        return rng.integers(lo, hi, shape, endpoint=True).astype(dt)
    if kind == "near1":
        lo = 0 if info.min == 0 else -3
        return rng.integers(lo, 4, shape, endpoint=True).astype(dt)
    return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)


AXES = {"none": (0, 1, 2), "0": (0,), "1": (1,), "2": (2,), "-1": (2,), "0,1": (0, 1), "1,2": (1, 2),
        "0,2": (0, 2), "2,-3": (0, 2), "0,1,2": (0, 1, 2)}


def result_dtype(fn, dt):
    if fn in ("argmax", "argmin") or dt == np.bool_:
        return np.dtype(np.int32)
    return dt


def run_reduce(fn, x, axis, keep=False, pnan=False):
    blocks = x.reshape(G, P, M, N)
    r = int(np.prod([d for i, d in enumerate((P, M, N)) if i not in AXES[axis]]))
    if fn in ("argmax", "argmin") and axis == "none":
        r = 1
    out_dt = result_dtype(fn, x.dtype)
    out = both_ways((G,), K.reduce3d, lambda: (x.copy(), np.zeros((G, r), out_dt), fn, axis, keep, pnan,
                                               P, M, N, r))[1]
    return blocks, out


def move_last(b, axes):
    """(P, M, N) block -> (kept..., K) with the reduced axes last, in order."""
    keep = [i for i in range(3) if i not in axes]
    return np.transpose(b, keep + list(axes)).reshape([b.shape[i] for i in keep] + [-1])


# ---- sum / prod ----------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("axis", ["none", "1", "-1", "0,2"])
def test_sum(dt, axis):
    rng = np.random.default_rng(1)
    x = make_data(dt, "wide", rng)
    blocks, out = run_reduce("sum", x, axis)
    for g in range(G):
        v = move_last(blocks[g], AXES[axis])
        if is_float(dt):
            ref = v.astype(np.float64).sum(-1).ravel()
            tol = eps(dt) * np.abs(v.astype(np.float64)).sum(-1).ravel() * (math.log2(v.shape[-1]) + 2)
            assert np.all(np.abs(out[g].astype(np.float64) - ref) <= tol)
        else:
            work = np.int32 if dt == np.bool_ else dt
            ref = np.array([sum(int(e) for e in row) for row in v.reshape(-1, v.shape[-1])], dtype=object)
            bits = np.dtype(work).itemsize * 8
            wrapped = [(int(r) + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1)) if np.dtype(work).kind == "i"
                       else int(r) % (1 << bits) for r in ref]
            assert [int(e) for e in out[g]] == wrapped


@pytest.mark.parametrize("axis", list(AXES))
@pytest.mark.parametrize("keep", [False, True])
def test_sum_every_axis_form_f32_i32(axis, keep):
    rng = np.random.default_rng(2)
    for dt in (np.dtype(np.float32), np.dtype(np.int32)):
        x = make_data(dt, "ties" if dt.kind == "i" else "wide", rng)
        x = np.nan_to_num(x)
        blocks, out = run_reduce("sum", x, axis, keep)
        for g in range(G):
            ref = blocks[g].astype(np.float64).sum(axis=AXES[axis]).ravel()
            assert np.allclose(out[g], ref, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_prod(dt):
    rng = np.random.default_rng(3)
    x = make_data(dt, "near1", rng)
    for axis in ("2", "0,1"):
        blocks, out = run_reduce("prod", x, axis)
        for g in range(G):
            v = move_last(blocks[g], AXES[axis])
            if is_float(dt):
                ref = v.astype(np.float64).prod(-1).ravel()
                assert np.all(np.abs(out[g] - ref) <= np.abs(ref) * eps(dt) * (v.shape[-1] + 1))
            else:
                work = np.dtype(np.int32) if dt == np.bool_ else dt
                bits = work.itemsize * 8
                for r, row in zip(out[g], v.reshape(-1, v.shape[-1])):
                    p = math.prod(int(e) for e in row) % (1 << bits)
                    if work.kind == "i" and p >= 1 << (bits - 1):
                        p -= 1 << bits
                    assert int(r) == p


def test_sum_keepdims_stores_directly():
    x = np.arange(4 * 16 * 8, dtype=np.float32).reshape(64, 8)
    out = both_ways((4,), K.sum_keepdims, lambda: (x.copy(), np.zeros((4, 8), np.float32), 16, 8))[1]
    assert np.array_equal(out, x.reshape(4, 16, 8).sum(1))


def test_integer_sum_wraps():
    x = np.full((G * P, M, N), 100, np.int8)
    _, out = run_reduce("sum", x, "1,2")
    assert out.dtype == np.int8 and np.all(out == np.int8(-128))       # 3200 mod 256


# ---- max / min -------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("fn", ["max", "min"])
@pytest.mark.parametrize("pnan", [False, True])
def test_max_min(dt, fn, pnan):
    rng = np.random.default_rng(4)
    x = make_data(dt, "ties", rng)
    x[0, 0, :] = np.nan if is_float(dt) else x[0, 0, :]          # an all-NaN row
    for axis in ("2", "0,1", "none"):
        blocks, out = run_reduce(fn, x, axis, pnan=pnan)
        for g in range(G):
            v = move_last(blocks[g], AXES[axis]).astype(np.float64)
            rows = v.reshape(-1, v.shape[-1])
            for r, row in zip(out[g].astype(np.float64), rows):
                real = row[~np.isnan(row)]
                if pnan and np.isnan(row).any() or real.size == 0:
                    assert np.isnan(r)
                else:
                    assert r == (real.max() if fn == "max" else real.min())


def test_max_scalar_result():
    x = np.random.default_rng(5).standard_normal((4 * 8, 16)).astype(np.float32)
    x[3, 3] = np.nan
    out = both_ways((4,), K.max_all_scalar, lambda: (x.copy(), np.zeros(4, np.float32), 8, 16))[1]
    assert np.array_equal(out, np.nanmax(x.reshape(4, -1), axis=1))


# ---- argmax / argmin --------------------------------------------------------------------

def ref_arg(row, fn, pnan):
    best = None
    for i, v in enumerate(row):
        if v != v:
            if pnan:
                return i
            continue
        if best is None or (v > row[best] if fn == "argmax" else v < row[best]):
            best = i
    return 0 if best is None else best


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("fn", ["argmax", "argmin"])
@pytest.mark.parametrize("pnan", [False, True])
def test_arg_reductions(dt, fn, pnan):
    rng = np.random.default_rng(6)
    x = make_data(dt, "ties", rng)
    if is_float(dt):
        x[0, 0, :] = np.nan                                   # all NaN: index 0
        x[0, 1, :] = -np.inf
        x[0, 1, 3] = np.nan                                   # NaN worse than -inf unless pnan
    for axis in ("none", "0", "1", "2", "-1"):
        blocks, out = run_reduce(fn, x, axis, pnan=pnan)
        assert out.dtype == np.int32
        for g in range(G):
            b = blocks[g].astype(np.float64)
            if axis == "none":
                rows = b.reshape(1, -1)
            else:
                rows = move_last(b, AXES[axis]).reshape(-1, b.shape[AXES[axis][0]])
            assert [int(i) for i in out[g]] == [ref_arg(list(r), fn, pnan) for r in rows]


def test_argmax_keepdims_over_flattened_tile():
    x = make_data(np.dtype(np.float32), "wide", np.random.default_rng(7))
    blocks, out = run_reduce("argmax", x, "none", keep=True)
    assert list(out[:, 0]) == [int(np.argmax(blocks[g])) for g in range(G)]


# ---- rounding modes and flush-to-zero ---------------------------------------------------

@pytest.mark.parametrize("dt", [np.dtype(np.float16), BF16, np.dtype(np.float32)], ids=str)
def test_sum_rounding_modes_bracket_the_exact_sum(dt):
    """Each step of a directed-rounding sum rounds the right way, so RM <= exact <= RP and RZ
    is no further from zero than the larger of them. (Modes travel by member name.)"""
    x = np.random.default_rng(8).standard_normal((4 * 2, 32)).astype(dt)
    x[:, 0] = np.where(np.arange(8) % 2 == 0, 1000, -1000)       # sign of the sums varies
    outs = {}
    for m in ("RN", "RZ", "RM", "RP"):
        outs[m] = both_ways((4,), K.rounded_sum, lambda: (x.copy(), np.zeros(8, dt), m, 2, 32))[1].astype(np.float64)
    exact = x.astype(np.float64).sum(1)
    assert np.all(outs["RM"] <= exact) and np.all(exact <= outs["RP"])
    assert np.all(outs["RM"] < outs["RP"])                     # inexact sums: the modes differ
    assert np.all(np.abs(outs["RZ"]) <= np.abs(exact))
    assert np.all(np.abs(outs["RN"] - exact) <= outs["RP"] - outs["RM"])


def test_sum_flush_to_zero():
    tiny = np.float32(1e-40)                                  # subnormal
    x = np.full((2, 4), tiny, np.float32)
    x[1, 0] = 1.0
    out = both_ways((1,), K.ftz_sum, lambda: (x.copy(), np.zeros(2, np.float32), 2, 4))[1]
    assert out[0] == 0 and out[1] == 1.0


# ---- scans -------------------------------------------------------------------------------

def ref_scan(v, fn, dt):
    """Sequential inclusive scan along the last axis with one rounding to dt per step."""
    out = np.empty(v.shape, dtype=dt)
    acc = v[..., 0].astype(dt)
    out[..., 0] = acc
    for k in range(1, v.shape[-1]):
        acc = (acc + v[..., k] if fn == "sum" else acc * v[..., k]).astype(dt)
        out[..., k] = acc
    return out


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("fn", ["sum", "prod"])
@pytest.mark.parametrize("axis,rev", [(2, False), (1, True), (-1, True), (0, False)])
def test_scans(dt, fn, axis, rev):
    rng = np.random.default_rng(9)
    x = make_data(dt, "wide" if fn == "sum" else "near1", rng)
    work = np.dtype(np.int32) if dt == np.bool_ else dt
    out = both_ways((G,), K.scan3d, lambda: (x.copy(), np.zeros(x.shape, work), fn, axis, rev, P, M, N))[1]
    for g in range(G):
        b = x.reshape(G, P, M, N)[g].astype(work)
        v = np.moveaxis(b, axis, -1)
        if rev:
            v = v[..., ::-1]
        ref = ref_scan(v, fn, work)
        if rev:
            ref = ref[..., ::-1]
        got = np.moveaxis(out.reshape(G, P, M, N)[g], axis, -1)
        assert np.array_equal(got, ref, equal_nan=True)
        if is_float(dt):       # and close to the float64 truth
            v64 = v.astype(np.float64)
            truth = np.cumsum(v64, -1) if fn == "sum" else np.cumprod(v64, -1)
            scale = np.cumsum(np.abs(v64), -1) if fn == "sum" else np.abs(truth)
            got64 = (got[..., ::-1] if rev else got).astype(np.float64)
            assert np.all(np.abs(got64 - truth) <= scale * eps(dt) * N)


# ---- user combiners -------------------------------------------------------------------

def _pair_reduction(where):
    rng = np.random.default_rng(10)
    x = (rng.integers(-4, 5, (4 * 8, 16)) * 0.25).astype(np.float32)
    idx = np.arange(16, dtype=np.int32).reshape(1, 16)
    v, i = both_ways((4,), K.argmax_pair, lambda: (x.copy(), idx, np.zeros(32, np.float32),
                                                   np.zeros(32, np.int32), 8, 16, where))[2:4]
    assert np.array_equal(v, x.max(1))
    assert np.array_equal(i, x.argmax(1))        # ties -> smallest index


def test_custom_max_with_index_pair():
    _pair_reduction(False)


def test_custom_max_with_index_pair_where():
    _pair_reduction(True)


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.uint16, np.float32], ids=str)
@pytest.mark.parametrize("axis,keep", [(0, False), (1, True), (-1, False)])
def test_custom_sum(dt, axis, keep):
    x = make_data(np.dtype(dt), "ties", np.random.default_rng(11), shape=(3 * 4, 8))
    x = np.nan_to_num(x) if np.dtype(dt).kind == "f" else x
    r = 8 if axis == 0 else 4
    out = both_ways((3,), K.custom_sum, lambda: (x.copy(), np.zeros((3, r), dt), 4, 8, axis, keep, r))[1]
    ref = x.reshape(3, 4, 8).sum(axis=axis + 1 if axis >= 0 else -1, dtype=dt)
    assert np.array_equal(out, ref)


def affine_ref(a, b, rev):
    """Composition of h -> a*h + b in scan order, as (a, b) pairs (int32 wrapping)."""
    n = a.shape[-1]
    order = range(n - 1, -1, -1) if rev else range(n)
    outa, outb = np.empty_like(a), np.empty_like(b)
    accs = None
    for k in order:
        if accs is None:
            accs = (a[:, k].astype(np.int64), b[:, k].astype(np.int64))
        else:
            accs = ((accs[0] * a[:, k]) & 0xFFFFFFFF, (accs[1] * a[:, k] + b[:, k]) & 0xFFFFFFFF)
        outa[:, k] = accs[0].astype(np.uint32).view(np.int32) if accs[0].dtype == np.int64 else accs[0]
        outb[:, k] = accs[1].astype(np.uint32).view(np.int32)
    return outa, outb


def test_custom_noncommutative_reduce():
    rng = np.random.default_rng(12)
    a = rng.integers(-3, 4, (2 * 4, 16)).astype(np.int32)
    b = rng.integers(-9, 10, (2 * 4, 16)).astype(np.int32)
    ra, rb = both_ways((2,), K.affine_reduce, lambda: (a, b, np.zeros(8, np.int32), np.zeros(8, np.int32), 4, 16))[2:4]
    fa, fb = affine_ref(a, b, False)
    assert np.array_equal(ra, fa[:, -1]) and np.array_equal(rb, fb[:, -1])


@pytest.mark.parametrize("rev", [False, True])
def test_custom_scan_pairs(rev):
    rng = np.random.default_rng(13)
    a = rng.integers(-3, 4, (2 * 4, 16)).astype(np.int32)
    b = rng.integers(-9, 10, (2 * 4, 16)).astype(np.int32)
    ra, rb = both_ways((2,), K.affine_scan, lambda: (a, b, np.zeros_like(a), np.zeros_like(b), 4, 16, rev))[2:4]
    fa, fb = affine_ref(a, b, rev)
    assert np.array_equal(ra, fa) and np.array_equal(rb, fb)


def test_custom_scan_running_max():
    x = np.random.default_rng(14).standard_normal((2 * 8, 4)).astype(np.float32)
    out = both_ways((2,), K.running_max, lambda: (x.copy(), np.zeros_like(x), 8, 4))[1]
    ref = np.concatenate([np.maximum.accumulate(x[:8], 0), np.maximum.accumulate(x[8:], 0)])
    assert np.array_equal(out, ref)
