"""Model version 16: a causal loop bound `min(offset + (bid + 1) * TILE, n)` whose offset is a
runtime scalar is counted per block with the offset at 0 (not at `n` for every block); an `mma`
loop below the register ceiling whose spill reloads miss L1 waits a round trip per wait on them,
tensor-core `mma` as float32 (from the cubin); a read of an array that fits L1 waits the L1 round
trip of the pointer-chase microbenchmark, not the streaming access wait."""
import dataclasses
import os

import numpy as np
import pytest

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.gpus import gpu_named
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _kernels():
    return load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))


def _loop(r):
    return [reg for reg in r.counts.regions if reg.op is not None][0]


def test_a_causal_bound_past_a_runtime_offset_is_counted_per_block_at_offset_zero():
    # 8 blocks of 256 rows over 2,048: block b runs cdiv(min(pos + (b + 1) * 256, 2048), 128) = 2(b + 1)
    r = tilescope.cost(_kernels().causal_offset, "f32[2048], f32[1024], i32, 256, 128", (8,))
    assert list(_loop(r).trips) == [2 * (b + 1) for b in range(8)]
    notes = r.to_json()["assumptions"]
    assert any("'pos' taken as 0" in a for a in notes)
    assert not any("upper bound" in a for a in notes)
    # the rows past the array still bound it: 16 tiles at most
    r = tilescope.cost(_kernels().causal_offset, "f32[2048], f32[1024], i32, 512, 128", (8,))
    assert list(_loop(r).trips) == [min(4 * (b + 1), 16) for b in range(8)]


def test_a_sliding_window_s_start_past_a_runtime_offset_is_counted_per_block():
    # block b: from max(2b - 4, 0) to 2(b + 1): 2, 4, then 6 tiles of 128
    r = tilescope.cost(_kernels().window_offset, "f32[2048], f32[1024], i32, 256, 128, 512", (8,))
    assert list(_loop(r).trips) == [2, 4] + [6] * 6
    assert any("'pos' taken as 0" in a for a in r.to_json()["assumptions"])


def test_a_bound_that_is_a_runtime_scalar_itself_stays_an_upper_bound():
    # min(limit, tiles): at offset 0 it would not depend on the block; still counted at the tiles
    r = tilescope.cost(_kernels().until_limit, "f32[65536], f32[8192], i32, 1024", (8,))
    assert list(_loop(r).trips) == [64] * 8
    assert any("upper bound" in a for a in r.to_json()["assumptions"])


def test_a_runtime_length_less_a_block_s_start_keeps_the_upper_bound():
    # min(length - bid * 1024, 1024) is negative at length 0: not an offset; 1024 / 128 = 8 each
    r = tilescope.cost(_kernels().ragged_tail, "f32[8192], f32[1024], i32, 1024, 128", (8,))
    assert list(_loop(r).trips) == [8] * 8
    assert any("upper bound" in a for a in r.to_json()["assumptions"])


def test_a_single_block_keeps_the_upper_bound():
    r = tilescope.cost(_kernels().causal_offset, "f32[2048], f32[1024], i32, 256, 128", (1,))
    assert list(_loop(r).trips) == [16]
    assert any("upper bound" in a for a in r.to_json()["assumptions"])


def _facts(**changes):
    base = CubinFacts("k", threads=128, registers=128, shared_bytes=0, local_bytes=4096, instructions=9000,
                      global_loads=8, global_stores=8, local_loads=2000, local_stores=2000, tma_loads=0,
                      tma_stores=0, global_access_bytes=2.0, loads_in_flight=4.0, global_load_bytes=2.0,
                      local_load_waits=300, reload_bytes=4096, loop_instructions=8000, loop_shared_ops=200,
                      loop_local_clocks=0)
    return dataclasses.replace(base, **changes)


def test_a_tensor_core_mma_loop_below_the_ceiling_waits_a_round_trip_per_wait_on_reloads_beyond_l1():
    h200 = gpu_named("h200")
    spec = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64"
    kernels = _kernels()
    f16 = count(tilescope.compile(kernels.matmul_occupancy4, parse_args(spec)).final, normalize_grid((32, 32)))
    loop = next(r for r in f16.regions if r.op is not None)
    far, near = _facts(), _facts(reload_bytes=64)      # 64 bytes x 128 threads x 4 blocks fit L1
    assert not schedule.reloads_fit_l1(far, 4, h200) and schedule.reloads_fit_l1(near, 4, h200)
    beyond = schedule.reloads_missing_l1(far, 4, h200)      # (version 23: the share beyond L1)
    assert schedule.spill_chain_us(f16, loop, far, 0.33, 0.03, 4, h200) == pytest.approx(300 * 0.33 * beyond)
    assert schedule.spill_chain_us(f16, loop, near, 0.33, 0.03, 4, h200) == 0.0
    # at the register ceiling: each reload a warp's access wait, as before
    ceiling = _facts(registers=255)
    assert schedule.spill_chain_us(f16, loop, ceiling, 0.33, 0.03, 4, h200) == pytest.approx(2000 * 0.03)
    assert np.all(loop.trips == 64)


def test_reads_of_an_array_that_fits_l1_wait_the_l1_round_trip():
    h200 = gpu_named("h200")
    spec = parse_args("f32[4194304], f32[1024], f32[4194304], 1024")
    counts = count(tilescope.compile(_kernels().scale_by_table, spec).final, normalize_grid((4096,)))
    facts = _facts(local_bytes=0, local_loads=0, local_stores=0, local_load_waits=0, loads_in_flight=1.0)
    by_array = {(a.array, a.kind): a for a in counts.accesses}
    assert schedule.l1_resident(by_array[("table", "load")], facts, 4, h200)
    assert not schedule.l1_resident(by_array[("x", "load")], facts, 4, h200)          # 16 MiB
    assert not schedule.l1_resident(by_array[("y", "store")], facts, 4, h200)         # stores go on to L2
    # shared memory that leaves no room for the table: it no longer stays
    assert not schedule.l1_resident(by_array[("table", "load")], _facts(shared_bytes=63 * 1024), 4, h200)
    plain = schedule.access_chain_us(counts, facts, h200, 4, 0.0, 0.0356)
    cached = schedule.access_chain_us(counts, facts, h200, 4, 0.0, 0.0356, schedule.L1_HIT_US)
    # three warp accesses of equal size per block, one of them now at the L1 round trip
    assert cached == pytest.approx(plain * (2 + schedule.L1_HIT_US / 0.0356) / 3)
    assert schedule.L1_HIT_US < 0.0356
