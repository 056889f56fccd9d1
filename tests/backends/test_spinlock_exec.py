"""Lock-protected accumulation across blocks on the CPU executor (upstream samples/LayerNorm.py
backward pattern): a CAS/xchg spin lock per group guards a read-modify-write of a shared row."""
import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.numpy.launcher import needs_sequential, run_kernel, uses_spin_lock
from tests.backends import kernels_spinlock as K


def _inputs(M, N, G, dtype=np.float32, seed=0):
    x = np.random.default_rng(seed).standard_normal((M, N)).astype(dtype)
    return x, np.zeros((G, N), np.float32), np.zeros(G, np.int32), np.zeros(G, np.int32)


def _expected(x, G):
    ref = np.zeros((G, x.shape[1]), np.float64)
    for m in range(x.shape[0]):
        ref[m % G] += 2.0 * x[m].astype(np.float64)
    return ref


def test_spin_lock_kernel_is_run_one_block_at_a_time():
    import tilescope
    ir = tilescope.compile(K.grouped_accumulate, "f32[64,48], f32[8,48], i32[8], i32[8], 16").final
    assert uses_spin_lock(ir) and needs_sequential(ir)


@pytest.mark.parametrize("M,N,G,tile", [(64, 48, 8, 16), (37, 100, 5, 32), (128, 2048, 64, 1024), (16, 8, 16, 8)])
@pytest.mark.parametrize("sequential", [None, True])
def test_grouped_accumulation_under_lock(M, N, G, tile, sequential):
    x, acc, count, locks = _inputs(M, N, G)
    run_kernel((M,), K.grouped_accumulate, (x, acc, count, locks, tile), sequential=sequential)
    tiles = -(-N // tile)
    assert locks.tolist() == [0] * G                                  # every lock released
    assert count.tolist() == [tiles * len(range(g, M, G)) for g in range(G)]   # no lost update
    np.testing.assert_allclose(acc, _expected(x, G), rtol=1e-6, atol=1e-5)
    # Per group, rows are added in block order: the float32 sums are exactly those of a
    # sequential loop over the blocks.
    exact = np.zeros((G, N), np.float32)
    for m in range(M):
        exact[m % G] = 2.0 * x[m] + exact[m % G]
    assert np.array_equal(acc, exact)


def test_accumulate_then_reduce_like_layer_norm_backward():
    M, N, G, TILE_N, TILE_M = 256, 2048, 64, 1024, 32
    x, acc, count, locks = _inputs(M, N, G, seed=1)
    run_kernel((M,), K.grouped_accumulate, (x, acc, count, locks, TILE_N))
    out = np.empty(N, ml_dtypes.bfloat16)
    run_kernel((-(-N // TILE_N),), K.reduce_rows, (acc, out, TILE_M, TILE_N))
    ref = 2.0 * x.astype(np.float64).sum(axis=0)
    # Only the final rounding to bfloat16 (8 bits of mantissa) separates the two.
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=2 ** -8, atol=1e-6)
