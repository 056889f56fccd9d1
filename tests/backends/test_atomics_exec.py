"""Atomics on the CPU executor: old values in (block, lane) order, many lanes on one element,
float adds rounded per update, CAS spin locks across blocks, out-of-bounds no-ops, and no
race reports. Vectorised and one-block-at-a-time runs must agree bit for bit."""
import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.numpy.launcher import needs_sequential, run_kernel, compile_for, _param_specs
from tilescope.semantics.atomics import apply_atomic
from tests.backends import kernels_atomics as K
from tests.backends.test_memory_exec import bits_equal, both_ways

_PY = {"add": lambda a, u: a + u, "max": max, "min": min, "and": lambda a, u: a & u,
       "or": lambda a, u: a | u, "xor": lambda a, u: a ^ u, "xchg": lambda a, u: u}


def reference_rmw(a, idx, upd, mode):
    """One lane at a time in (block, lane) order: the old values and the final array."""
    a = a.copy()
    old = np.zeros_like(upd)
    for k, (i, u) in enumerate(zip(idx, upd)):
        if 0 <= i < len(a):
            old[k] = a[i]
            a[i] = _PY[mode](a[i].item() if a.dtype.kind == "f" else a[i], u)
    return old, a


@pytest.mark.parametrize("mode", list(K.RMW))
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.uint64])
def test_rmw_old_values_with_duplicates(mode, dtype):
    rng = np.random.default_rng(5)
    n, T, B = 6, 8, 4
    idx = rng.integers(-2, n + 2, B * T).astype(np.int32)          # includes OOB and many collisions
    hi = 1000 if np.dtype(dtype).kind == "u" else 500
    lo = 0 if np.dtype(dtype).kind == "u" else -500
    upd = rng.integers(lo, hi, B * T).astype(dtype)
    a0 = rng.integers(lo, hi, n).astype(dtype)
    (a, _, _, old, _), reports = both_ways((B,), K.RMW[mode], lambda: (a0.copy(), idx, upd, np.zeros(B * T, dtype), T))
    ref_old, ref_a = reference_rmw(a0, idx, upd, mode)
    assert bits_equal(a, ref_a) and bits_equal(old, ref_old)
    assert reports == []         # out-of-bounds indices are the masking idiom of atomics: no report


@pytest.mark.parametrize("mode", list(K.RAW_RMW))
def test_raw_rmw_with_mask(mode):
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 5, 16).astype(np.int32)
    upd = rng.integers(0, 100, 16).astype(np.int32)
    a0 = rng.integers(0, 100, 5).astype(np.int32)
    (a, _, _, old, _), _ = both_ways((2,), K.RAW_RMW[mode], lambda: (a0.copy(), idx, upd, np.zeros(16, np.int32), 8))
    live = np.where(idx != 3, idx, -1)                              # mask=i != 3: a no-op, old value 0
    ref_old, ref_a = reference_rmw(a0, live, upd, mode)
    assert bits_equal(a, ref_a) and bits_equal(old, ref_old)


def test_histogram_many_lanes_one_element():
    x = np.random.default_rng(2).integers(0, 7, 1000).astype(np.int32)
    x[:300] = 3
    (_, h, _), reports = both_ways((8,), K.histogram, lambda: (x.copy(), np.zeros(7, np.int32), 128))
    assert np.array_equal(h, np.bincount(x, minlength=7)) and reports == []


def test_ticket_counter_old_values():
    (c, out), _ = both_ways((37,), K.ticket, lambda: (np.zeros(1, np.int64), np.zeros(37, np.int64)))
    assert c[0] == 37 and list(out) == list(range(37))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_float_add_rounds_per_update_in_block_order(dtype):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(64) * 100).astype(dtype)
    (_, acc, _), _ = both_ways((8,), K.float_sum, lambda: (x.copy(), np.zeros(1, dtype), 8))
    ref = np.zeros((), dtype)
    for v in x:
        ref = (np.asarray(ref) + np.asarray(v)).astype(dtype)
    assert bits_equal(acc, np.asarray([ref], dtype))


def test_float_add_in_a_loop_runs_blocks_in_order():
    x = (np.random.default_rng(4).standard_normal(4 * 3 * 8) * 1e4).astype(np.float32)
    (_, acc, _, _), _ = both_ways((4,), K.float_sum_loop, lambda: (x.copy(), np.zeros(1, np.float32), 8, 3))
    ref = np.float32(0)
    for v in x:
        ref = np.float32(ref + v)
    assert bits_equal(acc, np.asarray([ref], np.float32))


def test_cas_returns_old_and_swaps_in_lane_order():
    a0 = np.array([0, 1, 0, 1], np.int32)
    idx = np.array([0, 1, 2, 3, 0, 0, 2, 3], np.int32)
    exp = np.array([0, 0, 0, 1, 42, 0, 7, 1], np.int32)
    des = np.array([42, 9, 7, 5, 43, 1, 8, 6], np.int32)
    (a, _, _, _, old, _), _ = both_ways((2,), K.cas, lambda: (a0.copy(), idx, exp, des, np.zeros(8, np.int32), 4))
    assert list(old) == [0, 1, 0, 1, 42, 43, 7, 5]
    assert list(a) == [43, 1, 8, 5]


