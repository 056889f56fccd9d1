"""Model version 42: an `mma` loop whose cubin has no loop of warpgroup mma (HGMMA, QGMMA) waits,
where it is the IR's only loop, the round trips the cubin's loop puts in series, as version 27
charges them for a warpgroup-mma loop."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# a cubin whose one loop holds the element loads and no warpgroup mma
FACTS = CubinFacts("k", threads=128, registers=168, shared_bytes=32768, local_bytes=0, instructions=2000,
                   global_loads=128, global_stores=16, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=2.0, loads_in_flight=2.0, global_load_bytes=2.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=600, loop_shared_ops=0, loop_local_clocks=0,
                   loop_loads=128, loop_load_waits=100.0)


def _matmul(grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    spec = "f16[8192,8192], f16[8192,8192], f32[8192,8192], 128, 128, 64"
    compiled = tilescope.compile(kernels.matmul_occupancy4, parse_args(spec))
    return count(compiled.final, normalize_grid(grid))


def test_the_only_loop_waits_the_cubin_loop_s_round_trips():
    counts = _matmul((1,))
    loop = next(r for r in counts.regions if r.mmas)
    loads = [a for a in loop.accesses if a.kind == "load"]
    for a in loads:
        a.executions, a.pad_fraction, a.dram_bytes = 1.0, 0.0, a.bytes        # all from DRAM
    assert schedule.mma_loop_load_wait_us(loop, FACTS, loads, only_loop=True) == pytest.approx(
        100 * schedule.LOADED_LATENCY_US)
    # not the IR's only loop: nothing
    assert schedule.mma_loop_load_wait_us(loop, FACTS, loads, only_loop=False) == 0.0
    # a cubin with a warpgroup-mma loop: that loop's own waits (none here), unless the longest loop
    # makes the LDGs of an iteration (version 64: then the longest loop's)
    with_mma = dataclasses.replace(FACTS, mma_loop_mmas=8)
    assert schedule.mma_loop_load_wait_us(loop, with_mma, loads, only_loop=True) == pytest.approx(
        100 * schedule.LOADED_LATENCY_US)
    assert schedule.mma_loop_load_wait_us(loop, dataclasses.replace(with_mma, loop_loads=40), loads,
                                          only_loop=True) == 0.0


def test_a_block_waits_them_each_iteration():
    counts, h200 = _matmul((64, 64)), gpu_named("h200")
    few, many = (predict(counts, h200, facts=dataclasses.replace(FACTS, loop_load_waits=w)) for w in (1.0, 400.0))
    assert many.block_us > few.block_us * 2
