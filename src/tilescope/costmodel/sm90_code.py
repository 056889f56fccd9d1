"""What the cost model reads of sm_90 instructions: each is 16 bytes, its opcode the low 12 bits of
the first word (checked against `cuobjdump -sass` on every opcode of ~200 tileiras cubins), its
scheduling control in bits 105-125 of the 128."""
from __future__ import annotations

from typing import List, Tuple

Words = List[Tuple[int, int, int]]       # (byte offset, first 64-bit word, second) of each instruction

# the scheduling control: the clocks the warp stalls before its next instruction (4 bits), the
# scoreboard a variable-latency instruction such as LDG releases when its result arrives and the one
# it releases once its source registers are read (3 bits each, NO_BARRIER = none), and the
# scoreboards the instruction waits on before it issues (a 6-bit mask)
STALL_SHIFT, WRITE_BARRIER_SHIFT, READ_BARRIER_SHIFT, WAIT_MASK_SHIFT = 41, 46, 49, 52
NO_BARRIER = 7

LDG_OPCODE, LDL_OPCODE = 0x981, 0x983    # global and local (spill) loads
FCHK_OPCODE = 0x302              # FCHK: an IEEE float32 division's check for its slow path
SHFL_OPCODE, LDS_OPCODE = 0xF89, 0x984   # SHFL.BFLY and shared loads as tileiras spells them
# The shared-memory barriers an accelerator copy completes on: the arrive that sets the bytes to
# expect (SYNCS.ARRIVE.TRANS64) and the wait (SYNCS.PHASECHK.TRANS64)
BARRIER_ARRIVE_OPCODE, BARRIER_WAIT_OPCODE = 0x9A7, 0x5A7
