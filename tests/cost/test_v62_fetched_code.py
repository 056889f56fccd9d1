"""Model version 62: a loop body longer than the blocks' share of the SM's instruction cache is
fetched as each block runs it: a pass takes at least MISS_CLK clocks for each instruction past the
cache, DRAM's round trip over L2's times that where the launch streams more data than L2 holds, k
blocks of a body of S bytes missing 1 - ICACHE / (k S) of it (docs/cost-model.md history 95)."""
import dataclasses
import os

import numpy as np
import pytest

import tilescope
from tilescope.costmodel import fetch, model
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import DRAM_HIT_US, L2_HIT_US
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels_fetch.py"))
H200 = gpu_named("h200")
SPEC = "f32[1024, 65536], f32[1024, 65536], 1024, 65536, 4096"
# the launch build: both chunk loops unrolled whole into the row loop, 16 chunks of 4,096 float32 a
# loop, 8 LDGs of 16 bytes a thread a chunk: 256 LDGs a pass
ROWS = CubinFacts("rows_in_chunks", threads=128, registers=128, shared_bytes=1024, local_bytes=0,
                  instructions=41000, global_loads=257, global_stores=128, local_loads=0, local_stores=0,
                  tma_loads=0, tma_stores=0, global_access_bytes=16.0, loads_in_flight=8.0,
                  global_load_bytes=16.0, local_load_waits=0, reload_bytes=0, loop_instructions=40000,
                  loop_shared_ops=100, loop_loads=256, loop_load_waits=16.0)


def _counts(grid=132, spec=SPEC):
    return tilescope.cost(KERNELS.rows_in_chunks, spec, (grid,), "h200").counts


def test_the_cubin_loop_is_the_ir_loop_whose_iteration_makes_its_loads():
    counts = _counts()
    assert fetch.cubin_loop(counts, ROWS) is counts.regions[1]              # the row loop
    kept = dataclasses.replace(ROWS, loop_loads=8)                          # a chunk loop kept as a loop
    assert fetch.cubin_loop(counts, kept) is counts.regions[2]
    assert fetch.cubin_loop(counts, dataclasses.replace(ROWS, loop_loads=40)) is None


def test_a_body_past_the_cache_takes_its_fetch_each_pass():
    counts = _counts()
    floor = fetch.fetch_floor_us(counts, ROWS, H200, 1)
    rows = counts.regions[1].trips                                          # 7 or 8 rows a block
    missed = 1 - fetch.ICACHE_BYTES / (40000 * 16)
    clocks = fetch.MISS_CLK * DRAM_HIT_US / L2_HIT_US          # 537 MB through L2
    assert np.allclose(floor, rows * 40000 * clocks * missed / (H200.clock_ghz * 1e3))
    got = model.predict(counts, H200, facts=ROWS)
    assert got.terms["latency"] == pytest.approx(float(floor.max()), rel=1e-6)


def test_a_body_the_cache_holds_fetches_nothing():
    small = dataclasses.replace(ROWS, loop_instructions=fetch.ICACHE_BYTES // fetch.INSTRUCTION_BYTES)
    assert fetch.fetch_floor_us(_counts(), small, H200, 1) is None
    assert fetch.fetch_floor_us(_counts(), None, H200, 1) is None


def test_blocks_sharing_the_sm_fetch_in_turn():
    counts = _counts(528)
    alone, four = fetch.fetch_floor_us(counts, ROWS, H200, 1), fetch.fetch_floor_us(counts, ROWS, H200, 4)
    code = 40000 * fetch.INSTRUCTION_BYTES
    ratio = (1 - fetch.ICACHE_BYTES / (4 * code)) / (1 - fetch.ICACHE_BYTES / code)
    assert np.allclose(four, alone * ratio)
    # four blocks of a body a quarter the cache each fit it together
    assert fetch.fetch_floor_us(counts, dataclasses.replace(ROWS, loop_instructions=2048), H200, 4) is None
    assert fetch.fetch_floor_us(counts, dataclasses.replace(ROWS, loop_instructions=2049), H200, 4) is not None
    # the model shares the SM among the blocks resident on it: 528 blocks of 128 registers, 4 an SM
    assert model.predict(counts, H200, facts=ROWS).terms["latency"] >= float(four.max())


def test_code_a_launch_streams_out_of_l2_comes_from_dram():
    big = _counts()                                                  # 268 MB read, as much written
    small = _counts(spec="f32[64, 65536], f32[64, 65536], 64, 65536, 4096")    # 17 MB each way
    assert fetch.miss_clk(small, H200) == fetch.MISS_CLK
    assert fetch.miss_clk(big, H200) == pytest.approx(fetch.MISS_CLK * 0.361 / 0.160, rel=1e-3)