def test_float_cas_compares_bits():
    a0 = np.array([-0.0, np.nan], np.float32)
    idx = np.array([0, 1], np.int32)
    exp = np.array([0.0, np.nan], np.float32)
    des = np.array([1.0, 2.0], np.float32)
    (a, _, _, _, old, _), _ = both_ways((1,), K.raw_cas, lambda: (a0.copy(), idx, exp, des, np.zeros(2, np.float32), 2))
    assert bits_equal(a, np.array([-0.0, 2.0], np.float32)) and bits_equal(old, a0)


@pytest.mark.parametrize("kernel", [K.spin_lock_sum, K.raw_spin_lock_sum])
def test_spin_lock_accumulation_across_blocks(kernel):
    x = np.arange(1, 17, dtype=np.float32)
    assert needs_sequential(ir_of(kernel, [np.zeros(1, np.int32), np.zeros(1, np.float32), x]))
    lock, total = np.zeros(1, np.int32), np.zeros(1, np.float32)
    reports = run_kernel((16,), kernel, (lock, total, x)).reports
    assert lock[0] == 0 and total[0] == x.sum()
    assert reports == []          # lock-protected accesses are not races


def _fn(kernel):
    from tilescope.compiler import resolve_kernel
    return resolve_kernel(kernel)[0]


def test_tiled_view_atomics():
    x = np.arange(4 * 8, dtype=np.float32)
    (acc, _, _), _ = both_ways((4,), K.tiled_atomic_add, lambda: (np.ones(8, np.float32), x.copy(), 8))
    assert np.array_equal(acc, 1 + x.reshape(4, 8).sum(0))
    xi = np.random.default_rng(6).integers(-50, 50, 4 * 4).astype(np.int32)
    (acc, _, _), _ = both_ways((4,), K.tiled_atomic_max, lambda: (np.zeros(9, np.int32), xi.copy(), 4))
    ref = np.zeros(9, np.int32)
    for b in range(4):
        for k in range(4):
            if b * 2 + k < 9:
                ref[b * 2 + k] = max(ref[b * 2 + k], xi[b * 4 + k])
    assert np.array_equal(acc, ref)


def test_out_of_bounds_atomics_are_no_ops():
    (a, old), reports = both_ways((1,), K.atomic_oob, lambda: (np.zeros(6, np.int32), np.full(8, -9, np.int32)))
    # Lanes hit -2 (OOB), 1, 4, 7 (OOB): RMW returns 0 there; CAS returns `expected` (0).
    assert list(a) == [0, 1, 0, 0, 1, 0]
    assert list(old) == [0, 0, 0, 0, 0, 1, 1, 0]
    assert reports == []
    (a, old), reports = both_ways((1,), K.atomic_oob_unchecked, lambda: (np.zeros(6, np.int32), np.full(4, -9, np.int32)))
    assert list(a) == [0, 1, 0, 0, 1, 0] and list(old) == [0, 0, 0, 0]
    assert any("check_bounds=False out of bounds" in r and "element (-2,)" in r and "undefined" in r
               for r in reports), reports


def test_atomics_never_race():
    (a,), reports = both_ways((8,), K.atomic_race_free, lambda: (np.zeros(4, np.int32),))
    assert list(a) == [8] * 4 and reports == []


def ir_of(kernel, args):
    return compile_for(_fn(kernel), _param_specs(_fn(kernel), args)[0]).final


def test_needs_sequential_rules():
    x = np.zeros(64, np.float32)
    assert not needs_sequential(ir_of(K.histogram, [np.zeros(8, np.int32), np.zeros(7, np.int32), 8]))
    assert not needs_sequential(ir_of(K.float_sum, [x, np.zeros(1, np.float32), 8]))
    assert not needs_sequential(ir_of(K.ticket, [np.zeros(1, np.int64), np.zeros(4, np.int64)]))
    assert needs_sequential(ir_of(K.float_sum_loop, [x, np.zeros(1, np.float32), 8, 2]))


def test_apply_atomic_vectorised_equals_lane_loop():
    rng = np.random.default_rng(9)
    for mode in ("add", "max", "min", "and", "or", "xor", "xchg"):
        for dtype in (np.int32, np.uint64):
            a0 = rng.integers(0, 1 << 20, 50).astype(dtype)
            idx = np.sort(rng.integers(0, 50, 3000)) if mode == "add" else rng.integers(0, 50, 3000)
            upd = rng.integers(0, 1 << 20, 3000).astype(dtype)
            a = a0.copy()
            old = apply_atomic(a, (idx,), mode, upd)
            ref_old, ref_a = reference_rmw(a0, idx, upd, mode)
            assert bits_equal(a, ref_a) and bits_equal(old, ref_old), (mode, dtype)
    for dtype in (np.float32, np.float16):
        for hot in (True, False):            # few long runs (per-address accumulate) or many (rounds)
            idx = np.zeros(500, np.int64) if hot else rng.integers(0, 200, 500)
            upd = rng.standard_normal(500).astype(dtype)
            a0 = rng.standard_normal(200).astype(dtype)
            a = a0.copy()
            old = apply_atomic(a, (idx,), "add", upd)
            ref_old, ref_a = np.zeros_like(upd), a0.copy()
            for k, (i, u) in enumerate(zip(idx, upd)):
                ref_old[k] = ref_a[i]
                ref_a[i] = dtype(ref_a[i] + u)
            assert bits_equal(a, ref_a) and bits_equal(old, ref_old)
