"""Model version 97 (docs/cost-model.md history 169).

A dynamically shaped build walks a tile of more rows than threads one column a pass over all of each
thread's rows when it copies the tile in a loop (the listing of set BH's copy of (512, 16) bfloat16
tiles: rows tid, tid + 128, tid + 256, tid + 384 a pass), so a block keeps a line for every row, not
one a thread: 7 blocks an SM walk 448 KB of lines, past L1 (set BH's copy 0.28x, set AR's batch-norm
epilogue 0.18x). A reduction down the rows walks them one after another.

A walk past L1 over an array that takes at most half of L2 finds its lines there again: 0.33 lines a
clock an SM, not the 0.11 of walks over larger arrays (sets BG's and BH's epilogues over 8-22 MB
arrays would come to 2.3-2.5x at 0.11)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model, row_lines
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels_thin.py"))
SUMS = load_file(os.path.join(os.path.dirname(__file__), "kernels_thin_rows.py"))
H100 = gpu_named("h100")
# the dynamic build of the (512, 16) copy: 128 threads, 70 registers (7 blocks an SM), 2-byte LDGs
# and STGs, a loop of 126 instructions taking one column a pass
COPY = CubinFacts("thin_copy", threads=128, registers=70, shared_bytes=0, local_bytes=0, instructions=328,
                  global_loads=7, global_stores=7, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                  global_access_bytes=2.0, loads_in_flight=1.75, global_load_bytes=2.0, local_load_waits=0,
                  reload_bytes=0, loop_instructions=126, loop_loads=4)
STRAIGHT = dataclasses.replace(COPY, loop_instructions=0, loop_loads=None)


def _report(kernel, rows, tile_rows=512, cols=432):
    out = f"bf16[{rows}, {cols}]" if kernel is KERNELS.thin_copy else f"f32[{rows // tile_rows}, {cols}]"
    spec = f"bf16[{rows}, {cols}], {out}, {tile_rows}, 16"
    return tilescope.cost(kernel, spec, (rows // tile_rows, cols // 16), "h100", cubin=False)


def _load(report):
    (load,) = [a for a in report.counts.accesses if a.kind == "load"]
    return load


def test_a_looped_copy_keeps_a_line_for_every_row_of_its_tile():
    load = _load(_report(KERNELS.thin_copy, 32768))
    per_sm = model.blocks_per_sm(_report(KERNELS.thin_copy, 32768).counts, H100, COPY)
    assert per_sm == 7
    assert row_lines.rows_at_once(load, COPY)
    assert row_lines.walk_misses_l1(load, COPY, per_sm, H100)          # 7 x 512 lines: 448 KB
    # straight code, or a tile of no more rows than threads: a line a thread (7 x 128 lines fit)
    assert not row_lines.rows_at_once(load, STRAIGHT)
    assert not row_lines.walk_misses_l1(load, STRAIGHT, per_sm, H100)
    small = _load(_report(KERNELS.thin_copy, 32768, tile_rows=128))
    assert not row_lines.rows_at_once(small, COPY)


def test_a_reduction_down_the_rows_walks_them_one_after_another():
    load = _load(_report(SUMS.thin_column_sums, 32768))
    assert load.region.work.reductions
    assert not row_lines.rows_at_once(load, COPY)
    assert not row_lines.walk_misses_l1(load, COPY, 7, H100)


@pytest.mark.parametrize("rows, kept", [(8192, True), (16384, True), (32768, False), (131072, False)])
def test_a_missed_walk_reads_at_l2s_rate_where_l2_keeps_the_array(rows, kept):
    load = _load(_report(KERNELS.thin_copy, rows))                    # 7 to 113 MB of source
    assert (load.root_bytes <= 0.5 * H100.l2_mb * 1e6) is kept
    expected = row_lines.L2_KEPT_READ_LINES_PER_SM_CLK if kept else row_lines.MISSED_READ_LINES_PER_SM_CLK
    assert row_lines.missed_read_rate(load, H100) == expected


def test_the_copy_takes_longer_a_byte_once_its_walk_misses():
    def per_row(rows, facts):
        r = _report(KERNELS.thin_copy, rows)
        return model.predict(r.counts, H100, facts=facts).predicted_us / rows
    # the looped walk misses L1: from L2 for a 14 MB array, from beyond it for 57 MB
    assert per_row(65536, COPY) > 1.8 * per_row(16384, COPY)
    assert per_row(16384, COPY) > 1.1 * per_row(16384, STRAIGHT)        # (the writes take most of it)
    # straight code keeps its lines in L1 whatever the array's size
    assert per_row(65536, STRAIGHT) == pytest.approx(per_row(16384, STRAIGHT), rel=0.1)
