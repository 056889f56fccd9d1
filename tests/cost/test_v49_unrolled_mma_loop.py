"""Model version 49: a dynamic `mma` loop whose cubin body holds k steps of it (k times one step's
element loads among the loop's LDGs) has its body's load waits shared by those k steps."""
import dataclasses
import os

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))
SPEC = "bf16[16384,16384], bf16[16384,4096], f32[16384,4096], 128, 32, 128, True"


def _loop():
    r = tilescope.cost(KERNELS.matmul_cast, SPEC, (128, 128), "h200", aligned=False)
    return next(x for x in r.counts.regions if x.mmas)


def _facts(loop_loads):
    # a 256-thread dynamic build loading 2 bytes an LDG, its mma loop its longest loop
    return CubinFacts("k", threads=256, registers=255, shared_bytes=50000, local_bytes=0, instructions=9000,
                      global_loads=352, global_stores=33, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                      global_access_bytes=2.0, loads_in_flight=1.3, global_load_bytes=2.0, loop_instructions=4097,
                      mma_loop_instructions=4097, mma_loop_mmas=32, mma_loop_full_waits=32, mma_loop_load_waits=120,
                      loop_loads=loop_loads)


def test_a_body_of_twice_a_steps_loads_holds_two_steps():
    loop = _loop()
    # a step: a 128x128 and a 128x32 bfloat16 tile on 256 threads, an element an LDG: 64 + 16
    assert schedule.unrolled_steps(loop, _facts(160)) == 2
    assert schedule.unrolled_steps(loop, _facts(80)) == 1
    assert schedule.unrolled_steps(loop, _facts(120)) == 1          # 1.5 steps: not a whole unroll
    assert schedule.unrolled_steps(loop, _facts(None)) == 1
    # the waits of a pass are shared by its steps
    one, two = (schedule.mma_loop_load_wait_us(loop, _facts(n), loop.accesses) for n in (80, 160))
    assert two == one / 2 > 0


def test_only_when_the_mma_loop_is_the_longest():
    facts = dataclasses.replace(_facts(160), loop_instructions=9000)
    assert schedule.unrolled_steps(_loop(), facts) == 1
