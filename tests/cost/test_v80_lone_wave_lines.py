"""Model version 80: in a grid of fewer blocks than the GPU holds, the lines of element-by-element
code are taken by the SMs that hold blocks, at each one's rate (all SMs' rate gave set AJ's final
channel sum of four blocks 1.2 µs where it takes 29), and whether a walk outgrows L1 is asked of the
blocks an SM does hold, not of the most it could (set AK's one-column sums of 768 blocks, six an
SM: 4.92x as sixteen; docs/cost-model.md history 131)."""
import pytest

import tilescope
from tilescope.costmodel import model, row_lines
from tests.cost.test_v62_walks_past_l1 import H200, KERNELS, WALK    # version 62's permute and its cubin


def _permute(grid):
    """The counts of version 62's 128-row permute walk on `grid`."""
    return tilescope.cost(KERNELS.permute_rows, "bf16[32, 1024, 12, 64], bf16[32, 12, 1024, 64], 128, 64, 0", grid,
                          "h200").counts


def _lined(counts, kinds=("load",)):
    return [(a, row_lines.row_lines(a, 1.0, False)) for a in counts.accesses if a.kind in kinds]


def test_only_the_sms_that_hold_blocks_take_the_lines():
    lined = _lined(_permute((4, 1, 1)))
    assert lined[0][1] > 0
    four = row_lines.row_lines_us(lined, H200, resident=4)
    every = row_lines.row_lines_us(lined, H200, resident=H200.sms)
    assert four == pytest.approx(every * H200.sms / 4)
    # a grid that fills the GPU, and a call that does not say: every SM
    assert row_lines.row_lines_us(lined, H200, resident=10 * H200.sms) == pytest.approx(every)
    assert row_lines.row_lines_us(lined, H200) == pytest.approx(every)


def test_a_walk_is_asked_of_the_blocks_an_sm_holds():
    # 16 blocks of 128-row walks would outgrow L1 (version 62), but a grid of 6 an SM does not fill it
    grid = (6 * H200.sms, 1, 1)
    counts = _permute(grid)
    load = next(a for a in counts.accesses if a.kind == "load")
    assert row_lines.walk_misses_l1(load, WALK, 16, H200) and not row_lines.walk_misses_l1(load, WALK, 6, H200)
    six = model.predict(counts, H200, facts=WALK)
    assert six.blocks_per_sm == 16
    lined = _lined(counts, ("load", "store"))
    missed = row_lines.row_lines_us(lined, H200, grid[0], WALK, 16)
    held = row_lines.row_lines_us(lined, H200, grid[0], WALK, 6)
    assert held < missed and six.terms["memory"] == pytest.approx(held, rel=1e-6)

