"""Regular tilings that run past an array's edge (backends/numpy/partial.py): loads pad and
stores drop exactly as lane by lane, with whole-region copies instead of per-element gathers."""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import tiles
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.ops import memory
from tests.backends import kernels_matmul as K
from tests.backends.test_fusion import three_ways, within_f32

PAD = ct.PaddingMode


@ct.kernel
def copy2d(x, y, TM: ct.Constant[int], TN: ct.Constant[int], MODE: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    mode = (PAD.ZERO, PAD.NEG_ZERO, PAD.NAN, PAD.POS_INF, PAD.NEG_INF)[MODE]
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=mode)
    ct.store(y, index=(i, j), tile=t)


@ct.kernel
def tile_sums(x, s, TM: ct.Constant[int], TN: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(j, i), shape=(TM, TN), order=(1, 0), padding_mode=PAD.NEG_INF)   # transposed tiles
    ct.store(s, index=(i, j), tile=ct.max(t, axis=None).reshape((1, 1)))


@ct.kernel
def same_partial_tile(y, T: ct.Constant[int]):
    ct.store(y, index=(1,), tile=ct.full((T,), ct.bid(0), dtype=ct.int32))     # every block: tile 1


def _pad_value(mode):
    return [0.0, -0.0, np.nan, np.inf, -np.inf][mode]


@pytest.mark.parametrize("mode", range(5))
def test_ragged_loads_pad_and_stores_drop(tmp_path, mode):
    # 30x45 array in 8x16 tiles: partial tiles along both axes; y is wider than the tiles reach
    # on one axis only, so the stores' dropped lanes are checked too
    x = np.random.default_rng(mode).standard_normal((30, 45)).astype(np.float32)
    y = three_ways(tmp_path, (4, 3), copy2d, lambda: (x, np.full((30, 45), 7, np.float32), 8, 16, mode))[1]
    assert np.array_equal(y, x)


def _lane_by_lane(monkeypatch, grid, kernel, args):
    """The kernel run with partial tilings going element by element (the general path)."""
    with monkeypatch.context() as m:
        m.setattr(memory, "_region_box", lambda *a: None)
        run_kernel(grid, kernel, args)
    return args


def test_ragged_transposed_tiles_as_lane_by_lane(tmp_path, monkeypatch):
    x = np.random.default_rng(9).standard_normal((45, 30)).astype(np.float32)   # tiles read with order (1, 0)
    s = three_ways(tmp_path, (3, 4), tile_sums, lambda: (x, np.zeros((3, 4), np.float32), 8, 16))[1]
    want = _lane_by_lane(monkeypatch, (3, 4), tile_sums, (x, np.zeros((3, 4), np.float32), 8, 16))[1]
    assert np.array_equal(s, want) and np.isfinite(s).all()


@pytest.mark.numpy_executor
def test_no_element_by_element_access(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("went element by element")
    monkeypatch.setattr(tiles, "load_elements", refuse)
    monkeypatch.setattr(tiles, "store_elements", refuse)
    x = np.arange(30 * 45, dtype=np.float32).reshape(30, 45)
    y = np.zeros_like(x)
    run_kernel((4, 3), copy2d, (x, y, 8, 16, 0))
    assert np.array_equal(y, x)


def test_races_on_a_partial_tile_name_an_element_inside_the_array():
    y = np.zeros(12, np.int32)
    reports = run_kernel((3,), same_partial_tile, (y, 8)).reports       # tile 1 holds elements 8..11
    assert np.array_equal(y, [0] * 8 + [2] * 4)                         # the last block wins
    assert any("race on array 'y' element (8,)" in r for r in reports), reports


def test_check_bounds_false_still_reports_lanes_outside():
    @ct.kernel
    def unchecked(x, y, T: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,), check_bounds=False), check_bounds=False)

    x = np.arange(12, dtype=np.float32)
    reports = run_kernel((2,), unchecked, (x, np.zeros(12, np.float32), 8)).reports
    assert any("out of bounds" in r for r in reports), reports


