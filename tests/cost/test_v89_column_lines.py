"""Model version 89 (docs/cost-model.md history 150), made on set AW's channel ReLU-sum, whose lanes
go down one column of a channels-last bfloat16 array, 144 bytes a row (0.11x as launched, 0.40x
dynamic):
- a one-column tile is walked element by element where the code's accesses of its kind move under
  two of its elements (the mean over every access, 2.4 bytes with four-byte scalars beside the
  two-byte column, had taken it for vectors and charged no lines);
- a gather or scatter whose index tile is one column wide has its lanes down the rows, a line each
  where the rows lie a line apart, as a one-column store does: its lines are charged;
- straight code's waits (version 88) are those of its LDGs that miss L1, as Little's law's are."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model, row_lines, schedule, straight_code
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_columns.py"))
H100 = gpu_named("h100")
# the launched build's facts: 21 LDGs and 9 STGs a thread, 2.4 bytes an access on the mean, no copies
LAUNCHED = CubinFacts("channel_relu_sum", threads=128, registers=44, shared_bytes=0, local_bytes=0,
                      instructions=536, global_loads=21, global_stores=9, local_loads=0, local_stores=0,
                      tma_loads=0, tma_stores=0, global_access_bytes=2.4, loads_in_flight=2.625,
                      global_load_bytes=2.476, local_load_waits=0, reload_bytes=0, called_instructions=0,
                      loop_instructions=0, loop_shared_ops=0, loop_local_clocks=0, loop_loads=None,
                      loop_load_waits=None)


def _counts(aligned=True):
    spec = "bf16[32,784,72], bf16[32,784,72], f32[32,72], f32[72], 784, 1024"
    return tilescope.cost(KERNELS.channel_relu_sum, spec, (32, 72, 1), "h100", aligned=aligned).counts


def _of(counts, kind):
    return next(a for a in counts.accesses if a.kind == kind and len(a.shape) == 3)


def test_a_column_scatter_takes_a_line_for_each_lane_inside():
    scatter = _of(_counts(), "scatter")
    assert scatter.line_count == pytest.approx(32 * 784 / 1024)       # the masked rows take none
    assert row_lines.row_lines(scatter, 1.0, False) == pytest.approx(
        scatter.executions * scatter.elements / 32 * scatter.line_count)


def test_a_column_is_walked_by_the_width_of_its_own_kind():
    counts = _counts()
    column, scatter = _of(counts, "load"), _of(counts, "scatter")
    width = 1.2
    assert row_lines.column_walked(column, LAUNCHED, "from the cubin", width)
    assert row_lines.column_walked(scatter, LAUNCHED, "from the cubin", width)
    # loads of two bfloat16 elements an LDG are vectors: no walk
    wide = dataclasses.replace(LAUNCHED, global_load_bytes=4.0, global_access_bytes=4.0)
    assert not row_lines.column_walked(column, wide, "from the cubin", width)


def test_the_launched_build_is_charged_its_column_lines():
    counts = _counts()
    p = model.predict(counts, H100, tma=True, facts=LAUNCHED)
    lined = [(a, row_lines.row_lines(a, 1.0, False)) for a in (_of(counts, "load"), _of(counts, "scatter"))]
    per_sm = schedule.blocks_per_sm(counts, H100, LAUNCHED)
    floor = row_lines.row_lines_us(lined, H100, min(per_sm * H100.sms, counts.blocks), LAUNCHED,
                                   min(per_sm, -(-counts.blocks // H100.sms)))
    assert p.terms["memory"] >= floor > 20          # set AW's took 57 µs; 6.6 were predicted
    assert p.bound == "memory"


def test_straight_code_waits_only_for_the_ldgs_that_miss_l1():
    counts = _counts()
    every = straight_code.straight_code_waits_us(counts, LAUNCHED, H100, 4)
    assert every > 0
    assert straight_code.straight_code_waits_us(counts, LAUNCHED, H100, 4, lambda a: 1 / 32) == pytest.approx(every / 32)
