"""Model version 57: an aligned array's `mma` operands loaded element by element (rows that are not
a multiple of 16 bytes: no accelerator copies, no vectors) lie along a warp's lanes; an iteration is
a warp's issue of the loop's code and its load waits in series, not the operand path's law
(docs/cost-model.md history 88)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.schedule import ALONG_ROWS_WAIT_US, WARP_ISSUE_CLK, lanes_along_rows_wait_us
from tilescope.lang.shim import load_file

needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
H200 = gpu_named("h200")
KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_rows.py"))
matmul, row_softmax = KERNELS.matmul, KERNELS.row_softmax



N = 4097
SPEC = f"f16[{N},{N}], f16[{N},{N}], f32[{N},{N}], 128, 128, 64"
GRID = (-(-N // 128), -(-N // 128))
# what tileiras builds for it (sm_90): 128 threads, 2-byte LDGs, 25 waits in a 2,962-instruction loop
FACTS = CubinFacts("matmul", threads=128, registers=242, shared_bytes=115712, local_bytes=0, instructions=7296,
                   global_loads=256, global_stores=128, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=2.67, loads_in_flight=4.65, global_load_bytes=2.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=2962, mma_loop_mmas=8, mma_loop_full_waits=1,
                   mma_loop_pipelined_waits=0, mma_loop_instructions=2962, mma_loop_local_clocks=0,
                   mma_loop_load_waits=25.0, loop_loads=128,
                   loop_load_waits=25.0)


def _loop_and_operands():
    counts = tilescope.cost(matmul, SPEC, GRID, "h200").counts
    loop = next(r for r in counts.regions if r.mmas)
    return counts, loop, [a for a in loop.accesses if a.feeds_mma]


def test_an_iteration_is_a_warps_issue_and_its_waits():
    _, loop, operands = _loop_and_operands()
    issue = 2962 * WARP_ISSUE_CLK / (H200.clock_ghz * 1e3)
    assert lanes_along_rows_wait_us(loop, FACTS, operands, H200) == pytest.approx(issue + 25 * ALONG_ROWS_WAIT_US)
    # vector loads (a divisible build's 16-byte LDGs) or no waits read from the cubin: the law stays
    assert lanes_along_rows_wait_us(loop, dataclasses.replace(FACTS, global_load_bytes=16.0), operands, H200) is None
    assert lanes_along_rows_wait_us(loop, dataclasses.replace(FACTS, mma_loop_load_waits=None), operands, H200) is None


def test_the_odd_row_gemm_is_no_longer_charged_the_operand_law():
    counts, _, _ = _loop_and_operands()
    now = predict(counts, H200, tma=True, facts=FACTS).predicted_us
    # the same loop with no load width known keeps the operand path's law: about twice the time (the
    # eleven odd-row GEMMs measured 0.40-0.54 of it)
    law = predict(tilescope.cost(matmul, SPEC, GRID, "h200").counts, H200, tma=True,
                  facts=dataclasses.replace(FACTS, global_load_bytes=None)).predicted_us
    assert 0.35 < now / law < 0.7


@needs_tileiras
def test_tileiras_loads_odd_rows_element_by_element():
    report = tilescope.cost(matmul, SPEC, GRID, "h200", cubin=True)
    facts = report.prediction.cubin
    assert facts.tma_loads == 0 and facts.global_load_bytes == 2.0 and facts.mma_loop_load_waits
    _, loop, operands = _loop_and_operands()
    assert lanes_along_rows_wait_us(loop, facts, operands, H200) is not None



def _softmax_estimate(columns):
    spec = f"f32[4096,{columns}], f32[4096,{columns}], 1024"
    return tilescope.cost(row_softmax, spec, (4096,), "h200").prediction.estimate


def test_the_estimate_vectorises_only_rows_the_metadata_proves_divisible():
    # a launch states 16-element divisibility only: 1,000 float32 columns are not known to be a
    # multiple of a 16-byte vector, 1,008 are
    assert _softmax_estimate(1000).global_load_bytes == 4.0
    assert _softmax_estimate(1008).global_load_bytes == 16.0


def test_the_estimate_gives_an_element_loaded_operand_loop_its_code_and_waits():
    estimate = tilescope.cost(matmul, SPEC, GRID, "h200").prediction.estimate
    # 128 two-byte LDGs a thread a step: 23 instructions each, a wait for every 7
    assert estimate.mma_loop_instructions == 23 * 128
    assert estimate.mma_loop_load_waits == pytest.approx(128 / 7)


@needs_tileiras
def test_the_estimate_agrees_with_tileiras_on_odd_rows():
    for columns, width in ((1000, 4.0), (1008, 16.0)):
        spec = f"f32[4096,{columns}], f32[4096,{columns}], 1024"
        assert tilescope.cost(row_softmax, spec, (4096,), "h200", cubin=True).prediction.cubin.global_load_bytes == width
    ir, cubin = (tilescope.cost(matmul, SPEC, GRID, "h200", cubin=c).predicted_us for c in (False, True))
    assert ir == pytest.approx(cubin, rel=0.3)
