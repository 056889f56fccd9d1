"""Tiles loaded and stored through `Array.slice` views: where the view's bounds are the same for
every block and start on a tile boundary, the executor reads and writes whole tiles of the base
array (TileBench's rope splits the head dimension into two halves this way); otherwise lane by
lane. Both give the same bits, sequentially and vectorised, and races through views are found."""
import numpy as np

import tilescope.lang as ct
from tilescope.backends.numpy.launcher import run_kernel


@ct.kernel
def swap_halves(x, y, H: ct.Constant[int], START: ct.Constant[int]):
    b = ct.bid(0)
    lo, hi = x.slice(1, START, START + H), x.slice(1, START + H, START + 2 * H)
    y_lo, y_hi = y.slice(1, START, START + H), y.slice(1, START + H, START + 2 * H)
    ct.store(y_lo, index=(b, 0), tile=ct.load(hi, index=(b, 0), shape=(2, H)) * 2.0)
    ct.store(y_hi, index=(b, 0), tile=ct.load(lo, index=(b, 0), shape=(2, H)) + 1.0)


@ct.kernel
def per_block_rows(x, y):
    b = ct.bid(0)
    rows = x.slice(0, 2 * b, 2 * b + 2)
    ct.store(y.slice(0, 2 * b, 2 * b + 2), index=(0, 0), tile=ct.load(rows, index=(0, 0), shape=(2, 8)) - 3.0)


@ct.kernel
def all_blocks_one_half(y):
    ct.store(y.slice(0, 8, 16), index=(0,), tile=ct.full((8,), ct.bid(0) + 1, dtype=ct.float32))


def run_both(grid, kernel, make):
    a1, a2 = make(), make()
    reports = run_kernel(grid, kernel, a1).reports
    run_kernel(grid, kernel, a2, sequential=True)
    for u, v in zip(a1, a2):
        if isinstance(u, np.ndarray):
            assert np.array_equal(u.view(np.uint32), v.view(np.uint32))
    return a1, reports


def test_tile_aligned_halves():
    x = np.arange(8 * 32, dtype=np.float32).reshape(8, 32)
    (_, y, _, _), reports = run_both((4,), swap_halves, lambda: (x.copy(), np.zeros_like(x), 16, 0))
    assert np.array_equal(y, np.concatenate([x[:, 16:] * 2, x[:, :16] + 1], axis=1)) and reports == []


def test_halves_off_the_tile_grid():
    x = np.arange(8 * 40, dtype=np.float32).reshape(8, 40)
    (_, y, _, _), reports = run_both((4,), swap_halves, lambda: (x.copy(), np.zeros_like(x), 16, 3))
    want = np.zeros_like(x)
    want[:, 3:19], want[:, 19:35] = x[:, 19:35] * 2, x[:, 3:19] + 1
    assert np.array_equal(y, want) and reports == []


def test_bounds_that_differ_per_block():
    x = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    (_, y), reports = run_both((4,), per_block_rows, lambda: (x.copy(), np.zeros_like(x)))
    assert np.array_equal(y, x - 3) and reports == []


def test_blocks_storing_one_tile_through_a_view_race():
    y = np.zeros(16, np.float32)
    reports = run_kernel((3,), all_blocks_one_half, (y,)).reports
    assert np.array_equal(y, np.r_[np.zeros(8), np.full(8, 3.0)])
    assert any("race on array 'y'" in r and "both write" in r for r in reports), reports
