"""Block products joined into one BLAS call (joined.py) and stored from grid form.

A joined product must equal np.matmul's one call per block in every bit, on any BLAS: the
probe refuses shapes whose summation order differs, and kernels give the same bits
vectorised, one block at a time and transpiled.
"""
import numpy as np
import pytest

import cuda.tile as ct

from tilescope.backends.numpy import joined
from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_matmul as K
from tests.backends.test_fusion import three_ways, within_f32

# (lead axes of x, lead axes of y): which grid axes each operand varies along
LAYOUTS = [
    ((1, 1, 4), (1, 3, 1)),       # A per block row (x), B per block column (y): one big product
    ((2, 1, 4), (2, 3, 1)),       # the same per batch entry (z)
    ((1, 4, 1), (1, 1, 3)),       # A along y, B along x
    ((3, 1, 1), (1, 1, 2)),
    ((1, 3, 4), (1, 3, 1)),       # B shared along x only
    ((1, 1, 1), (2, 1, 5)),       # A uniform
    ((2, 3, 4), (2, 3, 4)),       # nothing shared: per-block calls
]


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("tiles", [(16, 40, 8), (32, 512, 32), (64, 512, 64)], ids=str)
@pytest.mark.parametrize("lead", LAYOUTS, ids=str)
def test_equals_matmul_bit_for_bit(dt, tiles, lead):
    tm, k, tn = tiles
    rng = np.random.default_rng(1)
    x = rng.standard_normal(lead[0] + (tm, k)).astype(dt)
    y = rng.standard_normal(lead[1] + (k, tn)).astype(dt)
    got, want = joined.joined_matmul(x, y), np.matmul(x, y)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.numpy_executor
@pytest.mark.parametrize("lead", LAYOUTS[:2], ids=str)
def test_tiles_with_leading_unit_axes_are_joined(lead, monkeypatch):
    # a batched matmul's (1, TM, TK) tiles: joined like 2-d tiles (one big product per batch
    # entry), the result keeping its unit axis
    rng = np.random.default_rng(4)
    x = rng.standard_normal(lead[0] + (1, 64, 48))
    y = rng.standard_normal(lead[1] + (1, 48, 32))
    want = np.matmul(x, y)
    calls = []
    real = np.matmul
    monkeypatch.setattr(joined.np, "matmul", lambda a, b: calls.append(a.shape) or real(a, b))
    got = joined.joined_matmul(x, y)
    assert got.shape == want.shape and np.array_equal(got.view(np.uint8), want.view(np.uint8))
    assert calls[-1] == (lead[0][0], lead[0][2] * 64, 48)      # (batch, rows of blocks · TM, K)


@pytest.mark.numpy_executor
def test_probe_refuses_a_blas_that_sums_large_products_differently(monkeypatch):
    """A BLAS whose big products round differently from small ones is never joined."""
    real = np.matmul
    joined._joins_exactly.cache_clear()
    # whether this machine's BLAS itself sums 64 joined rows as it sums 32 (its kernels may differ)
    real_joins_64 = joined._joins_exactly("<f4", 32, 24, 16, 2, 3)

    def blas(x, y):
        out = real(x, y)
        return out * np.float32(1 + 2 ** -20) if x.shape[-2] > 64 else out

    monkeypatch.setattr(joined.np, "matmul", blas)
    joined._joins_exactly.cache_clear()
    try:
        rng = np.random.default_rng(2)
        x = rng.standard_normal((1, 1, 4, 32, 24)).astype(np.float32)
        y = rng.standard_normal((1, 3, 1, 24, 16)).astype(np.float32)
        assert not joined._joins_exactly("<f4", 32, 24, 16, 4, 3)
        assert np.array_equal(joined.joined_matmul(x, y), real(x, y))
        # 64 rows: products the altered BLAS leaves alone are judged as the real BLAS's are
        assert joined._joins_exactly("<f4", 32, 24, 16, 2, 3) == real_joins_64
    finally:
        joined._joins_exactly.cache_clear()


@pytest.mark.parametrize("dt", [np.float16, np.float32], ids=str)
@pytest.mark.parametrize("tm,tk,kt", [(32, 32, 32), (64, 32, 16), (16, 64, 3)])
def test_kernels_agree_three_ways(tmp_path, dt, tm, tk, kt):
    """Products joined (or not, where the probe says so) give one-block runs' bits."""
    rng = np.random.default_rng(3)
    m, n, k = 4 * tm, 3 * tm, kt * tk
    a, b = rng.uniform(-1, 1, (m, k)).astype(dt), rng.uniform(-1, 1, (k, n)).astype(dt)
    c = three_ways(tmp_path, (4, 3), K.tiled_matmul,
                   lambda: (a, b, np.zeros((m, n), np.float32), tm, tm, tk, kt))[2]
    within_f32(c, a, b, k)


@ct.kernel
def product_and_neighbour(a, b, c, d, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    """c's tile = a @ b (joined, stored from grid form); d's tile = the c tile to the right."""
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        acc = ct.mma(ct.load(a, index=(bm, k), shape=(TM, TK)), ct.load(b, index=(k, bn), shape=(TK, TN)), acc)
    ct.store(d, index=(bm, bn), tile=ct.load(c, index=(bm, (bn + 1) % ct.num_blocks(1)), shape=(TM, TN)))
    ct.store(c, index=(bm, bn), tile=acc)


def test_stores_from_grid_form_keep_their_checks():
    """The race check sees a store made from grid form; a ragged edge falls back to per-block
    tiles and drops what lies outside."""
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (64, 64)).astype(np.float32)
    b = rng.uniform(-1, 1, (64, 96)).astype(np.float32)
    c, d = np.zeros((64, 96), np.float32), np.zeros((64, 96), np.float32)
    reports = run_kernel((2, 3), product_and_neighbour, (a, b, c, d, 32, 32, 32)).reports
    within_f32(c, a, b, 64)
    assert any("race on array 'c'" in r and "one reading what the other writes" in r for r in reports), reports
    ragged = np.full((100, 90), np.nan, np.float32)
    a2 = rng.uniform(-1, 1, (100, 64)).astype(np.float32)
    b2 = rng.uniform(-1, 1, (64, 90)).astype(np.float32)
    run_kernel((4, 3), K.tiled_matmul, (a2, b2, ragged, 32, 32, 32, 2))
    within_f32(ragged, a2, b2, 64)
