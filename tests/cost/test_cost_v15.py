"""Model version 15: a loop that carries no loaded value does not wait for its loads each
iteration; a tile access of fewer elements than a warp's lanes is still one warp access."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.counts import count
from tilescope.costmodel.loop_waits import waits_on_loads
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.schedule import L1_HIT_US
from tilescope.lang.shim import load_file
from tilescope.launch_args import normalize_grid
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _counts(name, spec, grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_overlap.py"))
    return count(tilescope.compile(getattr(kernels, name), parse_args(spec)).final, normalize_grid(grid))


def _loop(counts):
    loops = [r for r in counts.regions if r.op is not None]
    assert len(loops) == 1
    return loops[0]


def _facts(**changes):
    base = CubinFacts("k", threads=32, registers=32, shared_bytes=0, local_bytes=0, instructions=200,
                      global_loads=12, global_stores=6, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                      global_access_bytes=4.0, loads_in_flight=1.7, global_load_bytes=4.0)
    return dataclasses.replace(base, **changes)


def test_only_a_loop_that_carries_a_loaded_value_waits_for_its_loads():
    acc = _counts("accumulate_loop", "f32[1048576], f32[4096], 256, 1024", (4,))
    assert waits_on_loads(_loop(acc))
    assert waits_on_loads(acc.regions[0])                     # the kernel body: taken to wait
    copy = _counts("copy_loop", "f32[1048576], f32[1048576], 256, 1024", (4,))
    assert not waits_on_loads(_loop(copy))
    # the count is carried but nothing reads it again: the next iteration need not wait
    moe = _counts("count_in_place", "i32[65536], i32[4160], 1024", (64,))
    assert not waits_on_loads(_loop(moe))


def test_a_one_element_access_is_a_whole_warp_access_on_the_sms_that_hold_blocks():
    counts = _counts("count_in_place", "i32[65536], i32[4160], 1024", (64,))
    gpu = gpu_named("h200")
    # 64 one-warp blocks, one per SM: each makes 3 accesses an iteration, 1,024 iterations
    chain = schedule.access_chain_us(counts, _facts(), gpu, 32, 0.0, H200.access_latency_us)
    assert chain == pytest.approx(3 * 1024 * H200.access_latency_us)
    # a wider tile: 4,096 elements of a 128-thread block are 128 warp accesses however it is split
    copy = _counts("copy_loop", "f32[1048576], f32[1048576], 1, 4096", (256,))
    wide = schedule.access_chain_us(copy, _facts(threads=128, loads_in_flight=8.0), gpu, 8, 0.0, 1.0)
    assert wide == pytest.approx(2 * 256 * 128 / gpu.sms / 8)


def test_the_serial_count_is_charged_its_accesses_not_a_round_trip_each_iteration():
    counts = _counts("count_in_place", "i32[65536], i32[4160], 1024", (64,))
    p = predict(counts, gpu_named("h200"), facts=_facts())
    assert p.terms["latency"] < 1024 * H200.load_us[0] / 2       # version 14: a round trip an iteration
    # (the counts read, 16.6 KB, stay in L1 and wait its round trip since version 16)
    assert p.terms["latency"] >= 1024 * (2 * H200.access_latency_us + L1_HIT_US)
    acc = _counts("accumulate_loop", "f32[262144], f32[64], 4096, 1", (64,))
    waits = predict(acc, gpu_named("h200"), facts=_facts())
    assert waits.terms["latency"] >= 4096 * H200.load_us[0]


def test_from_the_ir_alone_the_serial_count_overlaps_its_loads_too():
    counts = _counts("count_in_place", "i32[65536], i32[4160], 1024", (64,))
    p = predict(counts, gpu_named("h200"))                     # the estimated facts: one warp, few registers
    assert p.schedule == "estimated from the IR"
    assert 1024 * (2 * H200.access_latency_us + L1_HIT_US) <= p.terms["latency"] < 1024 * H200.load_us[0] / 2
