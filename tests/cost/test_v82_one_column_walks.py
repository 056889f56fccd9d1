"""Model version 82: a tile one element wide has no walk to lose from L1 (version 62): each of a
lane's elements lies in a line of its own, read once. Set AM's channel partial sums, (128, 1)
float32 tiles of 62,720 and 31,360 blocks sixteen an SM, were charged the missed walk's 0.11 lines a
clock (4.4x); at the element-by-element law's 0.87 they come to 0.57x (docs/cost-model.md history 136)."""
import pytest

import tilescope
from tilescope.costmodel import model, row_lines
from tests.cost.test_v81_row_walks import COLUMN, H100, KERNELS, _product_sum


def test_a_one_column_tile_never_misses_l1_as_a_walk(monkeypatch):
    counts = tilescope.cost(KERNELS.one_column_sum, "f32[128, 100000], f32[100000], 128", (100000, 1, 1),
                            "h100").counts
    (load,) = [a for a in counts.accesses if a.kind == "load"]
    # sixteen blocks an SM, a line for each of 128 rows: 256 KB, more than L1 beside them
    assert not row_lines.walk_misses_l1(load, COLUMN, 16, H100)
    lines = model.predict(counts, H100, facts=COLUMN).terms["memory"]
    monkeypatch.setattr(row_lines, "one_column", lambda a: False)
    assert row_lines.walk_misses_l1(load, COLUMN, 16, H100)
    missed = model.predict(counts, H100, facts=COLUMN).terms["memory"]
    # the lines' reads at 0.87 a clock instead of 0.11
    ratio = row_lines.READ_LINES_PER_SM_CLK / row_lines.MISSED_READ_LINES_PER_SM_CLK
    assert missed / lines == pytest.approx(ratio, rel=0.05)


def test_a_wider_walk_still_misses():
    (load, _) = [a for a in _product_sum(128, 32).accesses if a.kind == "load"]
    assert row_lines.walk_misses_l1(load, COLUMN, 64, H100)
