"""Regular tilings that run past an array's edge (backends/numpy/partial.py): loads pad and
stores drop exactly as lane by lane, with whole-region copies instead of per-element gathers."""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import tiles
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.ops import memory
from tests.backends.test_fusion import three_ways

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
        m.setattr(memory, "_partial_tiling", lambda *a: None)
        run_kernel(grid, kernel, args)
    return args


def test_ragged_transposed_tiles_as_lane_by_lane(tmp_path, monkeypatch):
    x = np.random.default_rng(9).standard_normal((45, 30)).astype(np.float32)   # tiles read with order (1, 0)
    s = three_ways(tmp_path, (3, 4), tile_sums, lambda: (x, np.zeros((3, 4), np.float32), 8, 16))[1]
    want = _lane_by_lane(monkeypatch, (3, 4), tile_sums, (x, np.zeros((3, 4), np.float32), 8, 16))[1]
    assert np.array_equal(s, want) and np.isfinite(s).all()


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


def test_check_bounds_false_still_reports_lanes_outside(monkeypatch):
    monkeypatch.setenv("TILESCOPE_TILEIRAS_VERSION", "13.4")
    @ct.kernel
    def unchecked(x, y, T: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,), check_bounds=False), check_bounds=False)

    x = np.arange(12, dtype=np.float32)
    reports = run_kernel((2,), unchecked, (x, np.zeros(12, np.float32), 8)).reports
    assert any("out of bounds" in r for r in reports), reports
