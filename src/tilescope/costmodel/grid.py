"""The grid a kernel's tiling implies, when a launch does not say it: a load or store whose
tile index along some axis is `ct.bid(k)` covers the array with one block per tile there."""
from __future__ import annotations

from typing import Optional, Tuple

from ..ir.core import Function
from ..ir.types import ArrayType


def infer_grid(fn: Function) -> Optional[Tuple[int, int, int]]:
    """(gx, gy, gz) from the tile accesses indexed by `bid`, or None when none is."""
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
    if not sizes:
        return None
    return tuple(sizes.get(a, 1) for a in range(3))
