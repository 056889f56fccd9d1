"""Version 22: a loop bound clamped by a branch is counted as the min() it is; tiles the accelerator
copies from L2 (re-read by other blocks) arrive at L2's measured rate, and no launch's copied tiles
arrive faster than L2's lockstep rate to the SMs."""
import os

import pytest

import tilescope
from tilescope.costmodel import model
from tilescope.costmodel.counts import count
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _counts(name, spec, grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    return count(tilescope.compile(getattr(kernels, name), parse_args(spec)).final, normalize_grid(grid))


def _loop(counts):
    return next(r for r in counts.regions if r.op is not None)


def test_a_branch_clamped_loop_end_is_counted_at_its_known_side_when_the_length_is_unknown():
    counts = _counts("split_clamped_sum", "f32[65536], f32[8192], i32, 8192, 1024", (8,))
    assert set(_loop(counts).trips) == {8.0}              # each split's 8,192 / 1,024 tiles, an upper bound
    assert any("upper bound on the trips" in n for n in counts.assumptions)


def test_a_branch_clamped_loop_end_is_exact_where_the_length_is_given():
    counts = _counts("split_clamped_sum", "f32[65536], f32[8192], 20480, 8192, 1024", (8,))
    # splits of 8,192 elements over 20,480: two whole, the third clamped to 4,096, the rest empty
    assert list(_loop(counts).trips) == [8, 8, 4, 0, 0, 0, 0, 0]


def test_copies_from_l2_cost_l2s_rate_and_element_loads_keep_their_law():
    counts = _counts("split_clamped_sum", "f32[65536], f32[8192], i32, 8192, 1024", (8,))
    a = next(x for x in counts.accesses if x.kind == "load")
    moved = a.bytes * a.executions
    per_kib = 0.027
    a.dram_bytes = moved                                   # read once: the DRAM law
    assert model._per_kib(a, per_kib, True) == pytest.approx(per_kib)
    a.dram_bytes = moved / 4                               # three quarters re-read from L2
    assert model._per_kib(a, per_kib, True) == pytest.approx(per_kib / 4 + 0.75 * model.L2_TMA_US_PER_KIB)
    assert model.L2_TMA_US_PER_KIB < per_kib
    assert model._per_kib(a, per_kib, False) == per_kib   # element loads: their issue limits them


def test_the_l2_term_charges_every_copied_tile_at_l2s_lockstep_rate():
    spec = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64"
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    r = tilescope.cost(kernels.matmul_occupancy4, spec, (32, 32), "h200")
    copied = sum(a.bytes * a.executions for a in r.counts.accesses if a.kind == "load")
    gpu = r.prediction.gpu
    rate = model.L2_COPY_BYTES_PER_SM_S * gpu.sms * gpu.clock_ghz / model.REFERENCE_CLOCK_GHZ
    assert r.prediction.terms["l2"] == pytest.approx(copied / rate * 1e6)
    assert 15e12 < model.L2_COPY_BYTES_PER_SM_S * 132 < 15.5e12         # shared_tile_s0's 15.3 TB/s


def test_a_loop_without_mma_whose_shared_memory_holds_one_stage_waits_for_its_copies():
    import dataclasses
    from tilescope.costmodel.calibration import H200
    from tilescope.costmodel.cubin_facts import CubinFacts
    from tilescope.costmodel.gpus import gpu_named
    h200 = gpu_named("h200")
    counts = _counts("split_clamped_sum", "f32[65536], f32[8192], i32, 8192, 1024", (8,))
    loop = _loop(counts)
    assert not loop.mmas
    kib = sum(a.bytes for a in loop.accesses if a.kind == "load") / 1024      # one 4 KiB tile a step
    two = CubinFacts("k", threads=256, registers=64, shared_bytes=3 * 4096, local_bytes=0, instructions=500,
                     global_loads=0, global_stores=0, local_loads=0, local_stores=0, tma_loads=1, tma_stores=1,
                     global_access_bytes=None, loads_in_flight=None, global_load_bytes=None,
                     local_load_waits=0, reload_bytes=0)
    one = dataclasses.replace(two, shared_bytes=6 * 1024)        # the tile once, not twice
    lat, per_kib = H200.load_us_tma
    assert model._iteration_us(loop, h200, 1, True, 1.0, H200, [], two) < lat + per_kib * kib
    assert model._iteration_us(loop, h200, 1, True, 1.0, H200, [], one) >= lat + per_kib * kib


def test_spill_reloads_are_charged_where_the_cubin_has_them():
    import dataclasses
    from tilescope.costmodel import schedule
    from tilescope.costmodel.cubin_facts import CubinFacts
    from tilescope.costmodel.gpus import gpu_named
    h200 = gpu_named("h200")
    counts = _counts("matmul_occupancy4", "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64", (32, 32))
    loop = _loop(counts)
    trips = float(loop.trips.mean())
    assert trips == 64
    looped = CubinFacts("k", threads=256, registers=255, shared_bytes=0, local_bytes=2048, instructions=9000,
                        global_loads=8, global_stores=8, local_loads=2000, local_stores=2000, tma_loads=0,
                        tma_stores=0, global_access_bytes=2.0, loads_in_flight=4.0, global_load_bytes=2.0,
                        local_load_waits=100, reload_bytes=4096, loop_instructions=8000, loop_shared_ops=200,
                        loop_local_clocks=6000)
    assert schedule.spill_chain_us(counts, loop, looped, 0.33, 0.03, 1, h200) == pytest.approx(2000 * 0.03)
    # the cubin's tensor-core loop has no local loads or stores: none of the reloads is in it
    clean = dataclasses.replace(looped, mma_loop_mmas=4, mma_loop_local_clocks=0)
    assert schedule.spill_chain_us(counts, loop, clean, 0.33, 0.03, 1, h200) == 0.0
    # no loop in the cubin: the loop is unrolled and the code's reloads are all its iterations'
    unrolled = dataclasses.replace(looped, loop_instructions=0, loop_shared_ops=0, loop_local_clocks=0)
    assert schedule.spill_chain_us(counts, loop, unrolled, 0.33, 0.03, 1, h200) == pytest.approx(2000 * 0.03 / trips)
