"""Static proof that blocks touch disjoint parts of every array some block writes.

Blocks may then run in any order, on any number of threads, with results bit-identical to
running them one after another, and no race can exist (so the race check costs nothing).

The proof covers regular tilings: every access to a written array is a `load_tile` or
`store_tile` of one tile shape and order, and some index positions hold, in every access,
the block id along one grid axis (`(bid(0), j)`: row `bid(0)` of tiles belongs to that block).
It holds for a launch when those axes cover every grid axis of more than one block.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from ...ir.core import Function, Value, per_function
from ...ir.types import ArrayType

_TILED = ("load_tile", "store_tile")
_WRITES = ("store_tile", "scatter", "tiled_store", "raw_store", "store_advanced", "atomic", "atomic_cas",
           "raw_atomic", "raw_atomic_cas", "tiled_atomic")
_READ_ONLY_SAFE = ("load_tile", "gather", "tiled_load", "raw_load", "load_advanced", "array_dim", "num_tiles",
                   "tiled_view", "array_slice", "raw_memory", "tiled_num_tiles")


@per_function
def owned_axes(fn: Function) -> Optional[List[Set[int]]]:
    """For each written array, the grid axes that select its tiles (the launch is race-free when
    every grid axis with more than one block is among them, for every array); None when no
    such proof exists for this kernel."""
    params = {v.id for v in fn.body.args if isinstance(v.type, ArrayType)}
    uses: Dict[int, List] = {p: [] for p in params}
    for op in fn.walk():
        for k, v in enumerate(op.operands):
            if v.id in uses:
                uses[v.id].append((op, k))
    out = []
    for pid, accesses in uses.items():
        written = any(op.name in _WRITES and k == 0 for op, k in accesses)
        if not written:
            if all(op.name in _READ_ONLY_SAFE and k == 0 for op, k in accesses):
                continue
            return None
        axes = _tile_owner_axes(accesses)
        if axes is None:
            return None
        out.append(axes)
    return out


def _tile_owner_axes(accesses) -> Optional[Set[int]]:
    pattern = None
    common: Optional[Dict[int, int]] = None       # index position -> grid axis
    for op, k in accesses:
        if op.name not in _TILED or k != 0 or "traversal_steps" in op.attrs:
            return None
        index = op.operands[1:] if op.name == "load_tile" else op.operands[1:-1]
        shape = tuple(op.results[0].type.shape) if op.name == "load_tile" else tuple(op.operands[-1].type.shape)
        key = (shape, tuple(op.attrs["order"]))
        if pattern is None:
            pattern = key
        elif pattern != key:
            return None
        here = {p: a for p, a in ((p, _bid_axis(v)) for p, v in enumerate(index)) if a is not None}
        common = here if common is None else {p: a for p, a in common.items() if here.get(p) == a}
    if not common:
        return None
    return set(common.values())


def _bid_axis(v: Value) -> Optional[int]:
    op = v.owner
    if op is not None and op.name == "bid":
        return op.attrs["axis"]
    return None


def independent(fn: Function, grid: Tuple[int, int, int]) -> bool:
    """Whether blocks of this launch provably touch disjoint tiles of every written array."""
    axes = owned_axes(fn)
    if axes is None:
        return False
    needed = {a for a in range(3) if grid[a] > 1}
    return all(needed <= a for a in axes)
