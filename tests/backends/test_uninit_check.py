"""The optional `uninit` check: elements of an array the kernel stores to that no block wrote."""
import numpy as np

import cuda.tile as ct
from tilescope.backends.numpy.launcher import run_kernel


@ct.kernel
def copy_tiles(x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,)))


@ct.kernel
def copy_rows(x, y, T: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j), tile=ct.load(x, index=(i, j), shape=(4, T)))


UNINIT = {"bounds": True, "races": False, "uninit": True}


def test_grid_too_small_is_reported_with_kernel_line_and_element():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    chk = run_kernel((3,), copy_tiles, (x, y, 16), checks=UNINIT)     # 4 tiles, 3 blocks
    assert len(chk.reports) == 1
    r = chk.reports[0]
    assert "test_uninit_check.py:11" in r and "kernel 'copy_tiles'" in r
    assert "16 of 64 elements of array 'y' were never written" in r and "element (48,)" in r


def test_full_coverage_and_ragged_edges_are_quiet():
    x = np.arange(64, dtype=np.float32)
    assert not run_kernel((4,), copy_tiles, (x, np.zeros(64, np.float32), 16), checks=UNINIT).reports
    x2 = np.ones((6, 20), np.float32)                              # partial tiles at both edges
    assert not run_kernel((2, 3), copy_rows, (x2, np.zeros((6, 20), np.float32), 8), checks=UNINIT).reports
    chk = run_kernel((2, 2), copy_rows, (x2, np.zeros((6, 20), np.float32), 8), checks=UNINIT)
    assert len(chk.reports) == 1 and "24 of 120 elements" in chk.reports[0] and "element (0, 16)" in chk.reports[0]


def test_off_by_default_and_with_races_too():
    x = np.arange(64, dtype=np.float32)
    assert not run_kernel((3,), copy_tiles, (x, np.zeros(64, np.float32), 16)).reports
    chk = run_kernel((3,), copy_tiles, (x, np.zeros(64, np.float32), 16), checks={"races": True, "uninit": True})
    assert len(chk.reports) == 1 and "never written" in chk.reports[0]
