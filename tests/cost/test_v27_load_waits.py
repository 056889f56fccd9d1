"""Version 27: an `mma` loop that loads element by element waits for its loads where the cubin's
scoreboards say, a round trip each in series: DRAM's for the share of the bytes DRAM serves, L2's
for the rest. The time is a floor under the operand law's, not a replacement."""
import dataclasses
import os
import struct

import pytest

import tilescope
from tilescope.costmodel import schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import LDG_OPCODE, CubinFacts, _decode, _mma_loop_load_waits
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

from .test_mma_waits import ADD, HGMMA, _loop, _sm90

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _ldg(barrier):
    return _sm90(LDG_OPCODE, 4 << 9 | barrier << 46 | 0 << 52)


def _wait(mask):
    return _sm90(0x221, 7 << 46 | mask << 52)


def test_the_round_trips_a_pass_of_the_mma_loop_waits_in_series_are_read_from_its_scoreboards():
    batched = _loop([ADD], [_ldg(0), _ldg(0), _ldg(1), _wait(0b11), HGMMA, ADD])      # one batch: one trip
    serial = _loop([ADD], [_ldg(0), _wait(0b1), _ldg(1), _wait(0b10), HGMMA, ADD])     # two in a row
    # loaded at the end of a pass, waited for at the start of the next: one trip a pass in steady state
    across = _loop([ADD], [_wait(0b1), HGMMA, ADD, _ldg(0)])
    assert _mma_loop_load_waits(_decode(batched)) == pytest.approx(1.0)
    assert _mma_loop_load_waits(_decode(serial)) == pytest.approx(2.0)
    assert _mma_loop_load_waits(_decode(across)) == pytest.approx(1.0)
    assert _mma_loop_load_waits(_decode(_loop([ADD], [_ldg(0), _wait(0b1), ADD]))) is None    # no mma
    assert _mma_loop_load_waits(_decode(_loop([ADD], [HGMMA, ADD]))) is None              # no loads


FACTS = CubinFacts("k", threads=128, registers=168, shared_bytes=32768, local_bytes=0, instructions=2000,
                   global_loads=128, global_stores=16, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=2.0, loads_in_flight=2.0, global_load_bytes=2.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=600, loop_shared_ops=0, loop_local_clocks=0, mma_loop_mmas=8,
                   mma_loop_full_waits=0, mma_loop_pipelined_waits=1, mma_loop_instructions=600,
                   mma_loop_local_clocks=0, mma_loop_load_waits=64.0)


def _matmul_counts():
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    spec = "f16[8192,8192], f16[8192,8192], f32[8192,8192], 128, 128, 64"
    compiled = tilescope.compile(kernels.matmul_occupancy4, parse_args(spec))
    counts = count(compiled.final, normalize_grid((1,)))
    return counts, next(r for r in counts.regions if r.mmas)


def test_each_wait_is_drams_round_trip_for_the_share_dram_serves_and_l2s_for_the_rest():
    counts, loop = _matmul_counts()
    loads = [a for a in loop.accesses if a.kind == "load"]
    for a in loads:
        a.executions, a.pad_fraction = 1.0, 0.0
        a.dram_bytes = a.bytes                                  # all from DRAM
    assert schedule.mma_loop_load_wait_us(loop, FACTS, loads) == pytest.approx(64 * schedule.LOADED_LATENCY_US)
    for a in loads:
        a.dram_bytes = 0.0                                      # all re-read from L2
    assert schedule.mma_loop_load_wait_us(loop, FACTS, loads) == pytest.approx(64 * schedule.L2_HIT_US)
    # the accelerator's copies, or no loop waits read from the cubin: nothing charged here
    assert schedule.mma_loop_load_wait_us(loop, dataclasses.replace(FACTS, tma_loads=2), loads) == 0.0
    assert schedule.mma_loop_load_wait_us(loop, dataclasses.replace(FACTS, mma_loop_load_waits=None), loads) == 0.0


def test_the_waits_are_a_floor_under_the_operand_law():
    counts, _ = _matmul_counts()
    counts = count(counts.fn, normalize_grid((64, 64)))
    h200 = gpu_named("h200")
    few, none, many = (predict(counts, h200, facts=dataclasses.replace(FACTS, mma_loop_load_waits=w))
                       for w in (1.0, None, 400.0))
    assert few.predicted_us == pytest.approx(none.predicted_us)        # below the law: the law stands
    assert many.predicted_us > 2 * none.predicted_us and many.bound == "latency"
