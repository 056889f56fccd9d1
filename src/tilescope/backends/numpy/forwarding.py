"""Arithmetic computed straight into the array a following store writes.

`ct.store(c, index=(i,), tile=a + b)` would compute `a + b` into a temporary and then copy
it into `c`. When the sum's only reader is that store, nothing between them touches
memory, and the store is a plain regular tiling of the whole group (each block its own
tile, one strided view of `c`), the executor computes the sum into that view and the store
keeps only its checks. Results are unchanged: the same NumPy operation writes the same
values, NaNs are made canonical in place, and every other case takes the ordinary path.
"""
from __future__ import annotations

from typing import Dict, Optional

import numpy as np

from ...ir.core import Block, Function, Op, per_function
from ...ir.types import TileType
from ... import dtypes as D
from ...semantics import numerics
from ...semantics.numerics import canonical_nans
from .tiles import ArrayRef, tile_view, tiles_fully_inside

_UFUNC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide}
_NATIVE = ("float32", "float64")
_CHECK_SLICE = 1 << 18          # elements per slice checked for NaNs (about the size of a core's L2 cache)
# Ops that may sit between the arithmetic and its store: no memory access, no side effects.
_QUIET = frozenset({"arange", "array_dim", "astype", "bid", "binary", "broadcast", "compare", "const", "fma",
                    "num_blocks", "num_tiles", "permute", "reshape", "unary", "where"})

def store_of(fn: Function, op: Op) -> Optional[Op]:
    """The store `op`'s result can be computed into, or None."""
    return _pairs(fn).get(id(op))


def _computable(o: Op) -> bool:
    """Ops computed into a destination: native float arithmetic and float32 fma (round to
    nearest, no flushing)."""
    if o.attrs.get("rounding_mode") or o.attrs.get("flush_to_zero") or not o.results:
        return False
    dt = o.results[0].type.dtype.name
    if o.name == "binary":
        return o.attrs.get("fn") in _UFUNC and dt in _NATIVE
    return o.name == "fma" and dt == "float32"


@per_function
def _pairs(fn: Function) -> Dict[int, Op]:
    readers = fn.body.readers()
    pairs: Dict[int, Op] = {}

    def walk(block: Block) -> None:
        for pos, o in enumerate(block.ops):
            for b in o.blocks:
                walk(b)
            if not _computable(o):
                continue
            users = readers.get(o.results[0].id, [])
            if len(users) != 1 or users[0].name != "store_tile" or users[0].operands[-1] is not o.results[0] \
                    or users[0].attrs.get("traversal_steps") is not None:
                continue
            store = users[0]
            rest = block.ops[pos + 1:]
            if store not in rest or any(m.name not in _QUIET or m.blocks for m in rest[:rest.index(store)]):
                continue
            pairs[id(o)] = store
    walk(fn.body)
    return pairs


@per_function
def streams_only(fn: Function) -> bool:
    """Whether every tile value of `fn` is a tile load that flows straight into stores — read only
    by arithmetic computed into a store, by a store as its tile, or by permutations into stores
    — or that arithmetic or permutation itself (a vector add, a transpose). No value of a group
    is then held whole (loads and permutations are views, results go straight into the output,
    slice by slice or piece by piece: copying.py), so a group can be as large as the grid
    allows without holding more memory or leaving the cache."""
    readers = fn.body.readers()
    pairs = _pairs(fn)

    def flows_to_stores(v, moved: bool = False) -> bool:
        users = readers.get(v.id, [])
        return bool(users) and all(
            (id(u) in pairs and not moved)       # (arithmetic reads a permuted tile in block order: a copy)
            or (u.name == "store_tile" and u.operands[-1] is v and v not in u.operands[:-1])
            or (u.name == "permute" and flows_to_stores(u.results[0], True)) for u in users)

    found = False
    for op in fn.walk():
        tiles = [r for r in op.results if isinstance(r.type, TileType) and r.type.shape]
        if not tiles:
            continue
        found = True
        if id(op) in pairs or op.name == "permute":       # (what a permutation feeds: checked from its load)
            continue
        if op.name != "load_tile" or not flows_to_stores(tiles[0]):
            return False
    return found


def whole_tiles(fn: Function, args) -> bool:
    """Whether every tile load and store of `fn` reads or writes an argument array made of whole
    tiles, partitioned (`args`: the launch's run-time values, one per parameter of `fn`). A tiling
    that runs past an array's edge is read and written through a copy of the whole group
    (partial.py), so a streaming kernel then keeps its groups small."""
    params = {v.id: a for v, a in zip(fn.body.args, args)}
    for op in fn.walk():
        if op.name not in ("load_tile", "store_tile"):
            continue
        ref = params.get(op.operands[0].id)
        shape = (op.results[0] if op.name == "load_tile" else op.operands[-1]).type.shape
        if not isinstance(ref, ArrayRef) or op.attrs.get("traversal_steps") is not None \
                or any(ref.array.shape[op.attrs["order"][k]] % t for k, t in enumerate(shape)):
            return False
    return True


def compute_into_store(ex, op: Op, store: Op, *operands) -> bool:
    """Compute `op` into the array `store` writes, when this run allows it."""
    if ex.active is not None or ex.checks.poison:
        return False
    for v in store.operands[:-1]:
        if v.id not in ex.env:
            if v.owner is None or v.owner.name != "const":
                return False
            ex.exec_op(v.owner)                          # a constant index: evaluate it early
    ex.op = op
    ref = ex.get(store.operands[0])
    if not isinstance(ref, ArrayRef) or not ref.array.flags.writeable:
        return False
    a = ref.array
    shape, order = store.operands[-1].type.shape, store.attrs["order"]
    if a.ndim != len(shape) or a.dtype != np.dtype(op.results[0].type.dtype.numpy):
        return False
    index = [np.asarray(ex.get(v)) for v in store.operands[1:-1]]
    if not shape or not tiles_fully_inside(index, shape, order, a.shape):
        return False
    regular = ex.regular_tiles(index)
    if regular is None or len(regular.sizes) != 1:    # one block per tile, tiles in block order
        return False
    operands = [np.asarray(v) for v in operands]
    if any(v.dtype != a.dtype for v in operands):
        return False
    dest = tile_view(a, shape, order, writeable=True)[regular.key]
    check = id(op) in ex.nan_sites and dest.size > 0
    if op.name == "fma":
        numerics.fma(*operands, D.float32, out=dest)
        found = check and np.isnan(np.max(dest))
    else:
        found = _apply(_UFUNC[op.attrs["fn"]], operands, dest, check)
    if found:
        dest[...] = canonical_nans(dest)
    ex.set(op.results[0], dest)
    ex.forwarded[id(store)] = dest
    return True


def _apply(ufunc, operands, dest: np.ndarray, find_nans: bool) -> bool:
    """ufunc(*operands, out=dest), slice by slice of the leading (block) axis; with
    `find_nans`, whether any result is NaN — each slice is checked while it is still in
    cache, instead of reading the whole destination back from memory."""
    n = dest.shape[0]
    step = max(1, _CHECK_SLICE // max(1, dest[:1].size)) if find_nans else n
    found = False
    for i in range(0, n, step):
        part = dest[i:i + step]
        ufunc(*(v[i:i + step] if v.shape[0] == n else v for v in operands), out=part)
        found = found or (find_nans and bool(np.isnan(np.max(part))))
    return found
