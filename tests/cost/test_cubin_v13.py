"""Model version 13: what the cubin says about spill reloads (how often a thread waits on them,
which of them a loop reloads) and about the end of a block whose stores the accelerator makes."""
import dataclasses
import json
import os
import struct

import pytest

import tilescope
from tilescope.arraylike import launch_facts
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, read_cubin_facts
from tilescope.costmodel import l2_kept, schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import (_branch_target, _called_instructions, _decode, _local_load_waits,
                                             _reload_bytes)
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.dtypes import as_dtype
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import MetaTensor, parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLCHAIN = find_toolchain(required=False)
needs_tileiras = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
LDG, LDL, BRA, CALL, EXIT, FADD = 0x981, 0x983, 0x947, 0x944, 0x94D, 0x221
WIDTH_32, WIDTH_64 = 4, 5                  # the LDG/LDL width field (bits 9-11 of the second word)
ROWS = 16384


def _instruction(opcode, write_barrier=7, wait_mask=0, offset=0, width=WIDTH_32):
    """One sm_90 instruction: the opcode in the low 12 bits, a local offset from bit 40, the access
    width at bits 9-11 of the second word, the scoreboard it releases and the ones it waits on."""
    return struct.pack("<QQ", opcode | offset << 40, width << 9 | write_barrier << 46 | wait_mask << 52)


def _branch_back(at, target, opcode=BRA):
    """A BRA (or CALL) at byte `at` to `target`: 4-byte units from the next instruction, the low
    8 bits at bit 16 of the first word, the rest from bit 34 (sign included)."""
    units = (target - at - 16) // 4
    raw = units & ((1 << 56) - 1)
    lo = opcode | (raw & 0xFF) << 16 | (raw >> 8) << 34
    return struct.pack("<QQ", lo & ((1 << 64) - 1), (raw >> 8) >> 30)


def _facts(**changes):
    base = CubinFacts("k", threads=128, registers=128, shared_bytes=0, local_bytes=496, instructions=300,
                      global_loads=24, global_stores=8, local_loads=24, local_stores=8, tma_loads=0, tma_stores=0,
                      global_access_bytes=4.0, loads_in_flight=2.0, global_load_bytes=4.0)
    return dataclasses.replace(base, **changes)


def _kernels():
    return load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))


def _launched(shape):
    dt = as_dtype("float32")
    return MetaTensor(shape, dt, None, **launch_facts(1 << 20, shape, None, dt))


# ---- what the reader finds in the code -----------------------------------------------------------

@pytest.mark.parametrize("lo, hi, at, target", [
    (0xFFFFFFEC00E86947, 0x000FEA000383FFFF, 0x2F80, 0x1F30),     # a loop's branch back (cuobjdump -sass)
    (0x0000000000403947, 0x000FF00003800000, 0x0260, 0x0370)])    # a branch forward
def test_branch_targets_are_decoded_as_cuobjdump_prints_them(lo, hi, at, target):
    assert _branch_target(at, lo, hi) == target


def test_a_branch_encoded_back_decodes_back():
    lo, hi = struct.unpack("<QQ", _branch_back(0x5000, 0x100))
    assert _branch_target(0x5000, lo, hi) == 0x100


def test_reloads_issued_together_are_one_wait():
    together = [_instruction(LDL, b) for b in range(3)] + [_instruction(FADD, wait_mask=0b111)]
    one_by_one = [_instruction(LDL, 0), _instruction(FADD, wait_mask=1)] * 3
    assert _local_load_waits(_decode(b"".join(together))) == 1
    assert _local_load_waits(_decode(b"".join(one_by_one))) == 3
    # a wait on a global load's scoreboard is not a wait on a reload
    assert _local_load_waits(_decode(b"".join([_instruction(LDG, 0), _instruction(FADD, wait_mask=1)]))) == 0


