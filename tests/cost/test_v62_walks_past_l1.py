"""Model version 62: an element-by-element walk whose lines outgrow L1 (each thread walks a row of
its block's tile a line at a time; the resident blocks keep a line for each row, up to their
threads) reads its lines at the rate of lines L1 no longer holds (docs/cost-model.md history 95)."""
import dataclasses
import math
import os

import pytest

import tilescope
from tilescope.costmodel import model, row_lines
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
H200 = gpu_named("h200")
# the dynamic build of the permute: 128 threads, 32 registers (16 blocks an SM), 2-byte LDGs and STGs
WALK = CubinFacts("permute_rows", threads=128, registers=32, shared_bytes=0, local_bytes=0, instructions=288,
                  global_loads=4, global_stores=4, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                  global_access_bytes=2.0, loads_in_flight=4.0, global_load_bytes=2.0, local_load_waits=0,
                  reload_bytes=0)


def _permute(rows, mode=0):
    spec = f"bf16[32, 1024, 12, 64], bf16[32, 12, 1024, 64], {rows}, 64, {mode}"
    return tilescope.cost(KERNELS.permute_rows, spec, (32, 12, 1024 // rows), "h200")


def _load(report):
    (load,) = [a for a in report.counts.accesses if a.kind == "load"]
    return load


@pytest.mark.parametrize("rows, registers, misses", [
    (128, 32, True),      # 16 blocks x 128 lines: 256 KB, more than the 240 KB of L1 beside them
    (64, 32, False),      # 16 x 64 lines: 128 KB
    (128, 64, False),     # 8 blocks an SM: 128 KB
])
def test_a_walk_misses_l1_when_its_resident_lines_outgrow_it(rows, registers, misses):
    facts = dataclasses.replace(WALK, registers=registers)
    per_sm = model.blocks_per_sm(_permute(rows).counts, H200, facts)
    assert row_lines.walk_misses_l1(_load(_permute(rows)), facts, per_sm, H200) is misses


def test_threads_bound_the_lines_a_block_walks():
    # 256 rows on 128 threads: each thread walks two rows, one after the other, so 128 lines at once
    facts = dataclasses.replace(WALK, registers=64)          # 8 blocks an SM: 8 x 128 lines fit
    assert not row_lines.walk_misses_l1(_load(_permute(256)), facts, 8, H200)
    assert row_lines.walk_misses_l1(_load(_permute(256)), facts, 16, H200)


def test_the_missed_walk_reads_at_its_own_rate(monkeypatch):
    r = _permute(128)
    slow = model.predict(r.counts, H200, facts=WALK).terms["memory"]
    missed = row_lines.MISSED_READ_LINES_PER_SM_CLK
    monkeypatch.setattr(row_lines, "MISSED_READ_LINES_PER_SM_CLK", row_lines.READ_LINES_PER_SM_CLK)
    fast = model.predict(r.counts, H200, facts=WALK).terms["memory"]
    # reads and writes overlap as a root of squares: the reads alone grow 0.87 / 0.11 times
    load = _load(r)
    clocks = H200.sms * H200.clock_ghz * 1e9
    reads = row_lines.row_lines(load, 1.0, False) / clocks * 1e6
    fast_reads = reads / row_lines.READ_LINES_PER_SM_CLK
    slow_reads = reads / missed
    assert slow > 1.8 * fast
    writes = math.sqrt(fast ** 2 - fast_reads ** 2)
    assert slow == pytest.approx(math.hypot(slow_reads, writes), rel=0.02)


def test_a_fill_reads_nothing_and_keeps_its_time():
    # the fill writes dst's rows without reading src: nothing walks src's lines
    r = _permute(128, mode=2)
    assert not [a for a in r.counts.accesses if a.kind == "load"]
