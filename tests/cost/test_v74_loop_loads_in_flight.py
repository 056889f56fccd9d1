"""Model version 74: where every element read is in an IR loop and the cubin's longest loop keeps
more loads in flight a wait than the code as a whole, Little's law for the loads in flight takes the
loop's (docs/cost-model.md history 116: set AE's two-pass L2 norm, 16 LDGs in three waits a loop
pass against 2 for the code, 2.31x)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import in_flight_us
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_taps.py"))
ROWS, COLS = 8192, 8192
FACTS = CubinFacts("k", threads=128, registers=64, shared_bytes=0, local_bytes=0, instructions=600,
                   global_loads=32, global_stores=16, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=2.0, loads_in_flight=2.0, global_load_bytes=2.0,
                   loop_instructions=280, loop_loads=16, loop_load_waits=3.0)


def _counts():
    return tilescope.cost(KERNELS.row_walk, f"f16[{ROWS},{COLS}], f16[{ROWS},{COLS}], 1024", (ROWS,),
                          "h200").counts


def test_a_loop_s_loads_in_flight_set_the_rate_of_reads_made_in_loops():
    counts, h200 = _counts(), gpu_named("h200")
    walked = in_flight_us(counts, FACTS, h200, 4)
    code = in_flight_us(counts, dataclasses.replace(FACTS, loop_loads=4, loop_load_waits=2.0), h200, 4)
    assert walked == pytest.approx(code * 2.0 / (16 / 3))


def test_reads_outside_loops_keep_the_code_s():
    h200 = gpu_named("h200")
    lanes = load_file(os.path.join(os.path.dirname(__file__), "kernels_lanes.py"))
    n = 1 << 24
    counts = tilescope.cost(lanes.gather_by_table, f"f16[{n}], i32[{n}], f16[{n}], 1024", (n // 1024,),
                            "h200").counts
    assert all(r.op is None for r in counts.regions)
    plain = in_flight_us(counts, FACTS, h200, 4)
    assert plain == pytest.approx(in_flight_us(counts, dataclasses.replace(FACTS, loop_loads=4,
                                                                           loop_load_waits=2.0), h200, 4))
