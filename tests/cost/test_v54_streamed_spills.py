"""Model version 54: a float32 product's loop (computed on the CUDA cores) that stores and reloads
spills every iteration moves the share L2 cannot hold at DRAM's rate, which bounds the loop's
time from below (set U's split-K GEMM, docs/cost-model.md history 85)."""
import dataclasses
import os

import cuda.tile as ct
import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, as_launched, read_cubin_facts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.schedule import spill_stream_us, streamed_spill_loop
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
H200 = gpu_named("h200")


@ct.kernel
def split_k(a, b, c, tiles: int, steps: int, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    """A persistent loop over output tiles, each a K loop of float32 products (set U's shape)."""
    for t in range(ct.bid(0), tiles, ct.num_blocks(0)):
        acc = ct.zeros((TM, TN), dtype=ct.float32)
        for k in range(steps):
            acc = ct.mma(ct.load(a, index=(t, k), shape=(TM, TK)), ct.load(b, index=(k, 0), shape=(TK, TN)), acc)
        ct.store(c, index=(t, 0), tile=acc)


@ct.kernel
def softmax_rows(q, k, o, steps: int, TM: ct.Constant[int], TN: ct.Constant[int]):
    """An attention-like loop: a float32 product, then exponentials of it."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(steps):
        s = ct.mma(ct.load(q, index=(ct.bid(0), 0), shape=(TM, TN)), ct.load(k, index=(0, j), shape=(TN, TN)),
                   ct.zeros((TM, TN), dtype=ct.float32))
        acc = acc + ct.exp(s)
    ct.store(o, index=(ct.bid(0), 0), tile=acc)


# set U's cubin, in round figures: 256 threads at the ceiling, 7.8 KB of spill slots a thread
# reloaded in its K loop, whose body takes 7,781 L1 clocks of local loads and stores a warp
SPILLING = CubinFacts("k", threads=256, registers=255, shared_bytes=66_000, local_bytes=7656,
                      instructions=53_000, global_loads=128, global_stores=64, local_loads=6000,
                      local_stores=3000, tma_loads=0, tma_stores=0, global_access_bytes=4.0,
                      loads_in_flight=2.0, global_load_bytes=4.0, local_load_waits=2500,
                      reload_bytes=7800, reload_wait_bytes=12.0, spill_area_bytes=256 * 7800,
                      loop_instructions=24_578, loop_shared_ops=200, loop_local_clocks=7781)
SPEC = "f32[4096, 65536], f32[65536, 128], f32[4096, 128], 32, 1024, 128, 128, 64"


def _counts(kernel=split_k, spec=SPEC, grid=(132,)):
    return tilescope.cost(kernel, spec, grid, "h200", aligned=False).counts


def test_the_k_loop_of_a_float32_product_is_the_streamed_loop():
    counts = _counts()
    loop = streamed_spill_loop(counts, SPILLING)
    assert loop is not None and loop.depth == 2 and loop.mmas
    # a cubin whose loops hold tensor-core mma, or spill nothing in its longest loop: not this law
    assert streamed_spill_loop(counts, dataclasses.replace(SPILLING, mma_loop_mmas=16)) is None
    assert streamed_spill_loop(counts, dataclasses.replace(SPILLING, loop_local_clocks=0)) is None
    # 16-bit products run on the tensor cores
    assert streamed_spill_loop(_counts(spec=SPEC.replace("f32[4096, 65536], f32[65536, 128]",
                                                         "f16[4096, 65536], f16[65536, 128]")), SPILLING) is None
    # an attention's loop (exponentials beside the product) keeps the reload laws alone
    attention = _counts(softmax_rows, "f32[16384, 128], f32[128, 65536], f32[16384, 128], 512, 128, 128")
    assert streamed_spill_loop(attention, SPILLING) is None


def test_only_the_spills_beyond_l2_move_at_drams_share():
    share = 4.2e6 / 132
    # 256 threads x 7,781 clocks x 4 bytes: 8.0 MB an iteration, nearly all missing L1; 132 SMs'
    # areas of 2 MB (264 MB) leave 77% beyond L2's 60 MB
    us = spill_stream_us(SPILLING, H200, 1, 1, share)
    assert 165 < us < 195
    # areas that fit L2: its round trips and the L1 clocks already charge them
    assert spill_stream_us(dataclasses.replace(SPILLING, spill_area_bytes=256 * 1000), H200, 1, 1, share) == 0.0
    # two blocks sharing the SM move twice the bytes
    assert spill_stream_us(SPILLING, H200, 2, 1, share) == pytest.approx(2 * us)


def test_the_launch_is_at_least_its_spills_at_drams_rate():
    counts = _counts()
    fast = dataclasses.replace(SPILLING, spill_area_bytes=256 * 1000)
    near = predict(counts, H200, facts=fast).predicted_us
    far = predict(counts, H200, facts=SPILLING).predicted_us
    # 32 tiles over 132 blocks, 1,024 K steps: one tile a block, ~178 µs a step
    assert far > 1024 * 170 and far > 3 * near


@needs_tileiras
def test_tileiras_spills_a_float32_products_k_loop_without_tensor_cores():
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    spec = as_launched(parse_args("f32[128, 512], f32[512, 128], f32[16896, 128], 32, 8, 128, 128, 64"))
    facts = read_cubin_facts(tilescope.compile(kernels.mw_chained, spec).cubin("sm_90"))
    counts = tilescope.cost(kernels.mw_chained, spec, (132,), "h200").counts
    assert facts.loop_local_clocks and not facts.mma_loop_mmas
    assert streamed_spill_loop(counts, facts) is not None
