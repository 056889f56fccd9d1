"""Model version 14: sections under a spin lock run one after another; a loop whose body keeps the
shared-memory / shuffle pipe busy is charged its code each iteration (from the cubin)."""
import dataclasses
import os
import struct

import pytest

import tilescope
from tilescope.costmodel import CubinFacts, locks, schedule
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import SHARED_PIPE_OPCODES, _decode, _longest_loop
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BRA, FADD, SHFL, LDS = 0x947, 0x221, 0xF89, 0x984


def _kernels():
    return load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))


def _counts(name, spec, grid):
    return count(tilescope.compile(getattr(_kernels(), name), parse_args(spec)).final, normalize_grid(grid))


def _facts(**changes):
    base = CubinFacts("k", threads=128, registers=64, shared_bytes=0, local_bytes=0, instructions=400,
                      global_loads=8, global_stores=8, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                      global_access_bytes=4.0, loads_in_flight=8.0, global_load_bytes=4.0)
    return dataclasses.replace(base, **changes)


def test_the_sections_of_the_busiest_lock_run_one_after_another():
    spec = "f32[4194304], f32[65536], i32[64], 1024"
    counts = _counts("locked_accumulate", spec, (4096,))
    found = locks.find_locks(counts)
    assert len(found) == 1
    lock = found[0]
    assert lock.array == "locks" and lock.locks == 64
    assert sorted(a.kind for a in lock.accesses) == ["load", "store"]      # the load of x comes before
    assert set(lock.keys) == set(range(64))
    one = locks.section_us(lock, counts, _facts(), H200.load_us, H200.load_us_tma)
    rtt, per_kib = H200.load_us
    # acquire and release, one batch of 8 loads a thread (1,024 / 128 threads, 8 in flight), 4 KiB each way
    assert one == pytest.approx(3 * rtt + 2 * 4 * per_kib)
    assert locks.locks_us(counts, _facts(), H200.load_us, H200.load_us_tma, 1.0) == pytest.approx(64 * one)
    # one load at a time: 8 round trips
    serial = locks.section_us(lock, counts, _facts(loads_in_flight=1.0), H200.load_us, H200.load_us_tma)
    assert serial == pytest.approx(one + 7 * rtt)
    # fewer blocks per lock, shorter chain: the same blocks over 4,096 locks take one section each
    wide = _counts("locked_accumulate", "f32[4194304], f32[4194304], i32[4096], 1024", (4096,))
    assert locks.locks_us(wide, _facts(), H200.load_us, H200.load_us_tma, 1.0) == pytest.approx(one)


def test_a_launch_under_locks_lasts_the_chain_and_says_atomics():
    counts = _counts("locked_accumulate", "f32[4194304], f32[65536], i32[64], 1024", (4096,))
    p = predict(counts, gpu_named("h200"), facts=_facts())
    assert p.bound == "atomics"
    assert p.terms["atomics"] == pytest.approx(locks.locks_us(counts, _facts(), H200.load_us, H200.load_us_tma, 1.0))


def test_a_kernel_without_locks_has_none():
    assert locks.find_locks(_counts("per_block_trips", "f32[65536], f32[65536], 256", (64,))) == []


