"""Model version 68: a block's several loads of one array in one loop body or straight code (the
shifted windows of a stencil or a convolution, here slices of runtime extent) read it from DRAM
once when what the resident blocks read of it together fits in L2; before, each load paid its own
bytes: set AA's 3x3x3 convolution was charged 1.09 GB for a 52 MB input (2.7x and 4.8x,
docs/cost-model.md history 106)."""
import os

import pytest

import tilescope
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_taps.py"))
ROWS, COLS = 8192, 8192


def _cost(tile):
    spec = f"f16[{ROWS},{COLS}], f16[{ROWS},{COLS}], {tile}"
    return tilescope.cost(KERNELS.shifted_row_taps, spec, (COLS // tile, ROWS // 2), "h200")


def test_the_taps_of_a_small_window_read_the_array_once():
    r = _cost(256)
    loads = [a for a in r.counts.accesses if a.kind == "load"]
    assert len(loads) == 4 and all(a.root_bytes == ROWS * COLS * 2 for a in loads)
    # four rows of 256 float16 a shift, three shifts, a block: 6 KB; 16 blocks an SM hold 13 MB
    assert sum(a.bytes * a.executions for a in loads) == pytest.approx(12 * 256 * 2 * ROWS // 2 * COLS // 256)
    assert r.prediction.bytes["dram_read"] == pytest.approx(ROWS * COLS * 2)


def test_a_window_past_l2_pays_each_tap():
    # 8,192-column rows: 192 KB a block, hundreds of MB across the resident blocks
    r = _cost(8192)
    assert r.prediction.bytes["dram_read"] > 2 * ROWS * COLS * 2
