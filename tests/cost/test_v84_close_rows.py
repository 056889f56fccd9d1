"""Model version 84: where the rows a warp's lanes go down lie closer than a line, a read's warp
instruction touches as many lines as those rows span, not a line a lane: set AO's final sum of
(32768, 4) float32 tiles of a 16-column array (rows 64 bytes apart, 2.70x) and its gather whose
tile rows run along memory (2-byte steps, 3.87x). Writes keep a line a lane (docs/cost-model.md
history 140)."""
import pytest

import tilescope
from tilescope.costmodel import row_lines
from tests.cost.test_v81_row_walks import KERNELS


def _access(kernel, spec, grid, kind):
    counts = tilescope.cost(kernel, spec, grid, "h200", aligned=False).counts
    return next(a for a in counts.accesses if a.kind == kind)


@pytest.mark.parametrize("columns, lines", [(16, 16), (8, 8), (32, 32), (64, 32)])
def test_a_read_of_rows_closer_than_a_line_touches_the_lines_they_span(columns, lines):
    load = _access(KERNELS.narrow_sum, f"f32[32768, {columns}], f32[1], 32768, 4", (1, 1, 1), "load")
    assert load.lane_pitch == columns * 4
    instructions = load.executions * load.elements / 32
    assert row_lines.row_lines(load, 1.0, False) == instructions * lines


def test_a_gather_down_memory_takes_a_line_an_instruction():
    gather = _access(KERNELS.column_gather, "bf16[4096, 64], bf16[32, 4096], 32, 64", (64, 1, 1), "gather")
    assert gather.lane_pitch == 2
    assert row_lines.row_lines(gather, 1.0, False) == gather.executions * gather.elements / 32


def test_writes_keep_a_line_a_lane():
    spec = "f32[32768, 16], f32[32768, 16], 128, 4"
    load = _access(KERNELS.narrow_copy, spec, (256, 1, 1), "load")
    store = _access(KERNELS.narrow_copy, spec, (256, 1, 1), "store")
    assert load.lane_pitch == store.lane_pitch == 64
    instructions = store.executions * store.elements / 32
    assert row_lines.row_lines(load, 1.0, False) == instructions * 16
    assert row_lines.row_lines(store, 1.0, False) == instructions * 32      # a lane's bytes: a sector of its own