def test_the_reload_working_set_is_what_the_loops_reload():
    body = [_instruction(LDL, 0, offset=8), _instruction(LDL, 1, offset=16), _instruction(LDL, 2, offset=8),
            _instruction(FADD, wait_mask=0b111), _instruction(LDG, 3)]
    outside = [_instruction(LDL, 0, offset=64 * k, width=WIDTH_64) for k in range(10)]
    code = b"".join(outside + body) + _branch_back(16 * (len(outside) + len(body)), 16 * len(outside))
    assert _reload_bytes(_decode(code)) == 8              # offsets 8 and 16, 4 bytes each, reloaded in the loop
    assert _reload_bytes(_decode(b"".join(outside))) == 80      # no loop: every reload, 8 bytes each


def test_the_subroutines_a_kernel_calls_are_counted_apart():
    main = [_instruction(FADD), _branch_back(16, 16 * 4, CALL), _instruction(FADD), _instruction(EXIT)]
    called = [_instruction(FADD)] * 5
    assert _called_instructions(_decode(b"".join(main + called))) == 5
    assert _called_instructions(_decode(b"".join(main[:1] + main[2:] + called))) == 0      # no call: all the kernel's


@needs_tileiras
def test_a_division_s_slow_path_is_not_issued():
    spec = f"f32[{ROWS},1024], f32[{ROWS},1024], 1024"
    compiled = tilescope.compile(_kernels().row_scale_by_sum, parse_args(spec))
    facts = read_cubin_facts(compiled.cubin("sm_90"))
    assert 0 < facts.called_instructions < facts.instructions        # the IEEE division's slow path
    counts = count(compiled.final, normalize_grid((ROWS,)))
    whole = dataclasses.replace(facts, called_instructions=0)
    assert schedule.code_instructions(counts, facts) == pytest.approx(
        schedule.code_instructions(counts, whole) * (facts.instructions - facts.called_instructions) / facts.instructions)


# ---- what the rules charge -------------------------------------------------------------------------

def _stencil_like():
    """A loop of loads: each run of the loop's region has element loads to share reloads among."""
    spec = "f32[4194304], f32[1048576], 4, 1024"
    return count(tilescope.compile(_kernels().load_chain, parse_args(spec)).final, normalize_grid((1024,)))


def test_reloads_that_fit_l1_cost_a_round_trip_per_wait_not_per_reload():
    h200, counts = gpu_named("h200"), _stencil_like()
    loop = next(r for r in counts.regions if r.op is not None)
    charge = lambda facts: schedule.spill_chain_us(counts, loop, facts, 0.33, 0.0356, 4, h200)  # noqa: E731
    small = _facts(local_load_waits=3, reload_bytes=20)            # 20 B x 512 threads: fits L1
    large = _facts(local_load_waits=3, reload_bytes=2200)          # 2,200 B x 512 threads: does not
    assert schedule.reloads_fit_l1(small, 4, h200) and not schedule.reloads_fit_l1(large, 4, h200)
    assert charge(small) == pytest.approx(charge(large) * 3 / 24)   # 3 waits instead of 24 reloads
    assert charge(_facts()) == pytest.approx(charge(large))         # not read: every reload
    assert charge(dataclasses.replace(small, local_loads=0)) == 0.0
    # shared memory takes its part of the SM's L1: the same reloads no longer fit beside 200 KiB
    assert not schedule.reloads_fit_l1(dataclasses.replace(small, reload_bytes=400, shared_bytes=50 * 1024), 4, h200)


def _row_scale_counts(tn):
    specs = [_launched((ROWS, tn)).signature(), _launched((ROWS, tn)).signature(), tn]
    return count(tilescope.compile(_kernels().row_scale_by_sum, specs).final, normalize_grid((ROWS,)))


