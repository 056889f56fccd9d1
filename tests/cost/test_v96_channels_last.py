"""Model version 96 (docs/cost-model.md history 166).

A 1-D gather or scatter whose lanes the metadata places a cache line or more apart (a channels-last
array walked in logical NCHW order: neighbouring lanes a channel row apart) is walked line by line as
element-by-element tile rows are: each warp instruction's lines handled in turn (set BH's dual batch
norm and set BE's reduction, 0.26x and 0.25x with no lines charged). Lanes next to each other in memory
are not.

A gather whose positions data gives, offset by the block's row, brings at most its array from DRAM,
not a sector a lane (XLNet's relative positions in sets AJ, AW and BG, 2.6x)."""
import os

import pytest

import tilescope
from tilescope.costmodel import row_lines
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_channels_last.py"))
C, HW, TILE, IMAGES = 384, 196, 512, 32
N = IMAGES * C * HW


def _accesses(kernel, spec, grid):
    report = tilescope.cost(kernel, spec, grid, "h100", cubin=False)
    return report, {a.kind: a for a in report.counts.accesses}


def test_lanes_a_channel_row_apart_are_a_line_each():
    _, acc = _accesses(KERNELS.channels_last_scale, f"bf16[{N}], bf16[{N}], {C}, {HW}, {TILE}", (N // TILE,))
    for kind in ("gather", "scatter"):
        a = acc[kind]
        assert a.line_count == pytest.approx(32)         # 768 bytes apart: a line a lane
        assert row_lines.spread(a)
        assert row_lines.row_lines(a, 1.0, True) == pytest.approx(N / 32 * 32)   # charged as launched too
        assert row_lines.line_bytes(a) == 2              # each line gets one lane's two bytes
    # vector accesses are not walked element by element
    assert row_lines.row_lines(acc["gather"], 4.0, False) == 0.0


def test_neighbouring_lanes_are_not_spread():
    _, acc = _accesses(KERNELS.channels_first_scale, f"bf16[{N}], bf16[{N}], {TILE}", (N // TILE,))
    assert not row_lines.spread(acc["gather"]) and not row_lines.spread(acc["scatter"])


def test_the_spread_pass_costs_the_lines_it_walks():
    spread, _ = _accesses(KERNELS.channels_last_scale, f"bf16[{N}], bf16[{N}], {C}, {HW}, {TILE}", (N // TILE,))
    dense, _ = _accesses(KERNELS.channels_first_scale, f"bf16[{N}], bf16[{N}], {TILE}", (N // TILE,))
    # the same bytes from DRAM, each array's channel rows read whole by neighbouring blocks...
    assert spread.prediction.bytes["dram_read"] == pytest.approx(dense.prediction.bytes["dram_read"], rel=0.05)
    # ...but a line a lane to walk, written a lane at a time
    assert spread.predicted_us > 3 * dense.predicted_us
    assert spread.prediction.terms["memory"] > 3 * dense.prediction.terms["memory"]


def test_a_gather_at_data_positions_brings_at_most_its_array():
    rows, width, row = 65536, 512, 1023
    table = rows * row + width
    report, acc = _accesses(KERNELS.relative_rows, f"bf16[{table}], i32[{width}], bf16[{rows},{width}], {width}, {row}",
                            (rows,))
    gather = acc["gather"]
    assert not gather.picked_index                      # offset by the block's row: not a pick (v94)
    assert gather.dram_bytes <= table * 2
    # a sector a lane would be eight times the table
    assert gather.elements * gather.executions * 32 > 7 * table * 2
