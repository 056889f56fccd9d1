"""Memory family on the CPU executor: tile loads/stores (padding modes, orders, ragged and
strided arrays), gather/scatter, advanced indexing, slices with per-block bounds, tiled views,
raw memory, list items, and the bounds / race / poison reports.

Every kernel also runs one block at a time; the vectorised run must agree bit for bit.
"""
import ml_dtypes
import numpy as np
import pytest

import tilescope.lang as ct
from tilescope.backends.numpy import tiles as T
from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_memory as K


def both_ways(grid, kernel, make_args, checks=None):
    """Run vectorised and sequentially; returns (args of the vectorised run, its reports)."""
    a1 = make_args()
    c1 = run_kernel(grid, kernel, a1, checks=checks)
    a2 = make_args()
    run_kernel(grid, kernel, a2, sequential=True, checks=checks)
    for x, y in zip(a1, a2):
        if isinstance(x, np.ndarray):
            assert bits_equal(x, y)
    return a1, c1.reports


def bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return np.array_equal(a.view(u), b.view(u))


# ---- tile loads and stores ----------------------------------------------------------

PAD_EXPECT = {ct.PaddingMode.ZERO: 0.0, ct.PaddingMode.NEG_ZERO: -0.0, ct.PaddingMode.NAN: np.nan,
              ct.PaddingMode.POS_INF: np.inf, ct.PaddingMode.NEG_INF: -np.inf}


@pytest.mark.parametrize("mode", list(ct.PaddingMode), ids=lambda m: m.name)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64, np.int32])
def test_padding_modes(mode, dtype):
    # x has 10 elements; y has 12 and receives the padded last tile in full.
    x = (np.arange(10) - 3).astype(dtype)
    (xs, y, _), _ = both_ways((3,), K.PAD_KERNELS[mode], lambda: (x.copy(), np.full(12, 7, dtype), 4))
    assert bits_equal(y[:10], x)
    pad = y[10:]
    if np.dtype(dtype).kind in "iu" or mode is ct.PaddingMode.UNDETERMINED:
        assert (pad == 0).all()        # UNDETERMINED reads as 0, as on the GPU in practice
    else:
        want = np.full(2, PAD_EXPECT[mode], np.float32).astype(dtype)
        assert bits_equal(pad, want)


def test_undetermined_padding_is_dropped_by_ragged_store():
    x = np.arange(10, dtype=np.float32)
    (xs, y, _), reports = both_ways((3,), K.poison_ok, lambda: (x.copy(), np.zeros(10, np.float32), 4))
    assert np.array_equal(y, x * 2 + 1) and reports == []


def test_undetermined_padding_is_poison_under_the_poison_check():
    x = (np.arange(10) - 3).astype(np.float32)
    mode = ct.PaddingMode.UNDETERMINED
    (xs, y, _), _ = both_ways((3,), K.PAD_KERNELS[mode], lambda: (x.copy(), np.full(12, 7, np.float32), 4),
                              checks={"poison": True})
    assert T.is_poison(y[10:]).all()


def test_poison_reaching_an_atomic_is_reported_as_for_a_store():
    x = np.arange(10, dtype=np.float32)
    (xs, y, _), reports = both_ways((3,), K.poison_atomic, lambda: (x.copy(), np.zeros(1, np.float32), 4),
                                    checks={"poison": True})
    assert any("UNDETERMINED padding reaches atomic_add" in r and "array 'y'" in r and "block (2, 0, 0)" in r
               for r in reports)
    _, clean = both_ways((3,), K.poison_atomic, lambda: (x.copy(), np.zeros(1, np.float32), 4))
    assert clean == []                  # without the check: nothing said


def test_poison_reaching_a_store_is_reported():
    x = np.arange(10, dtype=np.float32)
    (xs, y, _), reports = both_ways((3,), K.poison_store, lambda: (x.copy(), np.zeros(1, np.float32), 4),
                                    checks={"poison": True})
    assert any("UNDETERMINED padding reaches a store" in r and "array 'y'" in r and "block (2, 0, 0)" in r
               for r in reports), reports


