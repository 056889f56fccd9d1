"""The block schedule: threads, registers and spills, from the cubin when there is one (model
version 6), else estimated from the IR (versions 1–5).

What the cubin changes (cubin_facts.py reads it):
- occupancy: blocks per SM from the block size, registers (allocated per warp in 256-register
  units) and shared memory tileiras chose, instead of a guess from the tile sizes;
- issue: the instructions the grid executes, from the kernel's code — each warp runs the code
  once per block, more often where the accesses the IR counts outnumber the code's memory
  instructions (loops) — instead of per-element constants;
- spills: code that reloads spilled values from local memory (LDL) runs its loads one after
  another: each global load waits for its reloads, each a memory round trip.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ..ir.types import TileType
from .counts import Counts, Region
from .cubin_facts import CubinFacts
from .gpus import GPU
from .instructions import PER_ELEMENT

THREADS = 128                        # cuTile blocks on sm_80+ are usually one warpgroup (REQNTID 128)
REGISTER_UNIT = 256                  # registers are allocated per warp in units of 256
SHARED_RESERVED = 1024               # shared memory the driver reserves per block (sm_80+)


def threads(facts: Optional[CubinFacts]) -> int:
    return facts.threads if facts else THREADS


def blocks_per_sm(counts: Counts, gpu: GPU, facts: Optional[CubinFacts] = None) -> int:
    """Blocks resident per SM: from the cubin's threads, registers and shared memory, or, without
    it, estimated: kernels with mma hold ~255 registers per thread (every sm_90 cubin seen:
    206–255), so two 128-thread blocks; others are limited by registers estimated from their
    largest tiles, and by the warps an SM holds."""
    if facts is not None:
        warps = -(-facts.threads // 32)
        per_warp = math.ceil(facts.registers * 32 / REGISTER_UNIT) * REGISTER_UNIT
        by_regs = gpu.regs_per_sm // (warps * per_warp)
        shared = facts.shared_bytes + SHARED_RESERVED
        by_shared = gpu.smem_per_sm_kb * 1024 // shared
        return max(1, min(gpu.max_warps_per_sm // warps, gpu.max_blocks_per_sm, by_regs, by_shared))
    fn = counts.fn
    if any(op.name == "mma" for op in fn.walk()):
        return max(1, gpu.regs_per_sm // (THREADS * 256))
    sizes = sorted((_tile_bytes(r.type) for op in fn.walk() for r in op.results), reverse=True)
    live = sum(sizes[:2])
    regs = 32 + 1.5 * live / THREADS / 4
    regs = int(math.ceil(regs / 8) * 8)
    by_regs = gpu.regs_per_sm // (THREADS * min(regs, 255))
    return max(1, min(gpu.max_warps_per_sm // (THREADS // 32), gpu.max_blocks_per_sm, by_regs))


def _tile_bytes(t) -> int:
    if isinstance(t, TileType) and t.shape:
        return int(np.prod(t.shape)) * max(1, t.dtype.bitwidth // 8)
    return 0


def _accesses_per_thread(counts: Counts, facts: CubinFacts) -> float:
    """Element accesses (loads and stores) one thread makes over the whole grid's blocks."""
    total = sum(a.elements * a.executions for a in counts.accesses if a.kind != "atomic")
    return total / facts.threads


def code_instructions(counts: Counts, facts: CubinFacts) -> Optional[float]:
    """Warp instructions the grid executes, from the code: every warp of every block runs it once;
    element accesses beyond the code's memory instructions (loop iterations after the first) add
    the per-element instructions of instructions.py. None without the memory-instruction counts."""
    if not facts.global_accesses:
        return None
    warps = -(-facts.threads // 32)
    repeated = max(0.0, _accesses_per_thread(counts, facts) - counts.blocks * facts.global_accesses)
    return warps * (counts.blocks * facts.instructions + repeated * PER_ELEMENT)


def spill_chain_us(r: Region, facts: Optional[CubinFacts], load_latency_us: float) -> float:
    """Extra time of one run of a region by a block whose code reloads spills: a thread's element
    loads bring their share of local reloads, each a memory round trip the code waits for."""
    if not facts or not facts.local_loads or not facts.global_loads:
        return 0.0
    loads = sum(a.elements * a.weight for a in r.accesses
                if a.kind in ("load", "gather") and not a.feeds_mma) / facts.threads
    return loads * facts.local_loads / facts.global_loads * load_latency_us


def access_chain_us(counts: Counts, facts: Optional[CubinFacts], gpu: GPU, per_sm: int, issue_us: float,
                    wait_us: float) -> float:
    """Time of the element accesses on one SM: each resident warp waits `wait_us` per access it
    makes (the copy_loop microbenchmarks' latency per access), and the SM issues the grid's
    instructions (`issue_us`, from the code); fewer resident warps hide less of the wait."""
    if not facts:
        return 0.0
    warps = -(-facts.threads // 32) * min(per_sm, max(1, -(-counts.blocks // gpu.sms)))
    accesses = sum(a.elements * a.executions for a in counts.accesses
                   if a.kind != "atomic" and not a.feeds_mma) / 32 / gpu.sms
    return accesses * wait_us / warps + issue_us
