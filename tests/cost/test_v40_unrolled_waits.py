"""Model version 40: a loop of constant trip count that tileiras unrolled whole into the loop around
it waits, per pass of that loop, the round trips its scoreboards put in series, not one a step."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import l2_kept, model, schedule, unrolled_waits
from tilescope.costmodel.cubin_facts import CubinFacts, _memory_instructions
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

from .test_mma_waits import ADD, _loop
from .test_v27_load_waits import _ldg, _wait

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_overlap.py"))
ROWS, CHUNKS, TILE = 4, 32, 256
# a launch build's cubin of row_chunk_sums: the chunk loop unrolled, one 8-byte LDG a step, a few
# of the row loop's own; 12 waits a row
FACTS = CubinFacts("k", threads=128, registers=135, shared_bytes=1040, local_bytes=0, instructions=3528,
                   global_loads=40, global_stores=3, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=8.0, loads_in_flight=1.8, global_load_bytes=8.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=1145, loop_shared_ops=352, loop_local_clocks=0,
                   loop_loads=34, loop_load_waits=12.0)


def test_the_longest_loop_s_loads_and_serial_waits_are_read_from_its_scoreboards():
    # a loop without mma: two loads issued together and waited once, then one waited alone
    code = _loop([ADD], [_ldg(0), _ldg(1), _wait(0b11), ADD, _ldg(2), _wait(0b100), ADD])
    facts = _memory_instructions(code)
    assert facts["loop_loads"] == 3 and facts["loop_load_waits"] == pytest.approx(2.0)
    assert facts["mma_loop_load_waits"] is None             # (no tensor-core loop)
    assert _memory_instructions(_loop([ADD], [ADD, ADD]))["loop_load_waits"] is None


def _counts(rows=ROWS, chunks=CHUNKS):
    spec = f"f32[{1056 * rows}, {chunks * TILE}], f32[{1056 * rows}], {rows}, {chunks}, {TILE}"
    return tilescope.cost(KERNELS.row_chunk_sums, spec, (1056,), "h200").counts


def test_each_unrolled_step_takes_its_share_of_the_loop_s_waits():
    counts = _counts()
    chunk = next(r for r in counts.regions if r.depth == 2)
    waits = unrolled_waits.unrolled_load_waits(counts, FACTS)
    # 32 steps of one 8-byte load a thread (256 float32 over 128 threads): 12 waits over 32 steps
    assert waits == {id(chunk): pytest.approx(12 / 32)}
    # a loop whose LDGs are not about the steps' loads is not this one unrolled: nothing read from it
    assert unrolled_waits.unrolled_load_waits(counts, dataclasses.replace(FACTS, loop_loads=80)) == {}
    assert unrolled_waits.unrolled_load_waits(counts, dataclasses.replace(FACTS, loop_load_waits=None)) == {}


def test_a_block_waits_the_loop_s_round_trips_instead_of_one_a_step():
    counts, h200 = _counts(), gpu_named("h200")
    few = model.predict(counts, h200, facts=FACTS)
    steps = model.predict(counts, h200, facts=dataclasses.replace(FACTS, loop_loads=80))   # rule off
    many = model.predict(counts, h200, facts=dataclasses.replace(FACTS, loop_load_waits=48.0))
    assert few.block_us < steps.block_us < many.block_us
    # the difference is the round trips: 12 or 48 a row, in place of 32 of the load law's latency;
    # each DRAM's loaded round trip, L2's for the share of the 138 MB that L2 keeps (version 105)
    kept = l2_kept.l2_kept_share(counts, h200)
    assert 0.2 < kept < 0.25
    trip = (1 - kept) * schedule.LOADED_LATENCY_US + kept * schedule.L2_HIT_US
    assert many.block_us - few.block_us == pytest.approx(ROWS * 36 * trip, rel=0.02)
