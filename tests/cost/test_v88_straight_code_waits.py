"""Model version 88: straight code waits the round trips its own LDGs say (docs/cost-model.md
history 149). Little's law for the loads in flight infers a warp's waits from the bytes it reads,
each LDG bringing 32 lanes of the code's width; a cubin without a loop may issue more LDGs than
that (lanes past the end of rows, rows loaded twice) and waits for each pair of them all the same:
set AT's launched batch-norm reduction, 1,537 two-byte LDGs a thread where its tiles hold 768,
0.34x under version 87. Such code now waits at least `global_loads / loads_in_flight` loaded round
trips a block, in the share of its read bytes that DRAM serves, over the grid's waves."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import schedule, straight_code
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))
H200 = gpu_named("h200")
ROWS, COLS = 16384, 8192           # 256 MiB of bfloat16 rows: past L2, many waves
# straight code whose LDGs are what its tiles hold: a (1, 8192) bfloat16 row over 128 threads,
# 64 two-byte LDGs a thread in 32 waits
FACTS = CubinFacts("k", threads=128, registers=120, shared_bytes=0, local_bytes=0, instructions=1712,
                   global_loads=64, global_stores=32, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=2.0, loads_in_flight=2.0, global_load_bytes=2.0, local_load_waits=0,
                   reload_bytes=0, called_instructions=0, loop_instructions=0, loop_shared_ops=0,
                   loop_local_clocks=0, loop_loads=None, loop_load_waits=None)
TWICE = dataclasses.replace(FACTS, global_loads=4 * 64)       # four LDGs for each element a lane holds


def _counts():
    return tilescope.cost(KERNELS.row_softmax, f"bf16[{ROWS},{COLS}], bf16[{ROWS},{COLS}], {COLS}", (ROWS,),
                          "h200", aligned=False).counts


def _flight(counts, facts):
    """The loads' time as the model takes it: the larger of the bytes' law and the code's waits."""
    per_sm = schedule.blocks_per_sm(counts, H200, facts)
    return max(schedule.in_flight_us(counts, facts, H200, per_sm),
               straight_code.straight_code_waits_us(counts, facts, H200, per_sm)), per_sm


def test_code_whose_ldgs_match_its_bytes_keeps_the_bytes_law():
    counts = _counts()
    matched, per_sm = _flight(counts, FACTS)
    waves = ROWS / (H200.sms * per_sm)
    # the bytes law here is the code's own count of waits, give or take the sectors' rounding
    assert matched == pytest.approx(waves * 32 * schedule.LOADED_LATENCY_US, rel=0.05)


def test_straight_code_with_more_ldgs_than_bytes_waits_them_all():
    counts = _counts()
    matched, _ = _flight(counts, FACTS)
    more, per_sm = _flight(counts, TWICE)
    waves = ROWS / (H200.sms * per_sm)
    assert more == pytest.approx(waves * 128 * schedule.LOADED_LATENCY_US)
    assert more == pytest.approx(4 * matched, rel=0.05)


def test_code_with_a_loop_keeps_the_bytes_law():
    counts = _counts()
    matched, _ = _flight(counts, FACTS)
    looped, _ = _flight(counts, dataclasses.replace(TWICE, loop_instructions=180))
    assert looped == matched
    unknown, _ = _flight(counts, dataclasses.replace(TWICE, loop_instructions=None))
    assert unknown == matched
    assert straight_code.straight_code_waits_us(counts, dataclasses.replace(TWICE, loads_in_flight=None), H200, 4) == 0


def test_only_the_share_dram_serves_waits_dram_s_round_trip():
    counts = _counts()
    for a in counts.accesses:            # the rows read half from L2 (re-read by another block, say)
        if a.kind == "load":
            a.dram_bytes /= 2
    halved, per_sm = _flight(counts, TWICE)
    assert halved == pytest.approx(ROWS / (H200.sms * per_sm) * 128 / 2 * schedule.LOADED_LATENCY_US)
