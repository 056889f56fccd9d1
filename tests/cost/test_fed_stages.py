"""Version 19: a loop whose tiles the accelerator copies runs ahead of its consumers only with room for
two stages. Where the block's shared memory holds one iteration's tiles but not two (set O's launched
weight-gradient partial sums: 8 KB a step in 10.5 KB), each iteration waits for its own copy, as one
whose tiles do not fit at all did since version 15. Loops with `mma` keep the version 15 test (their
operand tiles are copied and read at different points of the iteration)."""
import os

import pytest

import tilescope
from tilescope.costmodel import CubinFacts
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.counts import count
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TILE, TILES, BLOCKS = 2048, 64, 132          # 8 KiB of float32 a step, one block an SM


def _counts():
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    spec = f"f32[{BLOCKS * TILES * TILE}], f32[{BLOCKS}], {TILES}, {TILE}"
    return count(tilescope.compile(kernels.row_sum_flat, parse_args(spec)).final, normalize_grid((BLOCKS,)))


def _facts(shared):
    return CubinFacts("k", threads=256, registers=128, shared_bytes=shared, local_bytes=0, instructions=400,
                      global_loads=0, global_stores=1, local_loads=0, local_stores=0, tma_loads=1, tma_stores=0,
                      local_load_waits=0, reload_bytes=0, loop_instructions=60, loop_shared_ops=8,
                      loop_local_clocks=0)


def test_a_fed_loop_with_room_for_one_stage_waits_for_each_copy():
    h200 = gpu_named("h200")
    one = predict(_counts(), h200, facts=_facts(10 * 1024 + 256))
    two = predict(_counts(), h200, facts=_facts(2 * 8 * 1024 + 512))
    none = predict(_counts(), h200, facts=_facts(6 * 1024))           # not even one: the version 15 case
    assert one.block_us == pytest.approx(none.block_us)
    assert one.block_us > two.block_us
    latency, per_kib = H200.load_us_tma
    assert one.block_us >= TILES * (latency + per_kib * 8)            # a copy's latency and transfer a step
    assert two.block_us < TILES * latency
