"""Tile rows of a sector or less (version 98): DRAM reads a 64-byte pair of sectors for each row a
tile load takes where its rows lie a pair or more apart, and the pair's other half is of use only
if the block reading the neighbouring column tile comes while L2 still holds it. (Set AR's
batch-norm epilogue as launched reads (1024, 16) bfloat16 tiles of 192-byte rows, the six column
tiles of a row 1,568 blocks apart: 988 GB/s, 0.41x at the bytes the tiles hold; column sums whose
neighbouring blocks read neighbouring columns keep DRAM's rate.)"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .counts import Access, Counts
from .l2_kept import IN_L2_SHARE
from .lane_offsets import DRAM_READ_BYTES, SECTOR_BYTES
from .scalars import VARIANT


def sector_rows_factor(counts: Counts, a: Access, l2_bytes: float) -> float:
    """DRAM bytes over the tile's bytes for tile load `a` (1 where its rows' pairs are shared)."""
    if (a.kind != "load" or a.op.name != "load_tile" or len(a.shape) < 2 or a.rows <= 1 or a.spans_rows
            or a.transposed or not a.row_bytes or a.row_bytes > SECTOR_BYTES or a.lane_pitch < DRAM_READ_BYTES
            or a.row_bytes < a.itemsize * 2 or not counts.blocks):
        return 1.0
    gap = neighbour_distance(counts, a)
    if gap is None:
        return 1.0
    per_block = sum(x.bytes * x.executions for x in counts.accesses if x.kind in ("load", "store")) / counts.blocks
    if gap * per_block * DRAM_READ_BYTES / a.row_bytes < IN_L2_SHARE * l2_bytes:     # still in L2
        return 1.0
    return DRAM_READ_BYTES / a.row_bytes


def neighbour_distance(counts: Counts, a: Access) -> Optional[float]:
    """Median block-id distance between the blocks that load neighbouring column tiles of the same
    rows (inf where no block loads a neighbour), or None where the indices are not known."""
    sc = counts.scalars
    axes = []
    for v in a.op.operands[1:]:
        x = sc.value(v)
        if x is VARIANT or x is None:
            return None
        axes.append(np.broadcast_to(np.asarray(x, dtype=np.int64), (counts.blocks,)))
    last, others = axes[-1], axes[:-1]
    order = np.lexsort((last,) + tuple(reversed(others)))
    same = np.ones(len(order) - 1, bool)
    for o in others:
        same &= o[order][1:] == o[order][:-1]
    step = same & (last[order][1:] == last[order][:-1] + 1)
    if not step.any():
        return float("inf")
    return float(np.median(np.abs(order[1:][step] - order[:-1][step])))
