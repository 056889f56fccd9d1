"""Model version 15, `mma` loops: a loop whose code reloads and stores spills is charged, each
iteration, its instructions issued by every running warp or its local accesses through L1,
whichever keeps its pipe busier; a float32 `mma` loop whose reloads miss L1 waits a round trip
per wait on them (from the cubin; tensor-core `mma` loops too since version 16)."""
import dataclasses
import os
import struct

import pytest

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import L1_BYTES_PER_CLK, _decode, _longest_loop
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BRA, FADD, LDL, STL = 0x947, 0x221, 0x983, 0x387
WIDTH = {4: 4, 8: 5, 16: 6}                  # the width field (bits 73-75) of LDL/STL/LDG


def _loop_code(body):
    """Four plain instructions, then `body` ((opcode, bytes a lane) pairs) closed by a backward branch."""
    code = b"".join(struct.pack("<QQ", FADD, 0) for _ in range(4))
    start = len(code)
    code += b"".join(struct.pack("<QQ", op, WIDTH[w] << 9) for op, w in body)
    units = ((start - len(code) - 16) // 4) & ((1 << 56) - 1)
    code += struct.pack("<QQ", BRA | (units & 0xFF) << 16 | ((units >> 8) << 34 & ((1 << 64) - 1)), (units >> 8) >> 30)
    return code + struct.pack("<QQ", FADD, 0)


def test_the_l1_clocks_of_a_loop_s_local_accesses_are_read_by_width():
    assert L1_BYTES_PER_CLK == 128
    body = [(FADD, 4)] * 6 + [(LDL, 4)] * 3 + [(LDL, 8)] * 2 + [(STL, 16)] + [(STL, 4)]
    # 32 lanes of 4 bytes: a clock; of 8: two; of 16: four
    assert _longest_loop(_decode(_loop_code(body))) == (14, 0, 3 + 2 * 2 + 4 + 1)
    assert _longest_loop(_decode(_loop_code([(FADD, 4)] * 9)))[2] == 0


def _counts(name, spec, grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    return count(tilescope.compile(getattr(kernels, name), parse_args(spec)).final, normalize_grid(grid))


def _facts(**changes):
    base = CubinFacts("k", threads=256, registers=168, shared_bytes=0, local_bytes=2048, instructions=9000,
                      global_loads=8, global_stores=8, local_loads=2000, local_stores=2000, tma_loads=0,
                      tma_stores=0, global_access_bytes=2.0, loads_in_flight=4.0, global_load_bytes=2.0,
                      local_load_waits=100, reload_bytes=64, loop_instructions=8000, loop_shared_ops=200,
                      loop_local_clocks=6000)            # reloads that fit L1: no round trip per wait (v16)
    return dataclasses.replace(base, **changes)


def test_a_spilled_mma_loop_is_paced_by_its_busier_pipe():
    h200 = gpu_named("h200")
    clock = h200.clock_ghz * 1e3
    counts = _counts("matmul_occupancy4", "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64", (32, 32))
    loop = next(r for r in counts.regions if r.op is not None)
    spilled = _facts()
    assert schedule.spilled_mma_loop(counts, spilled) is loop
    assert schedule.spilled_mma_loop(counts, _facts(loop_local_clocks=0)) is None
    # eight warps: L1 busier (200 + 6,000 clocks) than the schedulers (8,000 / 4); two blocks, twice
    assert schedule.spilled_loop_us(spilled, h200, 1, 4.0) == pytest.approx(8 * 6200 / clock)
    assert schedule.spilled_loop_us(spilled, h200, 2, 4.0) == pytest.approx(16 * 6200 / clock)
    few = _facts(loop_local_clocks=500)
    assert schedule.spilled_loop_us(few, h200, 1, 4.0) == pytest.approx(8 * 2000 / clock)
    # warp-specialised: the producer warpgroup does not run the body
    assert schedule.spilled_loop_us(_facts(threads=384, tma_loads=4), h200, 1, 4.0) == pytest.approx(8 * 6200 / clock)
    trips = float(loop.trips.max())
    heavy = predict(counts, h200, facts=spilled)
    assert heavy.block_us >= trips * schedule.spilled_loop_us(spilled, h200, min(heavy.blocks_per_sm, 2), 4.0)
    assert predict(counts, h200, facts=_facts(loop_local_clocks=0)).block_us < heavy.block_us


def test_a_loop_without_mma_is_not_charged_as_a_spilled_mma_loop():
    counts = _counts("recurrence", "f32[128,64], f32[16384,64], 512, 128, 64", (132,))
    assert schedule.spilled_mma_loop(counts, _facts()) is None


def test_a_float32_mma_loop_waits_a_round_trip_per_wait_on_reloads_beyond_l1():
    h200 = gpu_named("h200")
    f32 = _counts("matmul_cast", "f32[4096,1024], f32[1024,4096], f32[4096,4096], 64, 64, 32, False", (64, 64))
    f16 = _counts("matmul_occupancy4", "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64", (32, 32))
    loop32 = next(r for r in f32.regions if r.op is not None)
    loop16 = next(r for r in f16.regions if r.op is not None)
    far = _facts(threads=128, registers=128, local_load_waits=300, reload_bytes=4096, loop_local_clocks=0)
    near = dataclasses.replace(far, reload_bytes=64)          # 64 bytes x 128 threads x 4 blocks: in L1
    assert not schedule.reloads_fit_l1(far, 4, h200) and schedule.reloads_fit_l1(near, 4, h200)
    beyond = schedule.reloads_missing_l1(far, 4, h200)      # the share of the reloads L1 cannot hold
    assert 0.8 < beyond < 0.9 and schedule.reloads_missing_l1(near, 4, h200) == 0.0
    assert schedule.spill_chain_us(f32, loop32, far, 0.33, 0.03, 4, h200) == pytest.approx(300 * 0.33 * beyond)
    assert schedule.spill_chain_us(f32, loop32, near, 0.33, 0.03, 4, h200) == 0.0
    # a tensor-core mma below the register ceiling: charged the same since version 16
    assert schedule.spill_chain_us(f16, loop16, far, 0.33, 0.03, 4, h200) == pytest.approx(300 * 0.33 * beyond)
    # an accelerator-fed float32 loop too
    fed = dataclasses.replace(far, tma_loads=4, threads=256)
    assert schedule.spill_chain_us(f32, loop32, fed, 0.33, 0.03, 4, h200) == pytest.approx(
        300 * 0.33 * schedule.reloads_missing_l1(fed, 4, h200))


def test_an_accelerator_fed_loop_whose_tiles_exceed_shared_memory_waits_for_its_copies():
    from tilescope.costmodel.calibration import H200
    from tilescope.costmodel.model import _iteration_us
    h200 = gpu_named("h200")
    counts = _counts("matmul_occupancy4", "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64", (32, 32))
    loop = next(r for r in counts.regions if r.op is not None)
    kib = sum(a.bytes for a in loop.accesses if a.kind == "load") / 1024
    assert kib == 32                                     # two 16 KiB operand tiles an iteration
    staged = _facts(threads=256, tma_loads=2, local_loads=0, local_stores=0, shared_bytes=100_000)
    single = dataclasses.replace(staged, shared_bytes=24 * 1024)     # not even one iteration's tiles
    pipelined = _iteration_us(loop, h200, 1, True, 1.0, H200, [], staged)
    waiting = _iteration_us(loop, h200, 1, True, 1.0, H200, [], single)
    lat, per_kib = H200.load_us_tma
    assert pipelined < lat + per_kib * kib
    assert waiting >= lat + per_kib * kib
