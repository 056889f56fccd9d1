"""Version 23: spilled values that miss L1 come back from L2 (its round trip) as far as the spill
areas of all resident threads fit L2, from DRAM beyond; never faster than L2 delivers a wait's
reloads to the SM; and only the share of them beyond L1 misses it."""
import dataclasses
import struct

import pytest

from tilescope.costmodel import schedule
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.cubin_facts import CubinFacts, _decode, _reload_wait_bytes
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import L2_COPY_BYTES_PER_SM_S

LDL, FADD, BRA = 0x983, 0x221, 0x947
WIDTH_32, WIDTH_128 = 4, 6


def _instruction(opcode, write_barrier=7, wait_mask=0, width=WIDTH_32):
    return struct.pack("<QQ", opcode, width << 9 | write_barrier << 46 | wait_mask << 52)


def _facts(**changes):
    base = CubinFacts("k", threads=256, registers=168, shared_bytes=0, local_bytes=2048, instructions=9000,
                      global_loads=0, global_stores=0, local_loads=800, local_stores=700, tma_loads=0,
                      tma_stores=0, global_access_bytes=None, loads_in_flight=None, global_load_bytes=None,
                      local_load_waits=200, reload_bytes=256, reload_wait_bytes=16.0)
    return dataclasses.replace(base, **changes)


def test_the_bytes_a_wait_on_reloads_brings_are_read_from_the_scoreboards():
    code = b"".join([
        _instruction(LDL, write_barrier=0, width=WIDTH_128),      # 16 bytes on scoreboard 0
        _instruction(LDL, write_barrier=0),                       # 4 more on it
        _instruction(LDL, write_barrier=1),                       # 4 on scoreboard 1
        _instruction(FADD, wait_mask=0b01),                       # waits for the 20 bytes of 0
        _instruction(FADD, wait_mask=0b10),                       # then for the 4 of 1
        _instruction(FADD),
    ])
    assert _reload_wait_bytes(_decode(code)) == pytest.approx((20 + 4) / 2)
    assert _reload_wait_bytes(_decode(_instruction(FADD) * 3)) is None          # nothing waits on a reload


def test_a_wait_on_reloads_that_fit_l2_takes_l2s_round_trip_and_dram_s_beyond():
    h200 = gpu_named("h200")
    rate = L2_COPY_BYTES_PER_SM_S * 1e-6
    dram = H200.load_us[0]
    small = _facts(reload_bytes=256)                     # 256 B x 256 threads x 132 SMs: 8.7 MB, in L2
    assert schedule.reload_wait_us(small, 1, h200, schedule.L2_HIT_US, dram, rate) == schedule.L2_HIT_US
    huge = _facts(reload_bytes=256 * 1000)               # 8.7 GB: almost all of it beyond L2
    wait = schedule.reload_wait_us(huge, 1, h200, schedule.L2_HIT_US, dram, rate)
    assert schedule.L2_HIT_US < wait < dram and wait == pytest.approx(dram, rel=0.01)
    half = _facts(reload_bytes=int(2 * h200.l2_mb * 1e6 / (256 * 132)))       # twice L2: half beyond it
    assert schedule.reload_wait_us(half, 1, h200, schedule.L2_HIT_US, dram, rate) == pytest.approx(
        (schedule.L2_HIT_US + dram) / 2, rel=1e-3)
    assert schedule.L2_HIT_US < dram                     # the chases: 0.160 µs through L2, 0.361 through DRAM


def test_a_wait_on_more_reloads_than_l2_delivers_in_a_round_trip_takes_the_delivery():
    h200 = gpu_named("h200")
    rate = L2_COPY_BYTES_PER_SM_S * 1e-6                 # bytes an SM receives a µs
    wide = _facts(reload_wait_bytes=64.0)                # 64 B x 256 threads x 2 blocks: 32 KiB a wait
    wait = schedule.reload_wait_us(wide, 2, h200, schedule.L2_HIT_US, H200.load_us[0], rate)
    assert wait == pytest.approx(64 * 256 * 2 / rate) and wait > schedule.L2_HIT_US


def test_only_the_share_of_spills_beyond_l1_waits():
    h200 = gpu_named("h200")
    l1 = h200.l1_left_bytes(2 * (40_000 + schedule.SHARED_RESERVED))      # (the 100 KB setting: version 52)
    just_over = _facts(shared_bytes=40_000, reload_bytes=int(l1 * 1.05 / 512))
    assert not schedule.reloads_fit_l1(just_over, 2, h200)
    assert 0.0 < schedule.reloads_missing_l1(just_over, 2, h200) < 0.1
    far = dataclasses.replace(just_over, reload_bytes=just_over.reload_bytes * 10)
    assert schedule.reloads_missing_l1(far, 2, h200) > 0.85
    assert schedule.reloads_missing_l1(dataclasses.replace(just_over, reload_bytes=16), 2, h200) == 0.0


def test_a_prediction_charges_reloads_at_l2s_round_trip_where_the_spills_fit_l2():
    import os
    import tilescope
    from tilescope.costmodel.counts import count
    from tilescope.costmodel.model import predict
    from tilescope.lang.shim import load_file
    from tilescope.launch_args import normalize_grid
    from tilescope.meta import parse_args
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    kernels = load_file(os.path.join(root, "tests", "cost", "kernels_cost.py"))
    spec = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64"
    h200 = gpu_named("h200")

    def latency(facts):
        counts = count(tilescope.compile(kernels.matmul_occupancy4, parse_args(spec)).final, normalize_grid((32, 32)))
        return predict(counts, h200, facts=facts).terms["latency"]
    # two blocks of 256 threads an SM: 600 bytes a thread are beyond L1 (307 KB an SM) and fit L2
    # (40.5 MB); thirty times that does not fit L2
    in_l2 = _facts(shared_bytes=60_000, reload_bytes=600, local_load_waits=100, reload_wait_bytes=4.0)
    beyond_l2 = dataclasses.replace(in_l2, reload_bytes=600 * 30)
    assert latency(beyond_l2) > 1.5 * latency(in_l2)


def test_at_the_register_ceiling_reloads_that_fit_l1_cost_the_codes_waits_on_them():
    import os
    import tilescope
    from tilescope.costmodel.counts import count
    from tilescope.lang.shim import load_file
    from tilescope.launch_args import normalize_grid
    from tilescope.meta import parse_args
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    kernels = load_file(os.path.join(root, "tests", "cost", "kernels_cost.py"))
    spec = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64"
    counts = count(tilescope.compile(kernels.matmul_occupancy4, parse_args(spec)).final, normalize_grid((32, 32)))
    loop = next(r for r in counts.regions if r.op is not None)
    h200 = gpu_named("h200")
    ceiling = _facts(registers=255, threads=128, local_loads=2000, local_load_waits=300, reload_bytes=64,
                     loop_instructions=8000)
    assert schedule.reloads_fit_l1(ceiling, 2, h200)
    assert schedule.spill_chain_us(counts, loop, ceiling, 0.33, 0.03, 2, h200) == pytest.approx(300 * 0.03)
    spread = dataclasses.replace(ceiling, reload_bytes=4096)         # 1 MiB an SM: each reload waits
    assert schedule.spill_chain_us(counts, loop, spread, 0.33, 0.03, 2, h200) == pytest.approx(2000 * 0.03)
