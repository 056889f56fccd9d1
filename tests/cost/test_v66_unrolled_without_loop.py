"""Model version 66: where tileiras unrolls every loop of the IR whole (constant trips, no `mma`)
and the cubin is left without a loop, the steps share the round trips its straight code waits in
series (`global_loads / loads_in_flight`), not one each (docs/cost-model.md history 103: set AB's
flash-decoding merge in groups of 32, two 32-step passes in four waits, 3.7x and 4.6x)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model, schedule, unrolled_waits
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_overlap.py"))
N, TILE, BLOCKS = 32, 128, 8192
# what such a cubin says: no loop, two LDGs a step of both passes (one each), all in four round trips
FACTS = CubinFacts("k", threads=128, registers=118, shared_bytes=0, local_bytes=0, instructions=1900,
                   global_loads=2 * N, global_stores=1, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=4.0, loads_in_flight=2 * N / 4, global_load_bytes=4.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=0, loop_shared_ops=0, loop_local_clocks=0,
                   loop_loads=None, loop_load_waits=None)


def _counts():
    spec = f"f32[{BLOCKS * N * TILE}], f32[{BLOCKS * TILE}], {N}, {TILE}"
    return tilescope.cost(KERNELS.max_then_exp_sum, spec, (BLOCKS,), "h200").counts


def test_the_steps_of_both_passes_share_the_code_s_round_trips():
    counts = _counts()
    loops = [r for r in counts.regions if r.op is not None]
    assert len(loops) == 2
    # 64 steps of one 4-byte LDG a thread (128 float32 over 128 threads), four round trips in all
    assert unrolled_waits.unrolled_load_waits(counts, FACTS) == {id(r): pytest.approx(4 / 64) for r in loops}
    # a cubin that keeps a loop (of no loads) or does not say its loads in flight: nothing read
    assert unrolled_waits.unrolled_load_waits(counts, dataclasses.replace(FACTS, loop_loads=0)) == {}
    assert unrolled_waits.unrolled_load_waits(counts, dataclasses.replace(FACTS, loads_in_flight=None)) == {}
    # nor one whose code cannot hold the steps' loads (64 for 16 LDGs): those loops were not unrolled
    assert unrolled_waits.unrolled_load_waits(counts, dataclasses.replace(FACTS, global_loads=16)) == {}


def test_loads_merged_across_steps_do_not_shrink_the_round_trips():
    # tileiras reads an element both passes load once: 40 LDGs for the IR's 64; the four round
    # trips are still spread over the 64 steps, not over the 40
    waits = unrolled_waits.unrolled_load_waits(_counts(), dataclasses.replace(FACTS, global_loads=40, loads_in_flight=10))
    assert sum(waits.values()) * N == pytest.approx(4.0)


def test_a_block_waits_the_code_s_round_trips_instead_of_one_a_step():
    counts, h200 = _counts(), gpu_named("h200")
    four = model.predict(counts, h200, facts=FACTS)
    eight = model.predict(counts, h200, facts=dataclasses.replace(FACTS, loads_in_flight=2 * N / 8))
    steps = model.predict(counts, h200, facts=dataclasses.replace(FACTS, loop_loads=0))      # rule off
    assert four.block_us < eight.block_us < steps.block_us
    # the difference is four more round trips of each pass's loads, spread over its steps
    loops = [r for r in counts.regions if r.op is not None]
    trips = sum(schedule.load_round_trip_us([a for a in r.accesses if a.kind == "load"]) for r in loops) / 2
    assert eight.block_us - four.block_us == pytest.approx(4 * trips, rel=0.05)
