"""Gathers of single elements at positions loaded data picks (model version 94; docs/cost-model.md
history 160). Each lane's element lies in a sector of its own, so every pick is one L2 lookup, and
where the picked arrays together outgrow what L2 keeps of them, a DRAM fetch too. Measured by the
picked-gather microbenchmarks on an H100 (`bench/cost_kernels_picked.py`, 2^24 lanes, footprints of
2 MB to 512 MB): 8.0 ps a pick while L2 keeps the arrays, 25.1 ps more for each pick it misses, and
L2 keeping 0.58 of its size of them (a footprint of 32 MB already misses 14%)."""
from __future__ import annotations

from .counts import Access, Counts
from .gpus import GPU
from .lane_offsets import SECTOR_BYTES

PICKS_PER_SM_CLK = 0.478         # picks L2 serves each SM a clock (8.0 ps a pick on 132 SMs at 1.98 GHz)
MISS_NS = 0.0251                 # the DRAM fetch of a pick L2 misses (H100; other GPUs: by DRAM rate)
MEASURED_DRAM_TBS = 3.35
L2_KEPT_SHARE = 0.58             # share of L2 that keeps arrays picked at random
L1_KEPT_BYTES = 64 * 1024        # arrays this small stay in L1 (a batch norm's per-channel statistics)


def is_pick(a: Access) -> bool:
    """A one-axis gather whose index is a loaded tile as loaded (cast or reshaped at most:
    `Access.picked_index`), from an array larger than L1 keeps: its lanes may land anywhere in the
    array. (A loaded index offset by the block's position, a relative-position table's, picks within
    the block's own window.)"""
    return a.picked_index and a.array_bytes is not None and a.array_bytes > L1_KEPT_BYTES


def missed_share(counts: Counts, gpu: GPU) -> float:
    """Share of the launch's picks L2 misses: beyond the share of L2 that keeps the picked arrays, all
    of them together (they compete for it)."""
    footprint = sum({a.array: a.array_bytes for a in counts.accesses if is_pick(a)}.values())
    return max(0.0, 1.0 - L2_KEPT_SHARE * gpu.l2_mb * 1e6 / footprint) if footprint else 0.0


def charge_picks(counts: Counts, gpu: GPU) -> None:
    """Each pick's DRAM bytes: its array once where L2 keeps it, the DRAM fetch of each missed pick
    (`MISS_NS` at the measured rate: 84 bytes) where more."""
    missed = missed_share(counts, gpu)
    for a in counts.accesses:
        if is_pick(a):
            n = a.elements * a.executions
            a.dram_bytes = max(min(a.array_bytes, n * SECTOR_BYTES), n * missed * MISS_NS * MEASURED_DRAM_TBS * 1e3)


def picks_us(counts: Counts, gpu: GPU) -> float:
    """Time of the launch's picks: each an L2 lookup at L2's rate, each pick L2 misses
    (`missed_share`) a DRAM fetch besides."""
    n = sum(a.elements * a.executions for a in counts.accesses if is_pick(a))
    lookup_s = n / (PICKS_PER_SM_CLK * gpu.sms * gpu.clock_ghz * 1e9)
    fetch_s = n * missed_share(counts, gpu) * MISS_NS * 1e-9 * MEASURED_DRAM_TBS / gpu.dram_tbs
    return (lookup_s + fetch_s) * 1e6
