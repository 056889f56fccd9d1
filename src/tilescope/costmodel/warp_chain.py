"""One warp's clocks through a loop body of sm_90 code, read from the instructions' control bits.

Each instruction carries the clocks its warp stalls before the next may issue (bits 105-108: the
compiler's cover for fixed-latency results) and, for variable-latency ones, the scoreboard its
result or its read of the source registers releases; a later instruction names the scoreboards it
waits on. Walking the body with those stalls, and each scoreboard released an on-chip latency
after its instruction issues, gives the least time a warp takes for one pass: the loop's critical
path where nothing else holds the warp back. Global loads count as L1 hits here (their round trips
are the memory laws'), so the figure is a floor, not an estimate of the loads.

The latencies are the shared-memory pipe's (shared loads, shuffles, barrier-object operations)
and the other variable-latency units', set so that the three launches whose time is their
consumer loop's chain (history 172: a column sum of 27 blocks, a finalisation of one block, one of
64 blocks, each behind accelerator copies) come to 0.93-0.95 of their measured times."""
from __future__ import annotations

from typing import Dict

from .sm90_code import (BARRIER_ARRIVE_OPCODE, BARRIER_WAIT_OPCODE, FCHK_OPCODE, LDG_OPCODE, LDL_OPCODE,
                        LDS_OPCODE, NO_BARRIER, READ_BARRIER_SHIFT, SHFL_OPCODE, STALL_SHIFT, WAIT_MASK_SHIFT,
                        WRITE_BARRIER_SHIFT, Words)

SHARED_PIPE_CLK = 28     # LDS, LDSM, SHFL, REDUX, ATOMS, the barrier objects' SYNCS, LDC
L1_HIT_CLK = 35          # LDG, LDL, ATOMG at their least
CONVERT_CLK = 12         # F2I, I2F, F2F, FCHK
SPECIAL_CLK = 18         # MUFU
SYSTEM_REGISTER_CLK = 25     # S2R, S2UR
OTHER_CLK = 20           # any other variable-latency result (FENCE, USETMAXREG)
REGISTERS_READ_CLK = 6   # a store's or barrier arrival's read of its source registers
MEMBAR_CLK = 30          # a CTA memory barrier's completion (its read scoreboard)
BAR_SYNC_CLK = 10        # BAR.SYNC beyond its stall: the block's warps meeting

LATENCY_CLK: Dict[int, int] = {
    **dict.fromkeys((LDS_OPCODE, 0x83B, SHFL_OPCODE, 0x3C4, 0x38C, 0x98C, BARRIER_WAIT_OPCODE, BARRIER_ARRIVE_OPCODE,
                     0x5B2, 0xB82), SHARED_PIPE_CLK),
    **dict.fromkeys((LDG_OPCODE, LDL_OPCODE, 0x9A3), L1_HIT_CLK),
    **dict.fromkeys((0x305, 0x311, 0x312, 0x310, FCHK_OPCODE, 0x902), CONVERT_CLK),
    **dict.fromkeys((0x308, 0x908, 0xD08), SPECIAL_CLK),
    **dict.fromkeys((0x919, 0x9C3), SYSTEM_REGISTER_CLK),
}
MEMBAR_OPCODE, BAR_OPCODE = 0x992, 0xB1D
PASSES = 3               # the last of a few passes: scoreboards left pending across the back edge count


def loop_chain_clocks(body: Words) -> int:
    """Clocks one warp takes for a pass of `body` in steady state (the last of PASSES walks); every
    instruction is walked, so a guarded branch's code counts as taken (the slowest warp's path)."""
    ready: Dict[int, float] = {}
    now, start = 0.0, 0.0
    for _ in range(PASSES):
        start = now
        for _, lo, hi in body:
            opcode = lo & 0xFFF
            mask = (hi >> WAIT_MASK_SHIFT) & 0x3F
            for b in [b for b in ready if mask >> b & 1]:
                now = max(now, ready.pop(b))
            if opcode == BAR_OPCODE:
                now += BAR_SYNC_CLK
            write, read = (hi >> WRITE_BARRIER_SHIFT) & 7, (hi >> READ_BARRIER_SHIFT) & 7
            if write != NO_BARRIER:
                ready[write] = max(ready.get(write, 0.0), now + LATENCY_CLK.get(opcode, OTHER_CLK))
            if read != NO_BARRIER:
                done = MEMBAR_CLK if opcode == MEMBAR_OPCODE else REGISTERS_READ_CLK
                ready[read] = max(ready.get(read, 0.0), now + done)
            now += max(1, (hi >> STALL_SHIFT) & 0xF)
    return round(now - start)
