"""The grid a kernel's tiling implies, when a launch does not say it: a load or store whose
tile index along some axis is `ct.bid(k)` covers the array with one block per tile there.
Every `bid` axis the kernel reads must be sized so, else the grid is not inferred."""
from __future__ import annotations

from typing import Optional, Tuple

from ..ir.core import Function
from ..ir.types import ArrayType


def infer_grid(fn: Function) -> Optional[Tuple[int, int, int]]:
    """(gx, gy, gz) from the tile accesses indexed by `bid`, or None when none is or when some
    axis's `bid` indexes no tile directly."""
    sizes = {}
    for op in fn.walk():
        if op.name not in ("load_tile", "store_tile"):
            continue
        t = op.operands[0].type
        if not isinstance(t, ArrayType):
            continue
        shape = op.results[0].type.shape if op.name == "load_tile" else op.operands[-1].type.shape
        index = op.operands[1:] if op.name == "load_tile" else op.operands[1:-1]
        order = op.attrs.get("order", tuple(range(len(shape))))
        for k, v in enumerate(index):
            owner = v.owner
            if owner is None or owner.name != "bid" or k >= len(shape):
                continue
            n = t.shape[order[k]]
            if isinstance(n, int):
                axis = owner.attrs["axis"]
                sizes[axis] = max(sizes.get(axis, 0), -(-n // shape[k]))
    # an axis whose bid only reaches tiles through arithmetic (`bid(1) // H`) has no size here:
    # taking 1 for it would predict a launch of a fraction of the blocks
    used = {op.attrs["axis"] for op in fn.walk() if op.name == "bid"}
    if not sizes or used - set(sizes):
        return None
    return tuple(sizes.get(a, 1) for a in range(3))