def test_a_block_with_bulk_stores_waits_for_what_it_stores_up_to_the_measured_rows():
    counts = _row_scale_counts(4096)                     # 16 KiB a row
    bulk = _facts(tma_loads=4, tma_stores=4, local_loads=0, global_loads=0, global_stores=0)
    assert schedule.bulk_store_drain_us(counts, bulk) == pytest.approx(schedule.DRAIN_US + 16 * schedule.DRAIN_US_PER_KIB)
    assert schedule.bulk_store_drain_us(_row_scale_counts(1024), bulk) == \
        pytest.approx(schedule.DRAIN_US + 4 * schedule.DRAIN_US_PER_KIB)
    assert schedule.bulk_store_drain_us(_row_scale_counts(16384), bulk) == \
        pytest.approx(schedule.bulk_store_drain_us(counts, bulk))           # not extrapolated past 16 KiB
    assert schedule.bulk_store_drain_us(counts, dataclasses.replace(bulk, tma_stores=0)) == 0.0
    h200 = gpu_named("h200")
    with_drain = predict(counts, h200, facts=bulk)
    without = predict(_row_scale_counts(4096), h200, facts=dataclasses.replace(bulk, tma_stores=0))
    assert with_drain.block_us > without.block_us


@needs_tileiras
def test_the_drain_constants_are_what_the_stored_microbenchmarks_give(monkeypatch):
    """Re-derive DRAIN_US and DRAIN_US_PER_KIB from the launch builds of row_scale_by_sum timed in
    bench/results/cost_micro13_h200.json: the model without a drain, against the times."""
    with open(os.path.join(ROOT, "bench", "results", "cost_micro13_h200.json")) as f:
        measured = json.load(f)["cases"]
    monkeypatch.setattr(schedule, "DRAIN_US", 0.0)
    monkeypatch.setattr(schedule, "DRAIN_US_PER_KIB", 0.0)
    waits = {}
    for tn in (1024, 4096):
        specs = [_launched((ROWS, tn)).signature(), _launched((ROWS, tn)).signature(), tn]
        cubin = tilescope.compile(_kernels().row_scale_by_sum, specs).cubin("sm_90")
        facts = read_cubin_facts(cubin)
        assert facts.tma_stores and facts.threads == 256      # tileiras's build: bulk stores, one block per SM
        p = predict(_row_scale_counts(tn), gpu_named("h200"), facts=facts)
        assert p.bound == "latency" and p.blocks_per_sm == 1
        waves = -(-ROWS // (132 * p.blocks_per_sm))
        waits[tn * 4 / 1024] = (measured[f"row_scale_by_sum_f32_t{tn}_launch"]["us"] - p.predicted_us) / waves
    per_kib = (waits[16.0] - waits[4.0]) / 12
    assert per_kib == pytest.approx(0.0376, rel=0.02)
    assert waits[4.0] - 4 * per_kib == pytest.approx(0.413, rel=0.02)


def test_reloads_that_miss_l1_queue_with_the_loads_in_flight(monkeypatch):
    h200, counts = gpu_named("h200"), _stencil_like()
    monkeypatch.setattr(l2_kept, "IN_L2_SHARE", 0.0)      # its 20 MB taken from DRAM, as launches too large for L2
    # one load in flight a thread and a reload wait per load: the loads' Little's-law time and the
    # reloads' round trips are comparable; only where the reloads miss L1 do they add up
    serial = dict(loads_in_flight=1.0, local_loads=24, local_load_waits=24, global_loads=24)
    fits = predict(counts, h200, facts=_facts(reload_bytes=20, **serial))
    misses = predict(_stencil_like(), h200, facts=_facts(reload_bytes=2200, **serial))
    c = misses.blocks_per_sm
    flight = schedule.in_flight_us(counts, _facts(reload_bytes=2200, **serial), h200, c)
    loop = next(r for r in counts.regions if r.op is not None)
    spill = schedule.spill_chain_us(counts, loop, _facts(reload_bytes=2200, **serial), 0.3266, 0.0356, c, h200)
    waves = -(-counts.blocks // (132 * c))
    assert fits.blocks_per_sm == c and fits.terms["latency"] < misses.terms["latency"]
    # (the sum queues with the DRAM's rate near the knee, version 18)
    queued = schedule.queued_us(flight + waves * float(loop.trips.mean()) * spill, misses.terms["memory"])
    assert misses.terms["latency"] == pytest.approx(max(fits.terms["latency"], queued), rel=1e-6)