@ct.kernel
def spread_tiles(x, y, T: ct.Constant[int], S: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i * S,), shape=(T,), padding_mode=PAD.NEG_ZERO))


@pytest.mark.numpy_executor
@pytest.mark.parametrize("dt", [np.float16, np.float32], ids=str)
def test_a_ragged_matmul_reads_its_panels_by_region(tmp_path, monkeypatch, dt):
    # 100x70 @ 70x90 in 32x32x16 tiles: partial tiles along M, N and K; the shared row and
    # column panels come from padded copies, never lane by lane
    rng = np.random.default_rng(11)
    a = rng.uniform(-1, 1, (100, 70)).astype(dt)
    b = rng.uniform(-1, 1, (70, 90)).astype(dt)
    c = three_ways(tmp_path, (4, 3), K.tiled_matmul, lambda: (a, b, np.zeros((100, 90), np.float32), 32, 32, 16, 5))[2]
    within_f32(c, a, b, 70)
    monkeypatch.setattr(tiles, "load_elements", lambda *a, **k: pytest.fail("went lane by lane"))
    c2 = np.zeros((100, 90), np.float32)
    run_kernel((4, 3), K.tiled_matmul, (a, b, c2, 32, 32, 16, 5))
    assert np.array_equal(c2, c)


@pytest.mark.numpy_executor
@pytest.mark.parametrize("spread,lane_by_lane", [(50, False), (5000, True)])
def test_tiles_far_apart(tmp_path, monkeypatch, spread, lane_by_lane):
    # tiles 0, S and 2S, the last one partial: a box of 2S+1 tiles is copied while small; far
    # apart (80,000 elements for 24 read) they are read lane by lane
    x = np.arange(8 * (2 * spread + 1) - 3, dtype=np.float32)
    s = 8 * spread
    want = np.concatenate([x[0:8], x[s:s + 8], np.r_[x[2 * s:2 * s + 5], [-0.0] * 3].astype(np.float32)])
    y = three_ways(tmp_path, (3,), spread_tiles, lambda: (x, np.zeros(24, np.float32), 8, spread))[1]
    assert np.array_equal(y, want) and np.signbit(y[-1])
    calls = []
    real = tiles.load_elements
    monkeypatch.setattr(tiles, "load_elements", lambda *a, **k: calls.append(1) or real(*a, **k))
    run_kernel((3,), spread_tiles, (x, np.zeros(24, np.float32), 8, spread))
    assert bool(calls) == lane_by_lane


@ct.kernel
def reversed_tiles(x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    n = ct.num_blocks(0)
    t = ct.load(x, index=(i,), shape=(T,), padding_mode=PAD.ZERO)
    ct.store(y, index=(n - 1 - i,), tile=t + 1.0)          # block order reversed: not a regular tiling


@ct.kernel
def every_other_tile(x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    if i % 2 == 1:
        ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,), padding_mode=PAD.ZERO) * 2.0)


@pytest.mark.numpy_executor
@pytest.mark.parametrize("kernel", [reversed_tiles, every_other_tile], ids=["reversed", "masked"])
def test_irregular_and_masked_stores_past_the_edge(tmp_path, monkeypatch, kernel):
    # 7 tiles of 8 over 53 elements: the last tile is partial; y keeps what no block writes
    x = np.arange(53, dtype=np.float32)
    y = three_ways(tmp_path, (7,), kernel, lambda: (x, np.full(53, -5, np.float32), 8))[1]
    want = _lane_by_lane(monkeypatch, (7,), kernel, (x, np.full(53, -5, np.float32), 8))[1]
    assert np.array_equal(y, want)
    monkeypatch.setattr(tiles, "store_elements", lambda *a, **k: pytest.fail("went lane by lane"))
    y2 = np.full(53, -5, np.float32)
    run_kernel((7,), kernel, (x, y2, 8))
    assert np.array_equal(y2, want)