def test_poison_helpers_roundtrip():
    for dt in (np.float32, np.float16, np.float64, ml_dtypes.bfloat16):
        p = T.poison_value(np.dtype(dt))
        assert np.isnan(np.float32(p)) and T.is_poison(np.array([p], dt))[0]
        assert not T.is_poison(np.array([np.nan, 1.0, -np.nan], dt)).any()
    p32 = np.array([T.poison_value(np.dtype(np.float32))] * 2)
    assert T.is_poison(p32 + np.float32(1)).all() and T.is_poison(p32.astype(np.float16)).all()
    assert T.is_poison(-p32.astype(np.float64)).all()
    assert T.poison_value(np.dtype(ml_dtypes.float8_e4m3fn)) is None


@pytest.mark.parametrize("shape", [(8, 16), (13, 21), (5, 3)])
def test_2d_ragged(shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    grid = (-(-shape[0] // 4), -(-shape[1] // 8))
    (xs, y, _, _), _ = both_ways(grid, K.copy_2d, lambda: (x.copy(), np.zeros(shape, np.float32), 4, 8))
    assert np.array_equal(y, x + 1)


def test_order_f_and_transpose():
    x = np.arange(8 * 12, dtype=np.int32).reshape(8, 12)
    # Tile (i, j) of shape (4, 2) in F order holds t[a, b] = x[j*2 + b, i*4 + a]; its transpose,
    # stored at (j, i) in C order, lands back on the same elements.
    (xs, y, _, _), _ = both_ways((3, 4), K.copy_2d_f, lambda: (x.copy(), np.zeros((8, 12), np.int32), 4, 2))
    assert np.array_equal(y, x)
    (xs, y, _, _), _ = both_ways((3, 3), K.copy_2d_f, lambda: (x[:6].copy(), np.zeros((6, 12), np.int32), 4, 2))
    assert np.array_equal(y, x[:6])


def test_3d_permuted_order():
    x = np.arange(2 * 3 * 4, dtype=np.int32).reshape(2, 3, 4) * 7   # ragged along axis 1 (3 < 4)
    (xs, y), _ = both_ways((2,), K.copy_3d_perm, lambda: (x.copy(), np.full((4, 8, 4), -1, np.int32)))
    # The tile (2, 4, 2) in order (2, 0, 1): tile axis 0 -> array axis 2, 1 -> 0, 2 -> 1.
    for i in range(2):
        tile = np.zeros((2, 4, 2), np.int32)
        for a in range(2):
            for b_ in range(4):
                for c in range(2):
                    e = (b_, c, i * 2 + a)          # element coords in x
                    tile[a, b_, c] = x[e] if e[0] < 2 and e[1] < 3 and e[2] < 4 else 0
        assert np.array_equal(y[i * 2:(i + 1) * 2, 0:4, 0:2], tile)


def test_negative_stride_and_non_contiguous_in_place():
    base = np.arange(40, dtype=np.float32)
    x = base[::-2]                      # 20 elements, negative stride
    out_base = np.zeros((20, 3), np.float32)
    y = out_base[:, 1]                  # non-contiguous destination, written in place
    run_kernel((5,), K.PAD_KERNELS[ct.PaddingMode.ZERO], (x, y, 4))
    assert np.array_equal(out_base[:, 1], base[::-2]) and (out_base[:, [0, 2]] == 0).all()
    out2 = np.zeros((20, 3), np.float32)
    run_kernel((5,), K.PAD_KERNELS[ct.PaddingMode.ZERO], (x, out2[:, 1], 4), sequential=True)
    assert bits_equal(out2, out_base)


def test_negative_stride_2d_ragged_in_place():
    x = np.arange(10 * 6, dtype=np.float32).reshape(10, 6)[::-1, ::-1]
    y_base = np.zeros((10, 12), np.float32)
    y = y_base[:, ::2]
    run_kernel((3, 1), K.copy_2d, (x, y, 4, 8))
    assert np.array_equal(y_base[:, ::2], x + 1) and (y_base[:, 1::2] == 0).all()


def test_scalar_tiles():
    x = np.arange(5, dtype=np.int64)
    (xs, y), _ = both_ways((5,), K.scalar_store, lambda: (x.copy(), np.zeros(5, np.int64)))
    assert np.array_equal(y, x * 2)


def test_fully_out_of_bounds_tile_is_reported():
    x = np.arange(8, dtype=np.float32)
    (xs, y), reports = both_ways((1,), K.oob_tile, lambda: (x.copy(), np.zeros(4, np.float32)))
    assert any("entirely out of bounds" in r and "tile index (5,)" in r for r in reports), reports


def test_array_dims_and_strides():
    x = np.zeros((6, 10), np.float32)[:, ::2]
    (_, out), _ = both_ways((1,), K.dims_strides, lambda: (x, np.zeros(1, np.int32)))
    assert out[0] == 6 * 1000 + 5 * 100 + 10 * 10 + 2


# ---- gather / scatter / advanced indexing ----------------------------------------

def test_gather_scatter_masks_and_oob():
    x = np.arange(10, dtype=np.float32) + 0.5
    idx = np.array([0, 3, -1, 12, 4, 4, 9, 2], np.int32)
    (xs, ids, y, _), reports = both_ways((2,), K.gather_scatter,
                                      lambda: (x.copy(), idx.copy(), np.zeros(10, np.float32), 4))
    expect = np.zeros(10, np.float32)
    for i in idx:
        if 0 <= i < 10 and i % 2 == 0:
            expect[i] = x[i] * 10
    assert np.array_equal(y, expect)
    # Out-of-range and masked-off lanes of a checked gather/scatter are defined behaviour.
    assert not any("out of bounds" in r for r in reports), reports


def test_gather_2d_broadcast_indices():
    x = np.arange(4 * 8, dtype=np.int32).reshape(4, 8)
    (xs, y, _), _ = both_ways((1,), K.gather_2d, lambda: (x.copy(), np.zeros((4, 4), np.int32), 4))
    for r in range(4):
        for c in range(4):
            rr, cc = r - 1, c * 2
            want = x[rr, cc] if 0 <= rr < 4 and cc < 7 else 99
            assert y[r, c] == want


def test_scatter_without_bounds_checks_is_reported_and_stays_in_bounds():
    y = np.zeros(8, np.int32)
    (ys, _), reports = both_ways((1,), K.scatter_unchecked, lambda: (y.copy(), 4))
    assert list(ys) == [5, 0, 0, 5, 0, 0, 5, 0]
    assert any("check_bounds=False out of bounds" in r and "undefined behaviour" in r for r in reports), reports


def test_advanced_indexing():
    x = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    rows = np.array([5, 0, 7, 2], np.int32)        # row 7 is out of bounds
    (xs, y, rs, _), _ = both_ways((1,), K.advanced, lambda: (x.copy(), np.zeros((6, 5), np.float32), rows.copy(), 4))
    expect = np.zeros((6, 5), np.float32)
    for r in rows:
        if r < 6:
            expect[r, 1:5] = x[r, 2:6]
    assert np.array_equal(y, expect)


# ---- slices, tiled views, raw memory, lists --------------------------------------

def test_slice_with_per_block_bounds():
    x = np.arange(1, 41, dtype=np.float32)
    starts = np.array([0, 3, 3, 17, 40], np.int32)
    (_, _, out, _), _ = both_ways((4,), K.slice_sum, lambda: (x.copy(), starts.copy(), np.zeros(4, np.float32), 4))
    assert np.array_equal(out, [x[starts[b]:starts[b + 1]].sum() for b in range(4)])


def test_slice_pads_past_stop_even_inside_parent():
    x = np.arange(16, dtype=np.float32)
    (_, y, _, _), _ = both_ways((1,), K.slice_copy, lambda: (x.copy(), np.full(16, 5, np.float32), 3, 9))
    # Loaded: x[3:9] then -inf padding; the store into y[3:9] drops elements past the slice.
    assert np.array_equal(y, np.r_[[5] * 3, x[3:9], [5] * 7])


def test_slice_shape_per_block():
    x = np.zeros((3, 9), np.float32)
    (_, out), _ = both_ways((4,), K.slice_shape, lambda: (x, np.zeros(4, np.int32)))
    assert list(out) == [(b + 1) * 100 + 3 for b in range(4)]


@pytest.mark.parametrize("tile,step,n", [(4, 2, 8), (4, 8, 16), (4, 3, 12), (4, 4, 10)])
def test_tiled_view_traversal_steps(tile, step, n):
    x = np.arange(1, n + 1, dtype=np.float32)
    (_, out, _, _), _ = both_ways((1,), K.window_copy, lambda: (x.copy(), np.zeros(n, np.float32), tile, step))
    ref = np.zeros(n, np.float32)
    for s in range(0, n, step):
        ref[s:s + tile] = x[s:s + tile]
    assert np.array_equal(out, ref)


def test_tiled_view_box_filter():
    x = np.random.default_rng(1).integers(0, 10, (6, 6)).astype(np.int32)
    (_, out, _, _), _ = both_ways((1,), K.box_filter, lambda: (x.copy(), np.zeros(25, np.int32), 5, 5))
    ref = np.array([[x[i:i + 2, j:j + 2].sum() for j in range(5)] for i in range(5)]).reshape(-1)
    assert np.array_equal(out, ref)


def test_tiled_view_ragged_and_num_tiles():
    x = np.arange(6 * 4, dtype=np.float32).reshape(6, 4)
    (_, y, n), _ = both_ways((2,), K.view_ragged, lambda: (x.copy(), np.zeros((8, 4), np.float32), np.zeros(2, np.int32)))
    assert np.array_equal(y[:6], x) and np.isnan(y[6:]).all() and list(n) == [21, 21]


def test_raw_memory_contiguous_and_strided():
    x = np.arange(12, dtype=np.float32)
    (_, y, _), reports = both_ways((3,), K.raw_copy, lambda: (x.copy(), np.zeros(12, np.float32), 4))
    assert np.array_equal(y, np.r_[x[:10], [-1, -1]]) and reports == []
    # A strided source: offset k is the element k elements past the base in memory, which
    # for x[::2] is x_base[k], an element of the array only for even k.
    xb = np.arange(24, dtype=np.float32)
    (_, y, _), reports = both_ways((3,), K.raw_copy, lambda: (xb[::2], np.zeros(12, np.float32), 4))
    expect = np.where(np.arange(12) % 2 == 0, np.arange(12), -1).astype(np.float32)
    expect[10:] = -1
    assert np.array_equal(y, expect)
    assert any("raw load at element offset 1" in r and "outside the array" in r for r in reports), reports


def test_list_item_per_block():
    arrs = [np.full(4, 10 * k, np.int32) for k in range(3)]
    arrs[1] = np.full(8, 10, np.int32)
    (_, out, _), _ = both_ways((5,), K.list_pick, lambda: ([a.copy() for a in arrs], np.zeros(20, np.int32), 4))
    want = [np.full(4, (10 * (b % 3)) + (2 if b % 3 == 1 else 1)) for b in range(5)]
    assert np.array_equal(out, np.concatenate(want))


# ---- races ------------------------------------------------------------------------------

def _names_blocks(report, a, b):
    return f"{a} and {b}" in report or f"{b} and {a}" in report


def test_two_blocks_storing_one_tile_is_a_race():
    (y,), reports = both_ways((4,), K.race_store, lambda: (np.zeros(8, np.int32),))
    assert np.array_equal(y, np.repeat([1, 3], 4))          # the later block wins, as sequentially
    assert any("race on array 'y'" in r and _names_blocks(r, (0, 0, 0), (1, 0, 0)) for r in reports), reports


def test_read_of_another_blocks_write_is_a_race():
    reports = run_kernel((2,), K.race_read_write, (np.zeros(8, np.float32),)).reports     # racy: no both_ways
    assert any("race on array 'x'" in r and "one reading what the other writes" in r for r in reports), reports


def test_overlapping_scatters_race():
    (y,), reports = both_ways((3,), K.race_scatter, lambda: (np.zeros(8, np.int32),))
    assert np.array_equal(y, [0, 0, 1, 1, 2, 2, 2, 2])
    assert any("race on array 'y'" in r and "both write" in r for r in reports), reports


def test_no_reports_for_clean_kernels():
    x = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    (_, y, _, _), reports = both_ways((2, 2), K.copy_2d, lambda: (x.copy(), np.zeros_like(x), 4, 8))
    assert np.array_equal(y, x + 1) and reports == []
