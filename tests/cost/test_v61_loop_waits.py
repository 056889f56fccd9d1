"""Model version 61: a loop whose IR carries nothing its loads bring to the next step (version 15
let such loads overlap) but whose cubin loop stops for them all the same waits each step for the
round trips the cubin's scoreboards say, each from where the data most likely are: L1 for an
array that stays there or a small tile read a step after the last, else L2 or DRAM
(docs/cost-model.md history 94)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import l2_kept, loop_waits, model, schedule
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels_waits.py"))
H200 = gpu_named("h200")
# a persistent softmax's cubin: 128 threads, a 2,048-element bfloat16 row a step, 16 LDGs a thread
SOFTMAX = CubinFacts("softmax", threads=128, registers=64, shared_bytes=0, local_bytes=0, instructions=900,
                     global_loads=16, global_stores=16, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                     global_access_bytes=2.0, loads_in_flight=16.0, global_load_bytes=2.0, local_load_waits=0,
                     reload_bytes=0, loop_instructions=800, loop_shared_ops=10, loop_loads=16)
SOFTMAX_SPEC = "bf16[32768, 2048], bf16[32768, 2048], 32768, 2048"


def _softmax(**changes):
    r = tilescope.cost(KERNELS.softmax_rows_by_gathers, SOFTMAX_SPEC, (128,), "h200")
    return model.predict(r.counts, H200, facts=dataclasses.replace(SOFTMAX, **changes))


def _softmax_round_trip() -> float:
    """A wait on the softmax's rows: DRAM's loaded round trip, L2's for the share of the 268 MB it
    reads and writes that L2 keeps from the launch before (version 105)."""
    r = tilescope.cost(KERNELS.softmax_rows_by_gathers, SOFTMAX_SPEC, (128,), "h200")
    kept = l2_kept.l2_kept_share(r.counts, H200)
    assert 0.1 < kept < 0.12
    return (1 - kept) * schedule.LOADED_LATENCY_US + kept * schedule.L2_HIT_US


@pytest.mark.parametrize("waits", [1, 2])
def test_a_loop_the_cubin_waits_in_waits_each_step(waits):
    # 256 rows a block, each step a round trip per wait (the rows come from DRAM once)
    base = _softmax().block_us
    got = _softmax(loop_load_waits=float(waits)).block_us
    assert got - base == pytest.approx(256 * waits * _softmax_round_trip() * 1.98 / H200.clock_ghz, rel=0.02)


def test_spilling_code_keeps_the_spill_chain_alone():
    # the spill chain (version 13) charges the round trips of a loop that reloads spills
    spilled = dict(local_loads=8, local_stores=8, local_bytes=64, local_load_waits=4, reload_bytes=32)
    assert _softmax(loop_load_waits=1.0, **spilled).block_us == _softmax(**spilled).block_us


def test_the_estimate_waits_once_a_step(monkeypatch):
    # an estimate has no scoreboards: one wait a step, every cubin of such a loop waits at least once a pass
    r = tilescope.cost(KERNELS.softmax_rows_by_gathers, SOFTMAX_SPEC, (128,), "h200")
    assert r.prediction.estimate is not None and not r.prediction.estimate.local_loads
    (loop,) = [q for q in r.counts.regions if q.op is not None]
    gathers = [a for a in loop.accesses if a.kind == "gather"]
    step = loop_waits.carried_nothing_wait_us(loop, r.prediction.estimate, gathers, True, 1, H200, estimated=True)
    assert step == pytest.approx(_softmax_round_trip())      # a new row from DRAM (or L2) each step
    monkeypatch.setattr(model, "carried_nothing_wait_us", lambda *args: 0.0)
    assert r.prediction.block_us > model.predict(r.counts, H200).block_us + 256 * step / 2


def _loop(kernel, spec):
    r = tilescope.cost(kernel, spec, (64,), "h200")
    (loop,) = [q for q in r.counts.regions if q.op is not None]
    return loop


ONE_KEY = dataclasses.replace(SOFTMAX, threads=32, global_load_bytes=4.0, global_access_bytes=4.0)


def test_a_small_array_and_keys_read_in_turn_come_from_l1():
    # a block's counts row stays in L1; its keys are 4 bytes a step: one step in 32 reads a new line
    loop = _loop(KERNELS.count_by_key, "i32[65536], i32[4160], 64, 1024")
    keys, counts = [a for a in loop.accesses if a.kind == "gather"]
    assert loop_waits.source_round_trip_us([counts], ONE_KEY, 32, H200) == schedule.L1_HIT_US
    key_trip = loop_waits.source_round_trip_us([keys], ONE_KEY, 32, H200)
    # (a launch of 260 KB: the launch before left it in L2, whose round trip a new line waits; version 79)
    assert key_trip == pytest.approx(schedule.L1_HIT_US + (schedule.L2_HIT_US - schedule.L1_HIT_US) / 32)


def test_a_large_table_read_where_the_keys_say_waits_the_whole_round_trip():
    loop = _loop(KERNELS.look_up_by_key, "i32[65536], f32[268435456], f32[65536], 1024")
    table = next(a for a in loop.accesses if a.array == "table")
    # the keys pick 65,536 sectors of the 1 GB table, the same each launch: they stay in L2 (version 79)
    assert loop_waits.source_round_trip_us([table], ONE_KEY, 32, H200) == schedule.L2_HIT_US
    from_dram = dataclasses.replace(table, l2_kept_share=0.0)
    assert loop_waits.source_round_trip_us([from_dram], ONE_KEY, 32, H200) == schedule.LOADED_LATENCY_US
    # the same lookups at the loop's index: one step in 32 reads a new line
    keys = next(a for a in loop.accesses if a.array == "keys")
    assert loop_waits.source_round_trip_us([keys], ONE_KEY, 32, H200) < schedule.LOADED_LATENCY_US / 8


def test_the_count_loop_waits_l1_round_trips_not_drams():
    # four steps a pass of the cubin's loop (8 LDGs, 2 a step), four waits a pass: one a step
    facts = dataclasses.replace(ONE_KEY, global_loads=8, loop_loads=8, loop_load_waits=4.0)
    loop = _loop(KERNELS.count_by_key, "i32[65536], i32[4160], 64, 1024")
    plain = [a for a in loop.accesses if a.kind == "gather"]
    wait = loop_waits.carried_nothing_wait_us(loop, facts, plain, True, 32, H200)
    assert schedule.L1_HIT_US < wait < 2 * schedule.L1_HIT_US
    assert loop_waits.carried_nothing_wait_us(loop, facts, plain, False, 32, H200) == 0.0   # not the only loop


def test_a_persistent_kernel_on_a_small_grid_is_told_the_grid_that_fills_the_gpu():
    # 128 blocks of a loop over the grid, three an SM: the advice names the grid of 396, not more work
    r = tilescope.cost(KERNELS.softmax_rows_by_gathers, SOFTMAX_SPEC, (128,), "h200")
    (small,) = [a for a in r.advice if a.code == "small-grid"]
    slots = H200.sms * r.prediction.blocks_per_sm
    assert r.prediction.blocks_per_sm > 1
    assert f"a grid of {slots} blocks ({r.prediction.blocks_per_sm} per SM)" in small.message
    # a grid whose blocks each own their keys gets the plain advice
    keys = tilescope.cost(KERNELS.count_by_key, "i32[65536], i32[4160], 64, 1024", (64,), "h200")
    (plain,) = [a for a in keys.advice if a.code == "small-grid"]
    assert "split the work into more blocks" in plain.message
