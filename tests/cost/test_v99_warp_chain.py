"""Model version 99 (docs/cost-model.md history 172).

A step of the IR's only loop, where the accelerator feeds it, takes at least one warp's pass through
the cubin's loop: each instruction's stall clocks and its waits on the scoreboards of on-chip
results, in order. Set BH's column sum as launched (27 blocks, a block-wide column sum of a
(512, 16) bfloat16 tile each step behind accelerator copies) took 0.65 µs a step; the model had
0.27."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import model, read_cubin_facts, warp_chain
from tilescope.costmodel.advice import advise
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.loop_waits import warp_chain_us
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUMS = load_file(os.path.join(ROOT, "bench", "cost_kernels_chain.py"))
H100 = gpu_named("h100")
BH_SPEC = "bf16[131072, 432], f32[432], 512, 16, 256"
# set BH's column sum as launched: 256 threads (a producer warpgroup and a consumer one), 8
# accelerator copies, a consumer loop of 368 instructions; its chain as tileiras 13.3 built it
BH_FACTS = CubinFacts("column_sum", threads=256, registers=255, shared_bytes=34440, local_bytes=0,
                      instructions=1216, global_loads=0, global_stores=0, local_loads=0, local_stores=0,
                      tma_loads=8, tma_stores=1, local_load_waits=0, reload_bytes=0, spill_area_bytes=0,
                      called_instructions=0, loop_instructions=368, loop_shared_ops=60, loop_local_clocks=0,
                      loop_loads=0, loop_serial_copies=0, divisions=0, loop_chain_clocks=1210)


def _word(opcode, stall=1, write=7, read=7, wait=0):
    """An instruction's two 64-bit words with the control bits the chain reads."""
    hi = (stall << warp_chain.STALL_SHIFT | write << warp_chain.WRITE_BARRIER_SHIFT
          | read << warp_chain.READ_BARRIER_SHIFT | wait << warp_chain.WAIT_MASK_SHIFT)
    return opcode, hi


def _body(*words):
    return [(16 * i, lo, hi) for i, (lo, hi) in enumerate(words)]


LDS, SHFL, FADD, BAR, STS, MEMBAR, LDG = 0x984, 0xF89, 0x221, 0xB1D, 0x988, 0x992, 0x981


def test_stalls_add_up_where_nothing_waits():
    assert warp_chain.loop_chain_clocks(_body(_word(FADD, 4), _word(FADD, 2), _word(FADD, 0))) == 7


def test_a_wait_on_a_shared_load_takes_the_pipe_s_latency():
    body = _body(_word(LDS, 1, write=2), _word(FADD, 1), _word(FADD, 1, wait=1 << 2))
    # the add issues SHARED_PIPE_CLK after the load; one clock for itself
    assert warp_chain.loop_chain_clocks(body) == warp_chain.SHARED_PIPE_CLK + 1
    # a shuffle tree: five dependent shuffles
    tree = _body(*[w for _ in range(5) for w in (_word(SHFL, 1, write=1), _word(FADD, 4, wait=1 << 1))])
    assert warp_chain.loop_chain_clocks(tree) == 5 * (warp_chain.SHARED_PIPE_CLK + 4)


def test_a_result_waited_for_across_the_back_edge_counts():
    # the load's result is used at the top of the next pass: a pass is its latency and the add's clock
    body = _body(_word(FADD, 1, wait=1 << 3), _word(LDS, 1, write=3))
    assert warp_chain.loop_chain_clocks(body) == warp_chain.SHARED_PIPE_CLK + 1


def test_barriers_and_fences_wait():
    body = _body(_word(STS, 1, read=1), _word(BAR, 6, wait=1 << 1), _word(MEMBAR, 1, read=4),
                 _word(FADD, 1, wait=1 << 4))
    assert warp_chain.loop_chain_clocks(body) == (warp_chain.REGISTERS_READ_CLK + 6 + warp_chain.BAR_SYNC_CLK
                                                  + warp_chain.MEMBAR_CLK + 1)


def test_global_loads_count_as_l1_hits_only():
    body = _body(_word(LDG, 1, write=0), _word(FADD, 1, wait=1))
    assert warp_chain.loop_chain_clocks(body) == warp_chain.L1_HIT_CLK + 1


def _counts(spec=BH_SPEC, cols=432, tc=16):
    return tilescope.cost(SUMS.column_sum, spec, (cols // tc,), "h100", cubin=False).counts


def test_the_few_block_column_sum_takes_its_chain_each_step():
    counts = _counts()
    (loop,) = [r for r in counts.regions if r.op is not None]
    assert warp_chain_us(loop, BH_FACTS, True, H100) == pytest.approx(1210 / 1980)
    chained = model.predict(counts, H100, facts=BH_FACTS)
    unchained = model.predict(counts, H100, facts=dataclasses.replace(BH_FACTS, loop_chain_clocks=None))
    assert chained.predicted_us >= 256 * 1210 / 1980
    assert chained.predicted_us > 2 * unchained.predicted_us
    assert chained.bound == "too few blocks"


def test_not_the_only_loop_not_fed_or_no_chain_adds_nothing():
    (loop,) = [r for r in _counts().regions if r.op is not None]
    assert warp_chain_us(loop, BH_FACTS, False, H100) == 0.0
    # a loop of element loads: tileiras may unroll it into passes of several steps, which the code
    # does not say (the reduce_loop microbenchmarks: two and four)
    assert warp_chain_us(loop, dataclasses.replace(BH_FACTS, tma_loads=0), True, H100) == 0.0
    assert warp_chain_us(loop, dataclasses.replace(BH_FACTS, loop_chain_clocks=None), True, H100) == 0.0
    assert warp_chain_us(loop, None, True, H100) == 0.0


def test_many_blocks_an_sm_stay_bound_by_memory():
    # 528 blocks, four an SM, 16 steps each: the chain is far below the bytes' time
    counts = _counts("bf16[8192, 8448], f32[8448], 512, 16, 16", cols=8448)
    facts = dataclasses.replace(BH_FACTS, registers=128, shared_bytes=34440)
    assert model.predict(counts, H100, facts=facts).bound == "memory"


@pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
def test_the_cubin_s_consumer_loop_is_the_chain_read():
    cubin = tilescope.compile(SUMS.column_sum, parse_args(BH_SPEC)).cubin("sm_90")
    facts = read_cubin_facts(cubin)
    assert facts.loop_chain_clocks is not None
    # the stalls alone are a floor; the waits on shared loads, shuffles and barriers add to them
    assert facts.loop_chain_clocks > facts.loop_instructions


def test_advice_names_the_chained_loop_on_few_blocks():
    counts = _counts()
    chained = [a for a in advise(counts, model.predict(counts, H100, facts=BH_FACTS)) if a.code == "chained-steps"]
    assert len(chained) == 1 and "27 blocks" in chained[0].message and "1210 clocks" in chained[0].message
    (loop,) = [r for r in counts.regions if r.op is not None]
    assert chained[0].line == loop.op.loc.line
    # a short chain, or none, is not worth saying
    for clocks in (40, None):
        facts = dataclasses.replace(BH_FACTS, loop_chain_clocks=clocks)
        assert not [a for a in advise(counts, model.predict(counts, H100, facts=facts)) if a.code == "chained-steps"]
