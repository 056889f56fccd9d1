"""Model version 78: grids of no more blocks than the GPU holds at once (docs/cost-model.md history
125). Back-to-back launches find a launch's data in L2 where what it moves fits half the L2, and
its loads in flight then wait L2's round trip, not the loaded DRAM's; and a block whose cubin has
no loop waits its code's load waits one after another, plus its code at one warp's issue rate."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import l2_kept, model, schedule, straight_code
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))
H200 = gpu_named("h200")
# what a dynamically shaped build of a one-row softmax says: straight code, 64 LDGs in 32 waits
FACTS = CubinFacts("k", threads=128, registers=120, shared_bytes=0, local_bytes=0, instructions=1712,
                   global_loads=64, global_stores=32, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=2.0, loads_in_flight=2.0, global_load_bytes=2.0, local_load_waits=0,
                   reload_bytes=0, called_instructions=0, loop_instructions=0, loop_shared_ops=0,
                   loop_local_clocks=0, loop_loads=None, loop_load_waits=None)


def _counts(rows, cols):
    return tilescope.cost(KERNELS.row_softmax, f"bf16[{rows},{cols}], bf16[{rows},{cols}], {cols}", (rows,),
                          "h200", aligned=False).counts


def test_a_launch_stays_in_l2_where_what_it_moves_fits_half_of_it():
    assert l2_kept.l2_kept_share(_counts(128, 8192), H200) == 1.0        # 4 MB read and written
    assert l2_kept.l2_kept_share(_counts(128, 1 << 18), H200) < 1.0      # 134 MB


def test_loads_in_flight_wait_l2_s_round_trip_for_data_in_l2():
    counts = _counts(128, 8192)
    in_l2 = schedule.in_flight_us(counts, FACTS, H200, 1)
    for a in counts.accesses:                                          # the same launch, its data in DRAM
        a.l2_kept_share = 0.0
    from_dram = schedule.in_flight_us(counts, FACTS, H200, 1)
    assert in_l2 > 0
    assert in_l2 / from_dram == pytest.approx(schedule.L2_HIT_US / schedule.LOADED_LATENCY_US)


def test_straight_code_waits_its_round_trips_in_series_and_issues_its_code():
    small, large = _counts(128, 8192), _counts(128, 1 << 18)
    issue = 1712 * schedule.WARP_ISSUE_CLK / (H200.clock_ghz * 1e3)
    assert straight_code.straight_code_us(small, FACTS, H200, 1.0) == pytest.approx(32 * schedule.L2_HIT_US + issue)
    assert straight_code.straight_code_us(large, FACTS, H200, 1.0) == pytest.approx(32 * schedule.DRAM_HIT_US + issue)
    # a slow path the code calls is not run
    called = dataclasses.replace(FACTS, called_instructions=200)
    assert straight_code.straight_code_us(small, called, H200, 1.0) == pytest.approx(
        32 * schedule.L2_HIT_US + 1512 * schedule.WARP_ISSUE_CLK / (H200.clock_ghz * 1e3))
    # code with a loop, or whose loads in flight are unknown: no floor
    assert straight_code.straight_code_us(small, dataclasses.replace(FACTS, loop_instructions=180), H200, 1.0) == 0
    assert straight_code.straight_code_us(small, dataclasses.replace(FACTS, loads_in_flight=None), H200, 1.0) == 0
    assert straight_code.straight_code_us(small, dataclasses.replace(FACTS, loop_instructions=None), H200, 1.0) == 0


def test_a_lone_wave_takes_at_least_its_straight_code_and_a_full_grid_does_not(monkeypatch):
    floor = straight_code.straight_code_us(_counts(128, 8192), FACTS, H200, 1.0)
    lone = model.predict(_counts(128, 8192), H200, facts=FACTS)
    assert lone.blocks <= lone.blocks_per_sm * H200.sms
    # the one-block any of set AH: 32 waits and 1,712 instructions came to 7.1 µs (7.8 with the launch)
    assert lone.terms["latency"] == pytest.approx(floor)
    many = model.predict(_counts(128 * 64, 8192 // 64), H200, facts=FACTS)
    assert many.blocks > many.blocks_per_sm * H200.sms
    monkeypatch.setattr(model, "straight_code_us", lambda *a: 0.0)      # the rule off
    assert model.predict(_counts(128, 8192), H200, facts=FACTS).terms["latency"] < 0.8 * floor
    # many waves: the blocks resident together hide each other's waits; the floor is not charged
    assert model.predict(_counts(128 * 64, 8192 // 64), H200, facts=FACTS).terms == many.terms
