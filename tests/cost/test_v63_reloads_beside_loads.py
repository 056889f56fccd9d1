"""Model version 63: a spilled `mma` loop whose cubin stops for each of its LDGs alone (as many
load waits a pass as LDGs, no accelerator copies) and whose resident threads' spilled values miss
L1 waits for its reloads after its loads, not while they are in flight: the reloads' time adds to
the iteration's instead of overlapping it (docs/cost-model.md history 96)."""
import dataclasses

from tilescope.costmodel.counts import count
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.schedule import reloads_beside_loads, reloads_fit_l1
from tilescope.launch_args import normalize_grid

from .test_v27_load_waits import FACTS, _matmul_counts

H200 = gpu_named("h200")
# a dynamic build's mma loop: 128 element loads (2 bytes each) a pass, each waited alone, and 3 KB of
# spills a thread reloaded there (two blocks of 128 threads an SM: 750 KB, past L1)
SPILLED = dataclasses.replace(FACTS, registers=200, local_bytes=3072, instructions=9000, global_loads=160,
                              local_loads=1500, local_stores=1500, loads_in_flight=1.0, local_load_waits=500,
                              reload_bytes=3000, loop_instructions=8000, loop_local_clocks=2000, mma_loop_mmas=32,
                              mma_loop_instructions=8000, mma_loop_local_clocks=2000, mma_loop_load_waits=128.0,
                              loop_loads=128, loop_load_waits=128.0)


def _counts():
    counts, _ = _matmul_counts()
    return count(counts.fn, normalize_grid((64, 64)))


def test_the_rule_needs_each_load_waited_alone_and_reloads_past_l1():
    assert not reloads_fit_l1(SPILLED, 2, H200)
    assert reloads_beside_loads(SPILLED, 2, H200)
    # loads in flight together (fewer waits than LDGs), the accelerator's copies, or no waits read
    assert not reloads_beside_loads(dataclasses.replace(SPILLED, mma_loop_load_waits=16.0), 2, H200)
    assert not reloads_beside_loads(dataclasses.replace(SPILLED, tma_loads=4), 2, H200)
    assert not reloads_beside_loads(dataclasses.replace(SPILLED, mma_loop_load_waits=None), 2, H200)
    # spilled values the L1 beside the blocks holds come back from it: nothing to wait apart
    small = dataclasses.replace(SPILLED, reload_bytes=64)
    assert reloads_fit_l1(small, 2, H200) and not reloads_beside_loads(small, 2, H200)


def test_the_reloads_add_to_the_loop_time_instead_of_overlapping_it():
    counts = _counts()
    serial = predict(counts, H200, facts=SPILLED)
    # the same loop with its loads in flight together (127 waits for 128 LDGs): the larger of the two
    batched = predict(counts, H200, facts=dataclasses.replace(SPILLED, mma_loop_load_waits=127.0))
    unspilled = predict(counts, H200, facts=dataclasses.replace(SPILLED, local_loads=0, local_load_waits=0,
                                                                reload_bytes=0, local_bytes=0))
    assert serial.bound == batched.bound == unspilled.bound == "latency"
    assert batched.terms["latency"] > 2 * unspilled.terms["latency"]       # here the reloads take longer
    # the sum of the two (less the code outside the loop, which both count once)
    both = batched.terms["latency"] + unspilled.terms["latency"]
    assert both * 0.85 < serial.terms["latency"] < both
