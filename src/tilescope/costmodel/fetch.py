"""Loop bodies past the instruction cache (version 62): a block whose loop body is longer than its
share of the SM's instruction cache fetches the rest of it each pass, from L2 or, where the launch
streams enough data to push the code out of L2, from DRAM."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from .counts import Counts, Region
from .cubin_facts import CubinFacts
from .gpus import GPU
from .schedule import DRAM_HIT_US, L2_HIT_US, element_ldgs, holds_loads, tma_copied

INSTRUCTION_BYTES = 16
# The instruction cache the blocks on an SM share: k blocks at different places in a body of S bytes
# each keep their own lines and miss 1 - ICACHE / (k S) of it. Each instruction a block misses costs
# it MISS_CLK clocks from L2: the value that fits history 95's multiply-add bodies of 525-575 KB
# (alone, with a block-wide max, with loads, with both, with dense maxima; one and four blocks an SM;
# bench/results/cost_run_m95_h200.json, cost_run_m95b_h200.json, cost_run_m95c_h200.json), whose
# data stay in L2. A launch that moves more data through L2 than it holds pushes the code out of L2
# too, and a miss then waits DRAM's round trip instead of L2's (DRAM_HIT_US and L2_HIT_US, the chase
# microbenchmark's 0.361 and 0.160 µs): the unrolled cross entropies of history 91
# (cost_run_m91_h200.json), 1 GB of logits, come within 0.87-1.10x that way, the 15 bodies timed
# within 0.73-1.21x. A cache of 96 or 160 KB fits the cross entropies worse.
ICACHE_BYTES = 128 * 1024
MISS_CLK = 7.9


def _nested(counts: Counts, i: int) -> List[Region]:
    """Region i and the regions nested in it (the list is in walk order: a loop's own follow it)."""
    out = [counts.regions[i]]
    for r in counts.regions[i + 1:]:
        if r.depth <= out[0].depth:
            break
        out.append(r)
    return out


def _ldgs_an_iteration(counts: Counts, i: int, facts: CubinFacts) -> float:
    """LDGs a thread makes in one iteration of loop i, its nested loops' included."""
    total = float(counts.regions[i].trips.sum())
    if not total:
        return 0.0
    return sum(element_ldgs([a for a in r.accesses if a.kind in ("load", "gather") and not tma_copied(a, facts)],
                            facts) * float(r.trips.sum()) / total for r in _nested(counts, i))


def cubin_loop(counts: Counts, facts: CubinFacts) -> Optional[Region]:
    """The IR loop one pass of the cubin's longest loop runs: the IR's only loop, or the loop whose
    iteration (its own element loads and those of the loops unrolled into it) makes as many LDGs."""
    loops = [i for i, r in enumerate(counts.regions) if r.op is not None]
    if len(loops) == 1:
        return counts.regions[loops[0]]
    if not facts.loop_loads:
        return None
    for i in loops:
        if holds_loads(facts.loop_loads, _ldgs_an_iteration(counts, i, facts)):
            return counts.regions[i]
    return None


def miss_clk(counts: Counts, gpu: GPU) -> float:
    """Clocks a block takes for each instruction of its loop body it fetches from beyond the cache:
    from L2, or from DRAM where the launch moves more data through L2 than it holds."""
    streamed = sum(a.dram_bytes for a in counts.accesses)
    return MISS_CLK * (DRAM_HIT_US / L2_HIT_US if streamed > gpu.l2_mb * 1e6 else 1.0)


def fetch_floor_us(counts: Counts, facts: Optional[CubinFacts], gpu: GPU, shared: int) -> Optional[np.ndarray]:
    """Least time of each block's passes over its cubin's longest loop (µs) where the `shared`
    blocks on an SM run more of that body than the instruction cache holds; None elsewhere."""
    if not facts or not facts.loop_instructions:
        return None
    code = facts.loop_instructions * INSTRUCTION_BYTES * max(1, shared)
    if code <= ICACHE_BYTES:
        return None
    loop = cubin_loop(counts, facts)
    if loop is None:
        return None
    clocks = miss_clk(counts, gpu) * (1 - ICACHE_BYTES / code)
    return loop.trips * facts.loop_instructions * clocks / (gpu.clock_ghz * 1e3)
