"""Whether a loop's steps wait for their loads (version 15); waits of a loop whose IR carries nothing
its loads bring to the next step but whose cubin loop stops for them all the same (version 61), each
from where the loads' data most likely are; and the least a step takes, one warp's pass through the
cubin's loop (version 99)."""
from __future__ import annotations

from typing import List, Optional

from .counts import Access, Region, indexed_by_loads
from .cubin_facts import CubinFacts
from .gpus import GPU
from .lane_offsets import LINE_BYTES
from .loop_bounds import LOAD_OPS
from .schedule import (L1_HIT_US, element_ldgs, fed_loop, l1_resident, load_round_trip_us, tma_copied,
                       unrolled_by_loads)


def waits_on_loads(r: Region) -> bool:
    """Whether each iteration of loop region `r` waits for its loads: a loaded value reaches a
    value the loop carries and the next iteration reads (an accumulator), as in the load_chain
    microbenchmark. A loop whose loads only feed stores or values nobody reads again (a copy
    loop; a count stored back in place) lets the code issue the next iteration's loads before
    the last ones arrive: the element-access laws charge them (version 15). The kernel body,
    `while` loops and loops that end otherwise than by `continue` are taken to wait."""
    op = r.op
    if op is None or op.name != "for" or not op.blocks:
        return True
    body = op.blocks[0]
    end = body.ops[-1] if body.ops else None
    if end is None or end.name != "continue":
        return True
    read, loaded = set(), set()

    def scan(block) -> bool:                 # True where something in `block` depends on a load
        any_loaded = False
        for o in block.ops:
            if o is not end:
                read.update(v.id for v in o.operands)
            nested = any([scan(b) for b in o.blocks])
            if o.name in LOAD_OPS or nested or any(v.id in loaded for v in o.operands):
                loaded.update(v.id for v in o.results)
                any_loaded = True
        return any_loaded

    scan(body)
    carried = body.args[len(body.args) - len(end.operands):]
    return any(v.id in loaded and a.id in read for v, a in zip(end.operands, carried))


def carried_nothing_wait_us(r: Region, facts: Optional[CubinFacts], loads: List[Access], only_loop: bool,
                            per_sm: int, gpu: GPU, estimated: bool = False) -> float:
    """What a step of loop `r` waits for its element loads where the IR carries nothing they bring
    to the next step (version 15 let such loads overlap) but the cubin's loop stops for them all
    the same: `r` is the IR's only loop, without mma, and a pass of the cubin's longest loop waits
    `loop_load_waits` round trips in series, over the steps a pass holds (version 61). An estimate
    (`estimated`: no scoreboards) takes one wait a step, the fewest any such cubin loop of the
    validation set waits (one a pass). Each wait is the loads' round trip from where their data
    most likely are (`source_round_trip_us`)."""
    if not only_loop or r.mmas or not facts or facts.local_loads:
        return 0.0           # (code that reloads spills: the spill chain charges its round trips, v13)
    waits = 1.0 if estimated else (facts.loop_load_waits or 0.0) / unrolled_by_loads(r, facts)
    element = [a for a in loads if not tma_copied(a, facts)]
    if not waits or not element:
        return 0.0
    return waits * source_round_trip_us(element, facts, per_sm, gpu)


def source_round_trip_us(loads: List[Access], facts: CubinFacts, per_sm: int, gpu: GPU) -> float:
    """A wait on these loads, their LDGs' mean round trip: L1's for an array that stays there
    (`l1_resident`); for a tile smaller than a line at an index the loop computes (not the data),
    the loaded round trip for the share of steps that read past the line the last step brought
    (its bytes over a line: a step reads the next elements) and L1's for the rest; the loaded
    round trip of `load_round_trip_us` otherwise."""
    total = weighted = 0.0
    for a in loads:
        ldgs = element_ldgs([a], facts)
        if l1_resident(a, facts, per_sm, gpu):
            trip = L1_HIT_US
        else:
            miss = 1.0 if indexed_by_loads(a.op) else min(1.0, a.bytes / LINE_BYTES)
            trip = miss * load_round_trip_us([a]) + (1 - miss) * L1_HIT_US
        total, weighted = total + ldgs, weighted + ldgs * trip
    return weighted / total if total else 0.0


def warp_chain_us(r: Region, facts: Optional[CubinFacts], only_loop: bool, gpu: GPU) -> float:
    """The least a step of loop `r` takes (version 99): where `r` is the IR's only loop, fed by the
    accelerator and without mma, one warp's pass through the cubin's longest loop
    (`loop_chain_clocks`: its stalls and on-chip waits, in order). A block whose warps wait on one
    another each step (a column sum's block-wide reduction behind accelerator copies) runs no
    faster than that chain, however few blocks share its SM. A fed loop's pass is one step: it
    waits for its stage of the copies' ring. Other loops are left to the other laws: tileiras
    unrolls a loop of constant trips into passes of several steps (the reduce_loop and mma
    microbenchmarks: two to four), which the code does not say."""
    if not only_loop or r.mmas or not fed_loop(r, facts) or not facts.loop_chain_clocks:
        return 0.0
    return facts.loop_chain_clocks / (gpu.clock_ghz * 1e3)
