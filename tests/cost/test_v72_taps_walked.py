"""Model version 72: one tile load of a view its loop slices anew each step (a stencil's shifted
windows walked in a loop, one tap a step) reads the array from DRAM once when what the resident
blocks read of it fits in L2, as version 68's several loads in one body do (docs/cost-model.md
history 114: set AE's 7x7 Gaussian blur, eight output rows a block from 98 steps of one load, was
charged 2.6 GB for a 210 MB image: 2.02x and 2.25x)."""
import os

import pytest

import tilescope
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_taps.py"))
ROWS, COLS = 8192, 8192


def _cost(kernel, tile, grid):
    return tilescope.cost(kernel, f"f16[{ROWS},{COLS}], f16[{ROWS},{COLS}], {tile}", grid, "h200")


def test_one_load_walked_over_shifted_views_reads_the_array_once():
    r = _cost(KERNELS.shifted_row_walk, 256, (COLS // 256, ROWS // 2))
    (load,) = [a for a in r.counts.accesses if a.kind == "load"]
    assert load.bytes * load.executions == pytest.approx(12 * 256 * 2 * ROWS // 2 * COLS // 256)
    assert r.prediction.bytes["dram_read"] == pytest.approx(ROWS * COLS * 2)


def test_a_walk_past_l2_and_a_walk_of_distinct_tiles_pay_their_reads():
    wide = _cost(KERNELS.shifted_row_walk, 8192, (1, ROWS // 2))
    assert wide.prediction.bytes["dram_read"] > 2 * ROWS * COLS * 2
    walk = _cost(KERNELS.row_walk, 1024, (ROWS,))
    (load,) = [a for a in walk.counts.accesses if a.kind == "load"]
    assert load.dram_bytes == pytest.approx(ROWS * COLS * 2)      # each element once, taps or not
