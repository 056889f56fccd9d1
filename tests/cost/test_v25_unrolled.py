"""Version 25: a K loop of constant trip count that tileiras unrolls whole into the persistent loop
around it is charged the cubin's loop body once per its steps, not once per step."""
import dataclasses
import os

import tilescope
from tilescope.costmodel import schedule
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = "f16[1024,512], f16[512,1024], f32[1024,1024], 1024, 1024, {K}, 128, 128, 64"


def _counts(k):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    compiled = tilescope.compile(kernels.persistent_matmul_sized, parse_args(SPEC.format(K=k)))
    return count(compiled.final, normalize_grid((132,)))


def _inner(counts):
    return next(r for r in counts.regions if r.op is not None and r.mmas)


# the persistent loop's body holds the 8 K steps: 8 times a step's mma and full waits, and no loop inside
UNROLLED = CubinFacts("k", threads=256, registers=255, shared_bytes=100_000, local_bytes=232, instructions=9000,
                      global_loads=100, global_stores=16, local_loads=200, local_stores=80, tma_loads=0,
                      tma_stores=0, global_access_bytes=4.0, loads_in_flight=1.0, global_load_bytes=4.0,
                      local_load_waits=150, reload_bytes=232, reload_wait_bytes=8.0, loop_instructions=8000,
                      loop_shared_ops=800, loop_local_clocks=300, mma_loop_mmas=128, mma_loop_full_waits=8,
                      mma_loop_pipelined_waits=0, mma_loop_instructions=8000, mma_loop_local_clocks=300)


def test_a_constant_k_loop_whose_steps_the_persistent_loops_body_holds_counts_them():
    counts = _counts(512)                                   # K known: 512 / 64 = 8 steps a tile
    inner = _inner(counts)
    assert inner.depth == 2
    assert schedule.unrolled_steps(inner, UNROLLED) == 8
    # a build that keeps its K loop: the innermost mma loop is not the longest
    kept = dataclasses.replace(UNROLLED, mma_loop_instructions=1000, mma_loop_local_clocks=40)
    assert schedule.unrolled_steps(inner, kept) == 1
    # waits that are not the steps' multiple: not an unrolled K loop
    assert schedule.unrolled_steps(inner, dataclasses.replace(UNROLLED, mma_loop_full_waits=3)) == 1
    # K unknown (a runtime scalar): no constant trip count to divide by
    assert schedule.unrolled_steps(_inner(_counts("i32")), UNROLLED) == 1


def test_the_unrolled_body_is_charged_once_for_its_steps():
    counts = _counts(512)
    h200 = gpu_named("h200")
    # a body whose waits on reloads and whose issue dominate an iteration
    heavy = dataclasses.replace(UNROLLED, local_load_waits=3000, reload_bytes=4096, mma_loop_local_clocks=3000)
    unrolled = predict(counts, h200, facts=heavy).terms["latency"]
    once_a_step = predict(counts, h200, facts=dataclasses.replace(heavy, mma_loop_full_waits=3)).terms["latency"]
    assert unrolled < once_a_step / 2
