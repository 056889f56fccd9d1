"""Loop bodies past the instruction cache (version 62): a block whose loop body is longer than its
share of the SM's instruction cache fetches the rest of it from L2 each pass."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from .counts import Counts, Region
from .cubin_facts import CubinFacts
from .gpus import GPU
from .schedule import UNROLLED_LOADS_SLACK, element_ldgs, tma_copied

INSTRUCTION_BYTES = 16
# The instruction cache the blocks on an SM share: k blocks at different places in a body of S bytes
# each keep their own lines and miss 1 - ICACHE / (k S) of it. Each instruction a block misses costs
# it MISS_CLK clocks, and each shared-memory or shuffle operation of the body (a reduction's steps and
# barriers) SHARED_OP_MISS_CLK more over the missed share: about one and a half of L2's round trips
# exposed where the block's warps meet. Fitted together (least squared log error) on history 95's
# bodies past the cache: the multiply-add bodies of 525-575 KB alone, synced, loaded, and loaded
# and synced, on one and four blocks an SM (bench/results/cost_run_m95_h200.json,
# cost_run_m95b_h200.json), and the unrolled cross entropies of 248 KB and 1 MB on one to three
# blocks an SM (cost_run_m91_h200.json): 10 of 13 within 30%, all within 0.69-1.40x (four blocks of
# a multiply-add body share more than this counts); a cache of 96 or 160 KB fits the cross
# entropies worse.
ICACHE_BYTES = 128 * 1024
MISS_CLK = 7.5
SHARED_OP_MISS_CLK = 500.0


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
        per = _ldgs_an_iteration(counts, i, facts)
        if per and 1 / UNROLLED_LOADS_SLACK <= facts.loop_loads / per <= UNROLLED_LOADS_SLACK:
            return counts.regions[i]
    return None


def miss_clk(facts: CubinFacts) -> float:
    """Clocks a block takes for each instruction of its loop body it fetches from beyond the cache."""
    return MISS_CLK + SHARED_OP_MISS_CLK * (facts.loop_shared_ops or 0) / facts.loop_instructions


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
    clocks = miss_clk(facts) * (1 - ICACHE_BYTES / code)
    return loop.trips * facts.loop_instructions * clocks / (gpu.clock_ghz * 1e3)
