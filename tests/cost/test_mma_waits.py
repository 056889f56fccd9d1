"""The cubin fact of `mma` loops that wait for all their tensor-core work each iteration
(`WARPGROUP.DEPBAR.LE gsb0, 0x0`) rather than keep a group in flight (`gsb0, 0x1`)."""
import json
import os
import struct

import pytest

import tilescope
from tilescope.arraylike import launch_facts
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import read_cubin_facts, schedule
from tilescope.costmodel.cubin_facts import _decode, _mma_loop_waits
from tilescope.dtypes import as_dtype
from tilescope.lang.shim import load_file
from tilescope.meta import MetaTensor, parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLCHAIN = find_toolchain(required=False)
needs_tileiras = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
BRA, FADD, ALWAYS = 0x947, 0x221, 7 << 12


def _sm90(lo, hi=0):
    return struct.pack("<QQ", lo, hi)


# instructions as `cuobjdump -sass` prints their encodings (tileiras 13.4 cubins of bench/cost_kernels.py)
HGMMA = _sm90(0x41E00000045879F0, 0x000FE2000C7008FF)        # HGMMA.64x128x16.F32 R88, gdesc[UR4].tnspB, RZ, !UPT
QGMMA_REG_A = _sm90(0x01E00004A4587DF3, 0x000FE8000C7008FF)  # QGMMA.64x128x32.F32.E4M3.E4M3 R88, R164, gdesc[UR4]
ARRIVE = _sm90(0x00000000000079C5, 0x000FE20000000000)       # WARPGROUP.ARRIVE
WAIT_ALL = _sm90(0x00000000000079C5, 0x000FE20000010000)     # WARPGROUP.DEPBAR.LE gsb0, 0x0
WAIT_ONE = _sm90(0x00000000000079C5, 0x000FE20000010100)     # WARPGROUP.DEPBAR.LE gsb0, 0x1
ADD = _sm90(FADD)


