"""Model version 70: IEEE float32 divisions run one after another in each warp, and those with a
zero, infinite or NaN operand (a softmax's `-inf` padding reaches its division as zeros) take the
slow path too (docs/cost-model.md history 110: sets AC's and AD's whole-row softmax, one 1x16,384
tile of 10,240 columns a block, at 0.37-0.43x)."""
import dataclasses
import math
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, divisions, read_cubin_facts
from tilescope.costmodel.counts import Work
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.padded_lanes import _with_finite, special
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
ROWS = "f16[8192,10240], f16[8192,10240], 16384"
FULL_ROWS = "f16[8192,16384], f16[8192,16384], 16384"


def _kernels():
    return load_file(os.path.join(ROOT, "bench", "cost_kernels_divide.py"))


def _work(kernel, args=ROWS):
    report = tilescope.cost(getattr(_kernels(), kernel), args, (8192,), "h100")
    work = Work()
    for r in report.counts.regions:
        work.add(r.work)
    return work


def test_a_softmax_s_neg_inf_padding_reaches_its_division_as_zeros():
    w = _work("row_softmax_divided")
    assert w.divisions == 16384
    assert w.slow_divisions == 16384 - 10240          # the padded columns: exp(-inf - max) = 0


def test_padding_read_as_zeros_does_not_survive_the_exponential():
    w = _work("row_softmax_divided_zero_padded")
    assert w.divisions == 16384 and w.slow_divisions == 0      # exp(0 - max) is neither 0 nor infinite


def test_rows_filling_the_tile_have_no_padded_lanes():
    w = _work("row_softmax_divided", FULL_ROWS)
    assert w.divisions == 16384 and w.slow_divisions == 0


def test_approximate_division_and_a_reciprocal_are_not_ieee_divisions_of_the_tile():
    assert _work("row_softmax_approx").divisions == 0
    assert _work("row_softmax_reciprocal").divisions == 1        # the sum's reciprocal, once


@pytest.mark.parametrize("fn, value, first, result", [
    ("sub", -math.inf, True, -math.inf), ("sub", -math.inf, False, math.inf), ("add", math.inf, False, math.inf),
    ("mul", 0.0, False, 0.0), ("truediv", 0.0, True, 0.0), ("max", math.inf, True, math.inf),
    ("min", -math.inf, False, -math.inf),
    ("add", 0.0, True, None), ("max", -math.inf, True, None), ("truediv", 0.0, False, None),
    ("mul", math.inf, True, None)])
def test_what_an_op_with_a_finite_operand_keeps_of_the_padding(fn, value, first, result):
    assert _with_finite(fn, value, first) == result


def test_the_slow_path_operands():
    assert special(0.0) and special(-math.inf) and special(math.nan)
    assert not special(1.0) and not special(-3e-30)


H100 = gpu_named("h100")


def _clk(us):
    return us * H100.clock_ghz * 1e3


def test_a_thread_waits_its_divisions_one_after_another_and_the_slow_path_s_too():
    w = Work(divisions=16384.0)
    assert _clk(divisions.division_us(w, None, 128, H100)) == pytest.approx(128 * divisions.FAST_LATENCY_CLK)
    slow = dataclasses.replace(w, slow_divisions=4096.0)
    assert _clk(divisions.division_us(slow, None, 128, H100)) == pytest.approx(
        128 * divisions.FAST_LATENCY_CLK + 32 * divisions.SLOW_LATENCY_CLK)


def test_the_cubin_says_how_many_a_thread_makes_and_whether_any():
    w = Work(divisions=16384.0)
    facts = CubinFacts("k", threads=256, registers=255, shared_bytes=0, local_bytes=0, instructions=4000,
                       divisions=128)
    # one warpgroup of the 256 threads divides: 128 each, not 64
    assert _clk(divisions.division_us(w, facts, 256, H100, in_series=True)) == pytest.approx(
        128 * divisions.FAST_LATENCY_CLK)
    assert _clk(divisions.division_us(w, facts, 256, H100)) == pytest.approx(64 * divisions.FAST_LATENCY_CLK)
    # no range check in the code: a division by a constant, multiplied
    none = dataclasses.replace(facts, divisions=0)
    assert divisions.division_us(w, none, 256, H100, in_series=True) == 0.0


SCALE = """
import cuda.tile as ct
@ct.kernel
def scale(x, out, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(out, index=(ct.bid(0),), tile=t / 0.9)
"""


def test_a_constant_divisor_is_not_counted(tmp_path):
    path = tmp_path / "scale.py"
    path.write_text(SCALE)
    report = tilescope.cost(load_file(str(path)).scale, "f32[1048576], f32[1048576], 1024", (1024,), "h100")
    assert sum(r.work.divisions for r in report.counts.regions) == 0


@needs_tileiras
def test_the_cubin_s_range_checks_count_a_working_warpgroup_s_divisions():
    k = _kernels().row_softmax_divided
    args = parse_args(FULL_ROWS)
    facts = read_cubin_facts(tilescope.compile(k, args).cubin("sm_90"))
    assert facts.divisions == 16384 // facts.threads       # one FCHK an element a thread
    approx = read_cubin_facts(tilescope.compile(_kernels().row_softmax_approx, args).cubin("sm_90"))
    assert approx.divisions == 0


@needs_tileiras
def test_the_divided_softmax_is_predicted_slower_than_the_reciprocal_by_its_divisions():
    # measured on an H100 (history 110): 566 us divided, 267 us by the reciprocal, 387 us with the
    # padding read as zeros
    kernels, args = _kernels(), parse_args(ROWS)

    def predicted(name):
        k = getattr(kernels, name)
        cubin = tilescope.compile(k, args).cubin("sm_90")
        return tilescope.cost(k, ROWS, (8192,), "h100", cubin=cubin).predicted_us

    divided, reciprocal = predicted("row_softmax_divided"), predicted("row_softmax_reciprocal")
    zero_padded = predicted("row_softmax_divided_zero_padded")
    assert divided > 1.6 * reciprocal
    assert reciprocal < zero_padded < divided
