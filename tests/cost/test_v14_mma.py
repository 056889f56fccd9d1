"""Model version 14: the `mma` kernels of set K — loops bounded by runtime scalars, accumulators
that spill inside a persistent loop."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

HERE = os.path.dirname(os.path.abspath(__file__))


def _kernels():
    return load_file(os.path.join(HERE, "kernels_cost.py"))


def _facts(**changes):
    base = CubinFacts("k", threads=256, registers=255, shared_bytes=90000, local_bytes=8688, instructions=9000,
                      global_loads=0, global_stores=0, local_loads=3000, local_stores=3000, tma_loads=0,
                      tma_stores=0)
    return dataclasses.replace(base, **changes)


@pytest.mark.parametrize("tile, charged", [(256, True), (128, False)])
def test_a_nested_mma_loop_reloads_its_spills_each_iteration_only_when_its_accumulator_spills(tile, charged):
    # a persistent matmul: the K loop is nested in the loop over output tiles; a 256x256 float32
    # accumulator is 256 words a thread of 256 threads (no room at the register ceiling), 128x128 is 64
    r = tilescope.cost(_kernels().persistent_matmul_sized,
                       f"f16[1024,512], f16[512,1024], f32[1024,1024], i32, i32, i32, {tile}, {tile}, 64", (4,))
    inner = [reg for reg in r.counts.regions if reg.mmas][0]
    assert inner.depth == 2
    spill = schedule.spill_chain_us(r.counts, inner, _facts(), 0.33, 0.0356, 1, gpu_named("h200"))
    assert spill == (pytest.approx(3000 * 0.0356) if charged else 0.0)
    # below the register ceiling nothing is charged
    assert schedule.spill_chain_us(r.counts, inner, _facts(registers=200), 0.33, 0.0356, 1, gpu_named("h200")) == 0.0
