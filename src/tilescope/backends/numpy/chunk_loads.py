"""The operand tiles of a joined `mma` loop (fusion.py) loaded once per chunk of iterations.

In `for k in range(n): acc = ct.mma(ct.load(a, index=(bm, k), shape=(TM, TK)), ...)` the
tiles of one chunk of iterations lie side by side along K: iterations i … i+c-1 load exactly
the elements of one (TM, c·TK) tile at tile index i / c. When a load's only reader is the
joined `mma`, its K index is the loop variable itself and everything else about it is fixed
for the loop, the executor reads that one big tile per chunk instead of c tiles it then
concatenates. Same elements, same order, same bounds and race records; used only for chunks
aligned to their length (step 1, the first iteration a multiple of it: every whole chunk of a
loop from 0, and a last partial one when it is the only one) whose big tile lies inside the
array, or reaches past its edge without any of the chunk's tiles lying wholly outside (with
`check_bounds`), so no padding and no out-of-bounds report can differ.
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional

import numpy as np

from ...ir.core import Function, Op, per_function
from ...ops.memory import load_tile_values
from .fusion import fused_mmas
from .tiles import ArrayRef, padding_for, tile_index_bounds, tiles_fully_inside


class ChunkLoad(NamedTuple):
    op: Op             # the load_tile
    mma: int           # index of the mma it feeds in the loop's chain
    k_axis: int        # its tile axis along K (the loop variable's index component)


Loads = Dict[int, ChunkLoad]          # by load op id


@per_function
def chunkable_loads(fn: Function) -> Dict[int, Loads]:
    """For each joined loop of `fn` (by op id), its loads that can be read once per chunk."""
    found: Dict[int, Loads] = {}
    for op in fn.body.ops:
        chain = fused_mmas(fn, op)
        if chain:
            found[id(op)] = _loads_of(op, chain)
    return found


def _loads_of(loop: Op, chain: List[Op]) -> Loads:
    body = loop.blocks[0]
    iv = body.args[0]
    inside = {r.id for o in body.walk() for r in o.results} | {a.id for a in body.args}
    readers = body.readers()
    out: Loads = {}
    for k, mma in enumerate(chain):
        for pos in (0, 1):
            v = mma.operands[pos]
            load = v.owner
            if load is None or load.name != "load_tile" or load not in body.ops or len(readers.get(v.id, ())) != 1 \
                    or load.attrs.get("traversal_steps") is not None:
                continue
            rank = len(v.type.shape)
            k_axis = rank - 1 if pos == 0 else rank - 2
            index = load.operands[1:]
            if tuple(load.attrs["order"]) != tuple(range(rank)) or load.operands[0].id in inside \
                    or index[k_axis] is not iv \
                    or any(w.id in inside and not _constant(w) for j, w in enumerate(index) if j != k_axis):
                continue
            out[id(load)] = ChunkLoad(load, k, k_axis)
    return out


def _constant(v) -> bool:
    return v.owner is not None and v.owner.name == "const"


def chunk_tile(ex, load: Op, k_axis: int, first: int, count: int):
    """(ref, index, shape) of the one tile holding iterations first … first+count-1 of `load`,
    or None when that tile is not aligned to the chunk or not entirely inside the array."""
    if first % count:
        return None
    ref = ex.get(load.operands[0])
    if not isinstance(ref, ArrayRef):
        return None
    shape = list(load.results[0].type.shape)
    shape[k_axis] *= count
    for w in load.operands[1:]:
        if w.id not in ex.env and _constant(w):
            ex.exec_op(w.owner)                  # a constant of the loop body, not run yet
    index = [np.asarray(ex.get(w)) for w in load.operands[1:]]
    small = [np.asarray(i) for i in index]
    index[k_axis] = np.array([first // count], dtype=index[k_axis].dtype)
    order, extent = load.attrs["order"], ref.array.shape
    if not tiles_fully_inside(index, shape, order, extent):
        # past the array's edge: the same padding either way, and the same reports as long as
        # no tile of the chunk lies wholly outside (those are reported, per iteration)
        if not load.attrs.get("check_bounds", True):
            return None
        tile = load.results[0].type.shape
        for i in (first, first + count - 1):
            small[k_axis] = np.array([i], dtype=small[k_axis].dtype)
            if not tile_index_bounds(small, tile, order, extent).all():
                return None
    return ref, index, tuple(shape)


def load_chunk(ex, load: Op, tile) -> object:
    """Load the tile `chunk_tile` chose, with `load`'s checks and reports."""
    ref, index, shape = tile
    ex.op = load
    pad = padding_for(load.attrs["padding_mode"], load.results[0].type.dtype, ex.checks.poison)
    return load_tile_values(ex, load, ref, index, shape, load.attrs["order"], None, pad,
                            load.attrs.get("check_bounds", True))


def plan(ex, loads: Loads, k: int, first: int, count: int, stop: int, step: int) -> Optional[dict]:
    """For the chunk of mma `k` starting at iteration `first` (`count` iterations, fewer at the
    end of the loop): {load id: tile} for every chunkable load of that mma, or None to load per
    iteration (an unaligned chunk)."""
    if step != 1:
        return None
    count = min(count, stop - first)
    tiles = {}
    for lid, c in loads.items():
        if c.mma == k:
            tile = chunk_tile(ex, c.op, c.k_axis, first, count)
            if tile is None:
                return None
            tiles[lid] = tile
    return tiles or None
