"""Serial load waits per step of IR loops that tileiras unrolled whole (versions 40, 56 and 66): a
step's share of the round trips the cubin's code waits in series for all the steps it holds, in
place of a round trip a step (model.py's `_iteration_us` charges it)."""
from __future__ import annotations

from typing import Dict, List, Optional

from .counts import Counts, Region
from .cubin_facts import CubinFacts
from .schedule import constant_trips, element_ldgs, holds_loads, tma_copied, unrolled_by_loads


def unrolled_load_waits(counts: Counts, facts: Optional[CubinFacts]) -> Dict[int, float]:
    """Serial load waits per step (by `id` of the region) of loops tileiras unrolled whole into
    the cubin's longest loop (version 40): where the IR has one outer loop and, inside it, only
    loops of constant trip counts without `mma`, and the longest loop's LDGs are about those
    loops' steps' element loads together (±25%), that loop is the outer one with the inner
    unrolled, and a pass of it waits `loop_load_waits` round trips in series for all of them
    (its scoreboards say so). Each inner loop's step takes its share, by LDGs. (Set J's launched
    chunked cross entropy: 31 steps of one LDG a row, 34 LDGs in the loop, 12 waits a row; a
    step's own round trip, as the load law charges, gave it 2.05×.) Loops unrolled in place
    (version 56) and where the cubin has no loop at all (version 66): below. Empty otherwise."""
    loops = [r for r in counts.regions if r.op is not None]
    if facts and facts.loop_loads is None and loops:
        return _unrolled_without_loop(loops, facts)
    if not facts or not facts.loop_load_waits or not facts.loop_loads:
        return {}
    inner = [r for r in loops if r.depth == 2]
    if not inner and loops and not any(r.mmas for r in loops):
        return _unrolled_in_place(loops, facts)
    if not inner or len(inner) + 1 != len(loops) or any(r.mmas for r in loops) \
            or any(r.op.name != "for" for r in inner):
        return {}
    per_step, total = {}, 0.0
    for r in inner:
        steps = constant_trips(r)
        if steps is None:
            return {}
        loads = [a for a in r.accesses
                 if a.kind in ("load", "gather") and not a.feeds_mma and not tma_copied(a, facts)]
        per_step[id(r)] = element_ldgs(loads, facts)
        total += max(0, steps) * per_step[id(r)]
    if not holds_loads(facts.loop_loads, total):
        return {}
    return {key: facts.loop_load_waits * n / total for key, n in per_step.items()}


# at most this many of the IR steps' loads to one LDG of a cubin that unrolled them whole
MERGED_STEP_LOADS = 2


def _unrolled_without_loop(loops: List[Region], facts: CubinFacts) -> Dict[int, float]:
    """Serial load waits per step of the IR's loops where the cubin has no loop at all (version 66):
    tileiras unrolled every one whole (constant trip counts, no `mma`), and its straight code waits
    `global_loads / loads_in_flight` round trips in series for all their loads, which the steps
    share by their LDGs. (Set AB's flash-decoding merge in groups of 32: two 32-step passes, 72 LDGs
    in four waits; a round trip a step gave it 3.7x.)"""
    if not facts.global_loads or not facts.loads_in_flight \
            or any(r.mmas or r.op.name != "for" or constant_trips(r) is None for r in loops):
        return {}
    per_step, total = {}, 0.0
    for r in loops:
        loads = [a for a in r.accesses if a.kind in ("load", "gather") and not tma_copied(a, facts)]
        per_step[id(r)] = element_ldgs(loads, facts)
        total += float(r.trips.mean()) * per_step[id(r)]
    # the straight code holds every step's loads, some merged (an element two passes read, read once)
    if total > MERGED_STEP_LOADS * facts.global_loads:
        return {}
    round_trips = facts.global_loads / facts.loads_in_flight
    return {key: round_trips * n / max(total, facts.global_loads) for key, n in per_step.items() if n}


def _unrolled_in_place(loops: List[Region], facts: CubinFacts) -> Dict[int, float]:
    """Serial load waits per step of loops without nesting or `mma` that tileiras unrolled k >= 2
    times in place (version 56): a loop whose step's element LDGs, k times over, are the cubin's
    longest loop's (`unrolled_by_loads`) waits that loop's `loop_load_waits` every k steps,
    the other loops of the kernel alike (tileiras unrolls them by the same rule). (Upstream's
    aligned-array layer norm: three passes of (1, 256) float32 tiles on 256 threads, 8 LDGs and
    one wait a pass of the cubin's loop; a step's own round trip gave it 3.1x.)"""
    steps = {id(r): unrolled_by_loads(r, facts) for r in loops
             if r.op.name == "for" and not any(tma_copied(a, facts) for a in r.accesses)}
    return {key: facts.loop_load_waits / k for key, k in steps.items() if k >= 2}
