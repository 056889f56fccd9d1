"""Tile creation on the CPU executor: arange, full (constant and run-time fill), zeros/ones, astile."""
import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_creation as K

BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.int8, np.int32, np.int64, np.uint16, np.float16, BF16, np.float32, np.float64]


def both(grid, kernel, make):
    runs = []
    for seq in (False, True):
        args = make()
        run_kernel(grid, kernel, args, sequential=seq)
        runs.append(args)
    for a, b in zip(*runs):
        if isinstance(a, np.ndarray):
            assert a.tobytes() == b.tobytes()
    return runs[0]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_arange(dtype):
    o = both((3,), K.arange_k, lambda: (np.zeros(44, dtype), 16))[0]     # ragged: last tile partial
    want = np.tile(np.arange(16), 3)[:44].astype(dtype)
    assert np.array_equal(o.astype(np.float64), want.astype(np.float64))


def test_arange_runtime_start_step():
    o = both((4,), K.arange_start_step, lambda: (np.zeros(32, np.int32), -5, 3, 8))[0]
    want = np.concatenate([(-5 + b) + 3 * np.arange(8) for b in range(4)])
    assert np.array_equal(o, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_full_runtime_fill_per_block(dtype):
    o = both((3,), K.full_runtime, lambda: (np.zeros(20, dtype), 3, 8))[0]
    want = np.repeat([3 * (b + 1) for b in range(3)], 8)[:20].astype(dtype)
    assert np.array_equal(o.astype(np.float64), want.astype(np.float64))


def test_full_runtime_float_fill_rounds_to_dtype():
    o = both((2,), K.full_runtime, lambda: (np.zeros(16, np.float16), 0.1, 8))[0]
    want = np.repeat([np.float16(np.float32(0.1) * np.int32(1)), np.float16(np.float32(0.1) * 2)], 8)
    assert np.array_equal(o, want)


@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64, np.int32], ids=lambda d: np.dtype(d).name)
def test_full_constant_zeros_ones(dtype):
    o = both((2,), K.full_const, lambda: (np.zeros(13, dtype), 8))[0]
    assert np.all(o.astype(np.float64) == float(np.asarray(2.5).astype(dtype)))
    o0, o1 = both((2,), K.zeros_ones, lambda: (np.full(13, 9, dtype), np.full(13, 9, dtype), 8))[:2]
    assert np.all(o0.astype(np.float64) == 0) and np.all(o1.astype(np.float64) == 1)


def test_full_2d():
    o = both((3,), K.full_2d, lambda: (np.zeros((6, 4), np.float32), 1.5))[0]
    assert np.array_equal(o, np.repeat(np.array([1.5, 2.5, 3.5], np.float32), 2)[:, None] * np.ones(4, np.float32))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float16, BF16, np.float64], ids=lambda d: np.dtype(d).name)
def test_astile_literal(dtype):
    o = both((1,), K.astile_literal, lambda: (np.zeros((2, 4), dtype),))[0]
    assert np.array_equal(o.astype(np.float64), np.array([[1, -2, 3, 4], [5, 6, -7, 8]], np.float64))


def test_astile_from_runtime_scalars():
    o = both((3,), K.astile_scalars, lambda: (np.zeros(12, np.float32), 2.5))[0]
    want = np.concatenate([[2.5, 2.5 + b, 5.0, b] for b in range(3)]).astype(np.float32)
    assert np.array_equal(o, want)
