"""Model version 38: a tile of fewer than 16 bytes is never an accelerator copy, and in a loop the
accelerator feeds, the element loads of the consumer warps are waited in the step that makes them
(only the copies run ahead)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.estimated_facts import _accelerator_copies
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import fed_loop, tma_copied
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_overlap.py"))
# a launch build's cubin: accelerator-fed, one 256-thread block an SM
FED = CubinFacts("k", threads=256, registers=255, shared_bytes=66832, local_bytes=0, instructions=300,
                 global_loads=1, global_stores=0, local_loads=0, local_stores=0, tma_loads=1, tma_stores=1,
                 global_access_bytes=2.0, loads_in_flight=1.0, global_load_bytes=2.0, local_load_waits=0,
                 reload_bytes=0)
ROWS, COLS, TILE = 1056, 1 << 18, 256
STEPS = COLS // TILE


def _predict(kernel, spec, facts=FED):
    r = tilescope.cost(kernel, spec, (ROWS,), "h200")
    return r, model.predict(r.counts, gpu_named("h200"), tma=True, facts=facts)


def test_a_tile_under_16_bytes_is_an_element_load_even_in_accelerator_fed_code():
    r, _ = _predict(KERNELS.scale_rows_by_weight, f"f16[{ROWS}, {COLS}], f16[{STEPS}], f16[{ROWS}, {COLS}], {TILE}")
    loop = next(x for x in r.counts.regions if x.op is not None)
    weight = next(a for a in loop.accesses if a.array == "w")
    row = next(a for a in loop.accesses if a.array == "x")
    assert weight.bytes == 2 and not tma_copied(weight, FED)
    assert row.bytes == 2 * TILE and tma_copied(row, FED)
    assert fed_loop(loop, FED)
    # the estimate from the IR copies no tile under 16 bytes either (here as an mma kernel's would be)
    loads, _ = _accelerator_copies(r.counts, True, True)
    assert [a.array for a in loads] == ["x"]


def test_the_consumer_waits_for_its_element_loads_each_step():
    _, weighted = _predict(KERNELS.scale_rows_by_weight,
                           f"f16[{ROWS}, {COLS}], f16[{STEPS}], f16[{ROWS}, {COLS}], {TILE}")
    _, plain = _predict(KERNELS.scale_rows, f"f16[{ROWS}, {COLS}], f16[{ROWS}, {COLS}], {TILE}")
    lat = H200.load_us_tma[0]
    # without the weight, a step is the copies' (0.060 µs); with it, a load round trip at least
    assert plain.block_us == pytest.approx(model.FED_FILL_US + STEPS * model.FED_STEP_US, rel=0.05)
    assert (weighted.block_us - plain.block_us) / STEPS > lat - model.FED_STEP_US
    assert weighted.block_us / STEPS < 2 * lat


def test_element_loop_code_keeps_overlapping_such_loads():
    plain_facts = dataclasses.replace(FED, threads=128, registers=32, tma_loads=0, tma_stores=0, shared_bytes=0)
    _, weighted = _predict(KERNELS.scale_rows_by_weight,
                           f"f16[{ROWS}, {COLS}], f16[{STEPS}], f16[{ROWS}, {COLS}], {TILE}", plain_facts)
    _, plain = _predict(KERNELS.scale_rows, f"f16[{ROWS}, {COLS}], f16[{ROWS}, {COLS}], {TILE}", plain_facts)
    # nothing carried waits on the loads (version 15): the weight adds no round trip a step
    assert weighted.block_us < plain.block_us + STEPS * 0.5 * H200.load_us[0]
