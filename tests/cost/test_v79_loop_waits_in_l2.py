"""Model version 79: a wait on element loads in a loop (the waits the cubin's loop or unrolled code
makes, `load_round_trip_us`) is L2's round trip where the launch before left the launch's data in L2,
as the loads in flight's are since version 78 (docs/cost-model.md history 128: set AJ's channel sum,
a loop walking 11 MB in 128 waits, 2.83x and 2.97x at the loaded DRAM round trip)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import schedule
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))


def _loads(rows, cols):
    counts = tilescope.cost(KERNELS.row_softmax, f"f32[{rows},{cols}], f32[{rows},{cols}], {cols}", (rows,),
                            "h200", aligned=False).counts
    return counts, [a for a in counts.accesses if a.kind == "load"]


def test_the_launch_s_accesses_say_whether_the_launch_before_left_its_data_in_l2():
    small, _ = _loads(64, 4096)                  # 2 MB read and written
    large, _ = _loads(64, 1 << 20)               # 537 MB
    assert schedule.left_in_l2(small.accesses)
    assert not any(a.l2_kept_share >= 1.0 for a in large.accesses)


def test_a_wait_on_loads_left_in_l2_is_l2_s_round_trip():
    _, loads = _loads(64, 4096)
    assert schedule.load_round_trip_us(loads) == schedule.L2_HIT_US
    # the same loads with their data in DRAM: the loaded round trip for the bytes DRAM serves
    from_dram = [dataclasses.replace(a, l2_kept_share=0.0) for a in loads]
    assert schedule.load_round_trip_us(from_dram) == pytest.approx(schedule.LOADED_LATENCY_US)
    # one load whose data are not in L2 is enough for the wait to be DRAM's share again
    mixed = loads[:-1] + from_dram[-1:]
    assert schedule.load_round_trip_us(mixed) > schedule.L2_HIT_US