def _loop_code(body_ops):
    code = b"".join(struct.pack("<QQ", FADD, 0) for _ in range(4))
    start = len(code)
    code += b"".join(struct.pack("<QQ", op, 0) for op in body_ops)
    at = len(code)
    units = ((start - at - 16) // 4) & ((1 << 56) - 1)
    code += struct.pack("<QQ", BRA | (units & 0xFF) << 16 | ((units >> 8) << 34 & ((1 << 64) - 1)), (units >> 8) >> 30)
    return code + struct.pack("<QQ", FADD, 0)


def test_the_longest_loop_and_its_shared_pipe_instructions_are_read():
    assert SHFL in SHARED_PIPE_OPCODES and LDS in SHARED_PIPE_OPCODES
    assert _longest_loop(_decode(_loop_code([FADD] * 10 + [SHFL] * 5 + [LDS] * 2)))[:2] == (18, 7)    # the branch too
    assert _longest_loop(_decode(struct.pack("<QQ", FADD, 0) * 3)) == (0, 0, 0)


def test_a_shuffle_bound_loop_is_charged_its_code_each_iteration():
    h200 = gpu_named("h200")
    counts = _counts("recurrence", "f32[128,64], f32[16384,64], 512, 128, 64", (132,))
    loop = next(r for r in counts.regions if r.op is not None)
    heavy = _facts(loop_instructions=3500, loop_shared_ops=900)      # the pipe: 900 clocks, the rest 650
    # in warp-specialised code (accelerator copies) only a pipe-bound loop is charged its code
    heavy, light = (_facts(loop_instructions=3500, loop_shared_ops=n, tma_loads=3) for n in (900, 100))
    assert schedule.looped_region(counts, heavy, 4.0) is loop
    assert schedule.looped_region(counts, light, 4.0) is None
    # elsewhere the kernel's only loop is the cubin's longest, whatever its pipes (version 28)
    assert schedule.looped_region(counts, dataclasses.replace(light, tma_loads=0), 4.0) is loop
    per_iteration = schedule.loop_issue_us(heavy, h200, 1, 4.0)
    assert per_iteration == pytest.approx(4 * (2600 / 4 + 900) / (h200.clock_ghz * 1e3))
    # warp-specialised code: one warpgroup of the 256 threads produces, the other runs the loop
    assert schedule.loop_issue_us(dataclasses.replace(heavy, threads=256), h200, 1, 4.0) \
        == pytest.approx(per_iteration)
    p = predict(counts, h200, facts=heavy)
    assert p.terms["latency"] >= 512 * per_iteration
    assert predict(counts, h200, facts=light).terms["latency"] < 512 * per_iteration / 4


def test_warp_specialised_code_is_issued_by_one_warpgroup_per_instruction():
    counts = _counts("per_block_trips", "f32[65536], f32[65536], 256", (64,))
    plain = _facts(threads=256, tma_loads=0)
    fed = _facts(threads=256, tma_loads=4)
    assert schedule.running_warps(plain) == 8 and schedule.running_warps(fed) == 4
    assert schedule.running_warps(_facts(threads=384, tma_loads=4)) == 8      # two consumer warpgroups
    assert schedule.running_warps(_facts(threads=128, tma_loads=4)) == 4
    # the grid's instructions: as many as 128-thread blocks of the same code would issue
    assert schedule.code_instructions(counts, fed) == pytest.approx(
        schedule.code_instructions(counts, dataclasses.replace(fed, threads=128)))
    narrow = dataclasses.replace(plain, threads=128)
    assert schedule.code_instructions(counts, plain) > schedule.code_instructions(counts, narrow)


def test_without_a_cubin_the_loop_s_cross_thread_reductions_are_estimated():
    from tilescope.costmodel.estimated_facts import estimate_facts
    counts = _counts("recurrence", "f32[128,64], f32[16384,64], 512, 128, 64", (132,))
    facts = estimate_facts(counts, False)
    # a 128x64 tile over 128 threads, summed along its rows' axis: 64 column values a thread, each
    # over 5 shuffle levels and a shared store and load across the 4 warps
    assert facts.loop_shared_ops == 64 * (5 + 2)
    assert facts.loop_instructions > 2 * facts.loop_shared_ops
    loop = next(r for r in counts.regions if r.op is not None)
    assert schedule.looped_region(counts, facts, 4.0) is loop
    # summed along the row instead: one value a thread, no loop charge
    rows = estimate_facts(_counts("per_block_trips", "f32[65536], f32[65536], 256", (64,)), False)
    assert rows.loop_shared_ops is None


def test_straight_line_code_waits_a_round_trip_per_wait_on_reloads_that_miss_l1():
    h200 = gpu_named("h200")
    counts = _counts("gather_rows", "f32[4096,1024], f32[1024,4096], 1024", (4096,))
    assert len(counts.regions) == 1
    body = counts.regions[0]
    spilling = _facts(threads=256, local_loads=6000, local_stores=4000, local_load_waits=1500, reload_bytes=5000)
    assert not schedule.reloads_fit_l1(spilling, 1, h200)
    beyond = schedule.reloads_missing_l1(spilling, 1, h200)     # (version 23: the share beyond L1)
    assert 0 < beyond < 1
    assert schedule.spill_chain_us(counts, body, spilling, 0.33, 0.0356, 1, h200) == pytest.approx(1500 * 0.33 * beyond)
    # reloads that fit L1 keep version 13's rule: each element load (1,024 / 256 threads) waits for its
    # share of the code's waits on reloads (over its 8 loads)
    fitting = dataclasses.replace(spilling, reload_bytes=64)
    assert schedule.spill_chain_us(counts, body, fitting, 0.33, 0.0356, 1, h200) == pytest.approx(4 / 8 * 1500 * 0.33)
    # a kernel with a loop keeps the per-load rule too
    looped = _counts("per_block_trips", "f32[65536], f32[65536], 256", (64,))
    top = next(r for r in looped.regions if r.op is None)
    assert schedule.spill_chain_us(looped, top, spilling, 0.33, 0.0356, 1, h200) != pytest.approx(1500 * 0.33)


def test_a_gather_by_loaded_ids_and_its_store_stream_at_the_2d_copy_rate_element_by_element():
    counts = _counts("gather_by_ids", "i32[65536], f32[65536,1024], f32[65536,2048], 64, 1024", (1024,))
    by_line = sorted(((a.op.loc.line, a.kind, a.index_lanes) for a in counts.accesses), key=lambda x: x[0])
    assert [(k, lanes) for _, k, lanes in by_line] == [
        ("load", False), ("gather", True), ("store", True), ("gather", False), ("store", False)]
    h200 = gpu_named("h200")
    picked = [a for a in counts.accesses if a.index_lanes]
    scalar = predict(counts, h200, facts=_facts(global_access_bytes=4.0))
    vector = predict(counts, h200, facts=_facts(global_access_bytes=16.0))
    rate = 4.8e12 * H200.dram_efficiency * H200.row_efficiency[1][1]
    assert scalar.terms["memory"] >= sum(a.bytes * a.executions for a in picked) / rate * 1e6
    assert vector.terms["memory"] < scalar.terms["memory"] / 3      # vector code: lanes along the rows
