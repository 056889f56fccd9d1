"""Accelerator copies of tiles larger than the block's shared memory (version 91).

The accelerator copies a tile in boxes of at most BOX_EDGE elements along each axis. Where the
tile is larger than all the shared memory the cubin gives its block, and either no producer warps
run ahead (the code is not warp-specialised: one warpgroup) or that memory does not hold one whole
box, tileiras stages the boxes through it one after another, and the block waits a copy's round trip
for each. (Set AV's launched online softmax reads 64 (1, 8192) bfloat16 tiles a row
through 9 KiB of shared memory, 32 boxes a tile, 2,048 UTMALDGs a block: 17.8 ms where 4.4 were
predicted; set AM's cross entropy, 64 (1, 4096) tiles through 6 KiB, 4.1 ms for 1.8 predicted; set
AO's (32768, 4) float32 sum, 256 threads, through 3 KiB, less than its 4 KiB boxes: 128 boxes, 77 µs
for 19 predicted. Warp-specialised blocks of 256 and 384 threads that hold a box stream tiles past their 34-231 KiB
of shared memory at the rates the model gave before, within 0.8-1.7x: sets AG, AI, AJ, AP, AT, AW
and AZ's finalisations and column sums. History 155.)"""
from __future__ import annotations

import math
from typing import Optional, Tuple

from .counts import Access, Counts
from .cubin_facts import CubinFacts
from .schedule import running_warps, tma_copied

BOX_EDGE = 256          # the most elements an accelerator copy's box spans along an axis


def boxes(shape: Tuple[int, ...]) -> int:
    """The boxes the accelerator copies a tile of this shape in."""
    return math.prod(-(-int(n) // BOX_EDGE) for n in shape) if shape else 1


def box_bytes(a: Access) -> int:
    """Bytes of the largest box of a tile."""
    return math.prod(min(int(n), BOX_EDGE) for n in a.shape) * a.itemsize


def staged_copy_us(counts: Counts, facts: Optional[CubinFacts], load_us_tma: Tuple[float, float]) -> float:
    """A block's waits on the boxes of its copied loads whose tiles outgrow its shared memory (µs):
    each box one copy's latency and its bytes at one block's copy rate (`load_us_tma`: µs, µs a KiB)."""
    if not facts or not facts.tma_loads or not facts.shared_bytes or not counts.blocks:
        return 0.0              # (accelerator copies land in shared memory: none said is none known)
    producers = running_warps(facts) < -(-facts.threads // 32)
    latency, per_kib = load_us_tma
    t = 0.0
    for a in counts.accesses:
        if a.kind == "load" and tma_copied(a, facts) and a.bytes > facts.shared_bytes \
                and (not producers or box_bytes(a) > facts.shared_bytes):
            n = boxes(a.shape)
            t += a.executions * a.weight / counts.blocks * n * (latency + per_kib * a.bytes / n / 1024)
    return t
