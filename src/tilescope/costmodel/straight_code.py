"""Code without a loop waits as many round trips as its LDGs say (`global_loads / loads_in_flight`).

A lone wave's straight code (version 78): in a grid of no more blocks than the GPU holds at once,
nothing hides a block's waits behind another's. A block whose cubin has no loop waits its loads'
round trips one after another, and issues its code between them at one warp's rate. (Set AH's
one-block `any` over a mask: 64 LDGs in 32 waits and 1,712 instructions, 7.1 µs; sets AG's and AI's
row norms of 128 blocks, 48 and 94 waits: 0.20-0.22 µs a wait, L2's round trip and the code's
issue; history 125.)

Every wave's (version 88): Little's law for the loads in flight infers the waits from the bytes
read, each LDG bringing 32 lanes of the code's width. Straight code may issue more LDGs than that
(lanes past the ends of rows, elements loaded twice) and waits for them all the same: set AT's
launched batch-norm reduction issues 1,537 two-byte LDGs a thread where its tiles hold 768, and took
3x the law's time (history 149)."""
from __future__ import annotations

from typing import Callable, Optional

from .counts import Access, Counts
from .cubin_facts import CubinFacts
from .gpus import GPU
from .l2_kept import left_in_l2
from .schedule import (DRAM_HIT_US, L2_HIT_US, LOADED_LATENCY_US, WARP_ISSUE_CLK, element_accesses,
                       occupied_sms)


def straight_code_us(counts: Counts, facts: Optional[CubinFacts], gpu: GPU, slow: float) -> float:
    """Least time of a block running its cubin's straight code alone (µs): its load waits, each a
    round trip from where the data are (L2 where the launch's data stay there, else DRAM's unloaded
    chase), and its code at one warp's issue rate. 0 for code with a loop or unknown loads in flight.
    `slow`: the reference clock over the GPU's (the round trips were measured on the H200)."""
    if not facts or facts.loop_instructions != 0 or not facts.global_loads or not facts.loads_in_flight:
        return 0.0
    round_trip = (L2_HIT_US if left_in_l2(counts.accesses) else DRAM_HIT_US) * slow
    code = facts.instructions - (facts.called_instructions or 0)     # called slow paths: not run
    return facts.global_loads / facts.loads_in_flight * round_trip + code * WARP_ISSUE_CLK / (gpu.clock_ghz * 1e3)


def straight_code_waits_us(counts: Counts, facts: Optional[CubinFacts], gpu: GPU, per_sm: int,
                           past_l1: Callable[[Access], float] = lambda a: 1.0) -> float:
    """The grid's time waiting its straight code's loads (µs): each block waits its LDGs' round trips
    in series, loaded DRAM's (L2's where the launch before left the data there), in the share of
    its element reads' bytes that DRAM serves (re-read data come from the caches sooner) and of
    their LDGs that miss L1 (`past_l1`: a lane walking a row finds the rest of its line there), and
    `per_sm` blocks on each occupied SM wait side by side. 0 for code with a loop or unknown loads
    in flight."""
    if not facts or facts.loop_instructions != 0 or not facts.global_loads or not facts.loads_in_flight:
        return 0.0
    held = [(a.bytes * a.executions, a.dram_bytes / (a.bytes * a.executions * (1 - a.pad_fraction)) * past_l1(a))
            for a in element_accesses(counts, facts, operands=False)
            if a.kind in ("load", "gather") and a.executions and a.pad_fraction < 1]
    if not held:
        return 0.0
    fresh = sum(n * min(1.0, share) for n, share in held) / sum(n for n, _ in held)
    round_trip = L2_HIT_US if left_in_l2(counts.accesses) else LOADED_LATENCY_US
    waves = counts.blocks / (occupied_sms(counts, gpu) * per_sm)
    return waves * facts.global_loads / facts.loads_in_flight * fresh * round_trip