def _branch(at, target):
    units = ((target - at - 16) // 4) & ((1 << 56) - 1)
    return _sm90(BRA | ALWAYS | (units & 0xFF) << 16 | ((units >> 8) << 34 & ((1 << 64) - 1)), (units >> 8) >> 30)


def _loop(prologue, body):
    """`prologue`, then `body` closed by a branch back to its first instruction."""
    start = 16 * len(prologue)
    return b"".join(prologue + body) + _branch(start + 16 * len(body), start)


def test_waits_for_all_and_pipelined_waits_are_told_apart():
    chained = _loop([ADD], [ARRIVE, HGMMA, HGMMA, WAIT_ONE, ADD])
    summed = _loop([ADD], [ARRIVE, HGMMA, HGMMA, WAIT_ALL, ADD, ADD])
    assert _mma_loop_waits(_decode(chained)) == (2, 0, 1, 6, 0)      # 5 instructions and the branch back
    assert _mma_loop_waits(_decode(summed))[:4] == (2, 1, 0, 7)


def test_arrive_is_not_a_wait_and_register_operand_mma_are_mma():
    assert _mma_loop_waits(_decode(_loop([], [ARRIVE, QGMMA_REG_A, ARRIVE, WAIT_ALL])))[:3] == (1, 1, 0)


def test_the_innermost_loop_holding_mma_is_read_not_the_one_around_it():
    # a persistent loop around the K loop: the drain after the K loop is the epilogue's, once per tile
    inner = [ARRIVE, HGMMA, WAIT_ONE]
    k_start = 16 * 2
    code = [ADD, ADD] + inner + [_branch(k_start + 16 * len(inner), k_start), WAIT_ALL, ADD]
    code.append(_branch(16 * len(code), 16))
    assert _mma_loop_waits(_decode(b"".join(code)))[:4] == (1, 0, 1, 4)


def test_code_without_an_mma_loop_has_no_such_fact():
    straight = b"".join([ARRIVE, HGMMA, WAIT_ALL, ADD])
    no_mma = _loop([], [ADD, WAIT_ALL])
    assert _mma_loop_waits(_decode(straight)) == (None,) * 5
    assert _mma_loop_waits(_decode(no_mma)) == (None,) * 5


# ---- tileiras's code for the mw_* microbenchmarks --------------------------------------------

def _launched(shape, dtype):
    dt = as_dtype(dtype)
    return MetaTensor(shape, dt, None, **launch_facts(1 << 20, shape, None, dt)).signature()


def _cubin_facts(kernel, dtype, tk=64):
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    args = [_launched((128, 8 * tk), dtype), _launched((8 * tk, 128), dtype), _launched((132 * 128, 128), "float32")]
    args += parse_args(f"64, 8, 128, 128, {tk}")
    return read_cubin_facts(tilescope.compile(getattr(kernels, kernel), args).cubin("sm_90"))


@needs_tileiras
def test_a_chained_float16_accumulator_keeps_a_group_in_flight_and_a_summed_one_does_not():
    chained = _cubin_facts("mw_chained", "float16")
    summed = _cubin_facts("mw_summed", "float16")
    # 64 of K per iteration: four m64n128k16 mma for each of the two 64-row halves
    assert chained.mma_loop_mmas == summed.mma_loop_mmas == 8
    assert (chained.mma_loop_full_waits, chained.mma_loop_pipelined_waits) == (0, 1)
    assert summed.mma_loop_full_waits >= 1 and summed.mma_loop_pipelined_waits == 0


@needs_tileiras
def test_two_blocks_asked_per_sm_make_the_chained_loop_wait_for_all_its_mma():
    capped = _cubin_facts("mw_chained_occ2", "float16")
    assert capped.registers <= 128
    assert capped.mma_loop_full_waits >= 1 and capped.mma_loop_pipelined_waits == 0


@needs_tileiras
def test_a_float8_loop_waits_for_all_its_mma_even_with_a_chained_accumulator():
    chained = _cubin_facts("mw_chained", "float8_e4m3fn")
    assert chained.mma_loop_mmas == 4                  # m64n128k32, two per 64-row half
    assert chained.mma_loop_full_waits >= 1 and chained.mma_loop_pipelined_waits == 0


def _mw_prediction(kernel, tm, tn, tk):
    """tilescope's prediction with its cubin for a launched mw_* microbenchmark of one block an SM,
    over its stored H200 time."""
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    times = {}
    for name in ("cost_micro19_mw_h200.json", "cost_micro19_mw2_h200.json"):
        with open(os.path.join(ROOT, "bench", "results", name)) as f:
            times.update(json.load(f)["cases"])
    iters = (1 << 17) // tk * 128 * 128 // (tm * tn)
    shapes = [(tm, 8 * tk), (8 * tk, tn), (132 * tm, tn)]
    args = [_launched(s, d) for s, d in zip(shapes, ("float16", "float16", "float32"))]
    args += parse_args(f"{iters}, 8, {tm}, {tn}, {tk}")
    cubin = tilescope.compile(getattr(kernels, kernel), args).cubin("sm_90")
    concrete = [MetaTensor(s, as_dtype(d), None, **launch_facts(1 << 20, s, None, as_dtype(d)))
                for s, d in zip(shapes, ("float16", "float16", "float32"))] + args[3:]
    r = tilescope.cost(getattr(kernels, kernel), concrete, (132,), "h200", cubin=cubin)
    return r, r.predicted_us / times[f"{kernel}_f16_{tm}x{tn}x{tk}_g132_launch"]["us"]


@needs_tileiras
def test_a_loop_that_waits_for_all_its_mma_runs_them_and_its_code_in_series():
    # version 17 took the tensor core's time alone for these (0.89x, 0.59x, 0.37x of the measured)
    for kernel, shape in (("mw_summed", (128, 128, 64)), ("mw_chained_occ2", (128, 128, 32)),
                          ("mw_summed_occ2", (128, 128, 64)), ("mw_summed", (64, 64, 32))):
        r, ratio = _mw_prediction(kernel, *shape)
        assert schedule.drained_mma_loop(r.counts, r.prediction.cubin) is not None
        assert 0.75 < ratio < 1.3, (kernel, shape, ratio)


@needs_tileiras
def test_a_chained_loop_that_keeps_a_group_in_flight_is_the_tensor_cores_time():
    r, ratio = _mw_prediction("mw_chained", 128, 128, 64)
    assert schedule.drained_mma_loop(r.counts, r.prediction.cubin) is None
    assert 0.95 < ratio < 1.05 and r.prediction.terms["tensor core"] > 0.98 * (r.predicted_us - 1)
