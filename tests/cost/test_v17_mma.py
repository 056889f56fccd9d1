"""Model version 17: `mma` loops the accelerator feeds (set M's launched kernels) — weights that share
the L2, the code of every iteration, bulk stores waited for each iteration, integer-to-float conversions."""
import dataclasses
import os
import struct

import pytest

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import LDL_OPCODE, _decode, _longest_loop, _loops, _reload_bytes
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import CONVERSIONS_PER_SM_CLK, _l2_resident_arrays, predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BRA, EXIT, FADD = 0x947, 0x94D, 0x221
ALWAYS = 7 << 12                       # the guard predicate field: PT


def _counts(name, spec, grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    return count(tilescope.compile(getattr(kernels, name), parse_args(spec)).final, normalize_grid(grid))


def _branch(at, target, guard=ALWAYS):
    units = ((target - at - 16) // 4) & ((1 << 56) - 1)
    return struct.pack("<QQ", BRA | guard | (units & 0xFF) << 16 | ((units >> 8) << 34 & ((1 << 64) - 1)),
                       (units >> 8) >> 30)


def _facts(**changes):
    base = CubinFacts("k", threads=256, registers=128, shared_bytes=90000, local_bytes=0, instructions=2500,
                      global_loads=0, global_stores=0, local_loads=0, local_stores=0, tma_loads=4, tma_stores=2,
                      local_load_waits=0, reload_bytes=0, loop_instructions=500, loop_shared_ops=30,
                      loop_local_clocks=0)
    return dataclasses.replace(base, **changes)


def test_weights_re_read_every_wave_share_the_l2_smallest_first():
    # A 4096x1536 (12.6 MB), two 8960x1536 weights (27.5 MB each, each below half the H200's L2)
    spec = "f16[4096,1536], f16[8960,1536], f16[8960,1536], f16[4096,8960], 64, 64, 128"
    counts = _counts("matmul_two_weights", spec, (64 * 140,))
    h200 = gpu_named("h200")
    resident = _l2_resident_arrays(counts, h200.sms, h200.l2_mb * 1e6 * 0.5)
    names = {a.array_bytes: a.array for a in counts.accesses}
    assert names[4096 * 1536 * 2] in resident and names[8960 * 1536 * 2] not in resident
    p = predict(counts, h200)
    weights = sum(a.dram_bytes for a in counts.accesses if a.array_bytes == 8960 * 1536 * 2)
    assert weights > 30 * 2 * 8960 * 1536 * 2            # read again by each of the 68 waves
    # A of 3 MB and one 25 MB weight fit together: each read once (the second weight, 0.2 MB, too)
    single = _counts("matmul_two_weights", "f16[1024,1536], f16[8192,1536], f16[64,1536], f16[1024,8192], 64, 64, 128",
                     (16 * 128,))
    predict(single, h200)
    assert sum(a.dram_bytes for a in single.accesses if a.array_bytes == 8192 * 1536 * 2) == 8192 * 1536 * 2


def test_a_jump_back_from_an_out_of_line_wait_is_not_a_loop():
    # code: 4 plain, EXIT, then a retry stub (its own wait loop) that jumps back to instruction 1
    code = struct.pack("<QQ", FADD, 0) * 4 + struct.pack("<QQ", EXIT | ALWAYS, 0)
    stub = len(code)
    code += struct.pack("<QQ", FADD, 0) + _branch(stub + 16, stub, guard=0) + _branch(stub + 32, 16)
    words = _decode(code)
    # nor is the stub's own spin on its barrier, wholly after the EXIT (version 19)
    assert _loops(words) == []
    assert _longest_loop(words)[0] == 0
    # without the EXIT before it, the same jump closes a loop
    plain = struct.pack("<QQ", FADD, 0) * 5 + struct.pack("<QQ", FADD, 0) + _branch(96, 80, guard=0) + _branch(112, 16)
    assert (16, 112) in _loops(_decode(plain))


def test_the_iterations_of_a_fed_loop_issue_its_body():
    counts = _counts("signed_scores", "f16[4096,128], i8[32768,128], f32[4096,32768], 16, 64", (256,))
    loop = next(r for r in counts.regions if r.op is not None)
    facts = _facts()
    assert schedule.fed_loop_repeats(counts, facts) == pytest.approx(256 * 511 * 500)
    code = schedule.code_instructions(counts, facts)
    assert code == pytest.approx(4 * (256 * 2500 + 256 * 511 * 500))      # 4 consumer warps of 8
    assert schedule.fed_loop_repeats(counts, _facts(tma_loads=0)) == 0.0
    assert float(loop.trips[0]) == 512


def test_a_fed_mma_loop_waits_for_each_box_of_its_bulk_store():
    counts = _counts("signed_scores", "f16[4096,128], i8[32768,128], f32[4096,32768], 16, 64", (256,))
    loop = next(r for r in counts.regions if r.op is not None)
    # a 16x64 float32 tile: rows of 256 bytes, two 128-byte boxes of 2 KiB, each a drain
    drain = schedule.DRAIN_US + schedule.DRAIN_US_PER_KIB * 2
    assert schedule.looped_store_drain_us(loop, _facts()) == pytest.approx(2 * drain)
    assert schedule.looped_store_drain_us(loop, _facts(tma_stores=0)) == 0.0
    assert schedule.looped_store_drain_us(loop, _facts(tma_loads=0)) == 0.0
    # a row kernel's loop (no mma) is not charged
    rows = _counts("persistent_rows", "f32[16384,1024], f32[16384,1024], 16384, 1024", (132,))
    assert all(schedule.looped_store_drain_us(r, _facts()) == 0.0 for r in rows.regions)
    p = predict(counts, gpu_named("h200"), facts=_facts())
    assert p.terms["latency"] >= 512 * 2 * drain


def test_integer_to_float_conversions_take_their_unit():
    counts = _counts("signed_scores", "f16[4096,128], i8[32768,128], f32[4096,32768], 16, 64", (256,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert loop.work.conversions == 64 * 128           # int8 -> float16; float32 -> float16 is not counted
    h200 = gpu_named("h200")
    assert CONVERSIONS_PER_SM_CLK == 16.0
    small = _facts(tma_stores=0, instructions=200, loop_instructions=50, loop_shared_ops=0)   # issue aside
    base = predict(counts, h200, facts=small).terms["latency"]
    loop.work = dataclasses.replace(loop.work, conversions=0.0)
    # 8,192 conversions a block and step, two blocks an SM: 1,024 clocks a step
    assert base - predict(counts, h200, facts=small).terms["latency"] == pytest.approx(
        512 * 2 * 64 * 128 / (16 * h200.clock_ghz * 1e3), rel=0.05)


def test_few_consumer_warps_issue_below_the_schedulers_peak():
    assert schedule.WARP_ISSUE_CLK == pytest.approx(2.81)
    ws = _facts()                                  # 256 threads, accelerator loads: 4 consumer warps
    assert schedule.sm_issue_per_clk(ws, 1, 4.0) == pytest.approx(4 / 2.81)
    assert schedule.sm_issue_per_clk(ws, 2, 4.0) == pytest.approx(8 / 2.81)
    assert schedule.sm_issue_per_clk(ws, 4, 4.0) == 4.0
    # plain code (every warp runs it) keeps the peak, as does an estimate-free call
    assert schedule.sm_issue_per_clk(_facts(tma_loads=0), 1, 4.0) == 4.0
    assert schedule.sm_issue_per_clk(None, 1, 4.0) == 4.0
    counts = _counts("signed_scores", "f16[4096,128], i8[32768,128], f32[4096,32768], 16, 64", (256,))
    h200 = gpu_named("h200")
    alone = predict(counts, h200, facts=_facts(tma_stores=0, shared_bytes=200000)).terms["issue"]
    paired = predict(counts, h200, facts=_facts(tma_stores=0)).terms["issue"]
    assert alone == pytest.approx(paired * 8 / 4, rel=0.01)     # 4 consumer warps an SM instead of 8


def test_reloads_in_spins_after_the_exit_do_not_hide_the_kernels_own_spills():
    # straight-line code reloading 3 x 16 bytes, EXIT, then a spin that reloads 4 bytes
    ldl = lambda offset, width: struct.pack("<QQ", LDL_OPCODE | offset << 40, width << 9)     # noqa: E731
    code = ldl(0, 6) + ldl(16, 6) + ldl(32, 6) + struct.pack("<QQ", EXIT | ALWAYS, 0)
    spin = len(code)
    code += ldl(64, 4) + _branch(spin + 16, spin, guard=0)
    assert _reload_bytes(_decode(code)) == 52          # the whole code's, not the spin's 4 bytes alone
