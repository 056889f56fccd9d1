"""Model version 55: Little's law for element loads counts only the SMs a grid occupies, and where
tileiras walks a straight-line kernel's huge tile in a loop of its own, that loop's loads per wait
are the thread's loads in flight (set Y's RepVGG epilogue, docs/cost-model.md history 86)."""
import dataclasses

import cuda.tile as ct
import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, read_cubin_facts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import in_flight_us

needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
H200 = gpu_named("h200")


@ct.kernel
def channel_scale(x, y, TILE: ct.Constant[int]):
    """One channel a block, the whole channel one tile (a batch-norm epilogue's shape)."""
    c = ct.bid(0)
    ct.store(y, index=(c, 0), tile=ct.load(x, index=(c, 0), shape=(1, TILE)) * 2.0)


FACTS = CubinFacts("k", threads=128, registers=57, shared_bytes=0, local_bytes=0, instructions=744,
                   global_loads=27, global_stores=12, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=4.0, loads_in_flight=6.75, global_load_bytes=4.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=123, loop_loads=4, loop_load_waits=1.0)


def _counts(channels, tile):
    return tilescope.cost(channel_scale, f"f32[{channels}, {tile}], f32[{channels}, {tile}], {tile}",
                          (channels,), "h200", aligned=False).counts


def test_a_grid_smaller_than_the_gpu_keeps_its_own_sms_loads_in_flight():
    plain = dataclasses.replace(FACTS, loop_loads=None, loop_load_waits=None)
    # one block an SM either way: 64 SMs fetch half the bytes 132 SMs do in the same time
    small, full = in_flight_us(_counts(64, 4096), plain, H200, 1), in_flight_us(_counts(132, 4096), plain, H200, 1)
    assert small == pytest.approx(full, rel=0.01)


def test_a_huge_tile_walked_in_a_loop_has_that_loops_loads_in_flight():
    huge = _counts(64, 1 << 21)
    # 16,384 loads a thread against the code's 27 LDGs: the loop's 4 loads a wait, not 6.75
    assert in_flight_us(huge, FACTS, H200, 1) == pytest.approx(
        in_flight_us(huge, dataclasses.replace(FACTS, loop_loads=None), H200, 1) * 6.75 / 4)
    # a tile of 32 loads a thread is mostly the code's straight-line loads: the code's figure stays
    small = _counts(64, 4096)
    assert in_flight_us(small, FACTS, H200, 1) == in_flight_us(
        small, dataclasses.replace(FACTS, loop_loads=None), H200, 1)


@needs_tileiras
def test_tileiras_walks_a_huge_tile_in_a_loop_that_loads():
    spec = "f32[64, 262144], f32[64, 262144], 262144"
    facts = read_cubin_facts(tilescope.compile(channel_scale, spec).cubin("sm_90"))
    assert facts.loop_loads and facts.loop_load_waits
    counts = tilescope.cost(channel_scale, spec, (64,), "h200", aligned=False).counts
    walked = in_flight_us(counts, facts, H200, 1)
    assert walked == pytest.approx(in_flight_us(counts, dataclasses.replace(facts, loop_loads=None), H200, 1)
                                   * facts.loads_in_flight * facts.loop_load_waits / facts.loop_loads)
