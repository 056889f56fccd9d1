"""What lanes a constant stride apart cost through DRAM (version 77; docs/cost-model.md histories
119 and 120, the strided microbenchmarks): DRAM reads them in 64-byte pairs of sectors, and a write
that leaves gaps in its array has the span between its lanes, up to a line, read in before the
sectors it writes go back."""
from __future__ import annotations

from typing import Dict

from .counts import Access, Counts
from .lane_offsets import DRAM_READ_BYTES, LINE_BYTES, SECTOR_BYTES


def strided_dram_per_lane(a: Access, gapped: bool) -> float:
    """DRAM bytes a lane of a gather or scatter whose lanes lie `lane_stride` elements apart moves
    (or an element of a tile load or store of an array strided so: version 103);
    `gapped`: whether the kernel writes less of the scatter's array than it holds (`gapped_arrays`)."""
    span = a.lane_stride * a.itemsize
    if a.kind in ("gather", "load"):
        return min(DRAM_READ_BYTES, span)
    return min(SECTOR_BYTES, span) + (min(LINE_BYTES, span) if gapped else 0)


def priced_as_strided(a: Access) -> bool:
    """Whether model._dram prices the access by `strided_dram_per_lane` (lanes a stride apart)."""
    return bool(a.lane_stride) and (a.kind in ("load", "store") or (a.kind in ("gather", "scatter")
                                                                   and not a.contiguous))


def strided_lanes(a: Access) -> float:
    """The lanes such an access moves per execution: a gather's or scatter's, or the elements of
    a tile load or store its padding leaves."""
    return a.elements if a.kind in ("gather", "scatter") else a.bytes * (1 - a.pad_fraction) / a.itemsize


def l2_held_bytes(a: Access) -> float:
    """What such an access moves where its launch's data stay in L2 from one launch to the next
    (version 104): each lane its 32-byte sector (the span between lanes where that is less: lanes
    sharing one), not DRAM's pair, no line read in past a write's gaps; at most its DRAM bytes (a
    window read whole once stays so)."""
    return min(a.dram_bytes, strided_lanes(a) * a.executions * scattered_sector_bytes(a))


def gapped_arrays(counts: Counts) -> set:
    """Arrays the kernel writes less of than they hold (its stores' and scatters' bytes over the
    grid), so that lines it writes in part stay part-written: no other write fills their gaps."""
    written: Dict[str, float] = {}
    size: Dict[str, float] = {}
    for a in counts.accesses:
        if a.kind in ("store", "scatter") and a.array_bytes is not None:
            written[a.array] = written.get(a.array, 0.0) + a.bytes * (1 - a.pad_fraction) * a.executions
            size[a.array] = a.array_bytes
    return {name for name, n in written.items() if n < size[name]}


def scattered_sector_bytes(a: Access) -> float:
    """DRAM bytes a gathered or scattered element brings: its own 32-byte sector, or, for lanes
    `lane_stride` elements apart along a row, the span between them where that is less, or, for
    lanes the metadata places (version 43), the sectors a block's lanes touch, per lane."""
    if a.lane_stride:
        return min(SECTOR_BYTES, a.lane_stride * a.itemsize)
    return min(SECTOR_BYTES, a.sector_share) if a.sector_share else SECTOR_BYTES
