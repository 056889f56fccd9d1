"""A lone wave's straight code (version 78): in a grid of no more blocks than the GPU holds at once,
nothing hides a block's waits behind another's. A block whose cubin has no loop waits its loads'
round trips one after another, as many as its code says (`global_loads / loads_in_flight`), and
issues its code between them at one warp's rate. (Set AH's one-block `any` over a mask: 64 LDGs in
32 waits and 1,712 instructions, 7.1 µs; sets AG's and AI's row norms of 128 blocks, 48 and 94
waits: 0.20-0.22 µs a wait, L2's round trip and the code's issue; history 125.)"""
from __future__ import annotations

from typing import Optional

from .counts import Counts
from .cubin_facts import CubinFacts
from .gpus import GPU
from .schedule import DRAM_HIT_US, L2_HIT_US, WARP_ISSUE_CLK, left_in_l2


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
