"""Proof that blocks touch disjoint tiles of every array some block writes.

Blocks may then run in any order, on any number of threads, with results bit-identical to
running them one after another, and no race can exist (the race check costs nothing).

The proof covers regular tilings: every access to a written array is a `load_tile` or
`store_tile` of one tile shape and order (no traversal steps), and some index positions hold,
in every access, a value that depends on the block alone (block ids, grid size, shapes,
scalar arguments: `(bid(0), j)`, or a 1-D grid's swizzled `(pid_m, pid_n)`). Two blocks then
touch disjoint tiles when those positions differ between them. Where they are the block ids
themselves the proof is static (every grid axis of more than one block must be among them);
otherwise the generated code evaluates them for every block of the launch (`owner_values`)
and the launch checks that no two blocks share them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from ...ir.core import Function, Value, per_function
from ...ir.types import ArrayType, TileType

_TILED = ("load_tile", "store_tile")
_ELEMENT = ("gather", "scatter")
_ATOMIC = ("atomic", "atomic_cas", "raw_atomic", "raw_atomic_cas", "tiled_atomic")
_WRITES = ("store_tile", "scatter", "tiled_store", "raw_store", "store_advanced", "atomic", "atomic_cas",
           "raw_atomic", "raw_atomic_cas", "tiled_atomic")
_READ_ONLY_SAFE = ("load_tile", "gather", "tiled_load", "raw_load", "load_advanced", "array_dim", "num_tiles",
                   "tiled_view", "array_slice", "raw_memory", "tiled_num_tiles")
# ops whose result is another view of their array operand (writes through it write the array)
_VIEWS = ("tiled_view", "array_slice", "raw_memory")
# scalar ops whose result depends on their operands alone
_PURE = ("const", "bid", "num_blocks", "array_dim", "num_tiles", "binary", "unary", "compare", "where", "astype",
         "fma", "reshape", "broadcast")


@dataclass
class Ownership:
    """Per written array: the index values (one tuple per access) that pick a block's tiles."""
    arrays: List[Tuple[int, List[Tuple[Value, ...]]]]      # (array parameter position, accesses)

    @property
    def static_axes(self) -> Optional[List[Set[int]]]:
        """When every owner value is a block id: per array, the grid axes they are (else None)."""
        out = []
        for _, accesses in self.arrays:
            axes = [tuple(_bid_axis(v) for v in acc) for acc in accesses]
            if any(a is None for acc in axes for a in acc) or len(set(axes)) != 1:
                return None
            out.append(set(axes[0]))
        return out

    def values(self) -> List[Value]:
        return [v for _, accesses in self.arrays for acc in accesses for v in acc]


@per_function
def arrays_to_cover(fn: Function) -> Optional[List[Tuple[int, List]]]:
    """What a proof that blocks are independent must cover: (parameter position, its (op, operand
    position) uses) of each array some op writes, those only atomics touch left out (atomics
    never race: their order is the launcher's business); None when an array nothing writes is
    used other than by plain reads (no proof covers it)."""
    uses = _uses(fn)
    out = []
    for pos, v in enumerate(fn.body.args):
        if not isinstance(v.type, ArrayType):
            continue
        accesses = uses.get(v.id, [])
        if all(op.name in _ATOMIC for op, _ in accesses):
            continue
        if not _written(v.id, uses):
            if all(op.name in _READ_ONLY_SAFE and k == 0 for op, k in accesses):
                continue
            return None
        out.append((pos, accesses))
    return out


@per_function
def ownership(fn: Function) -> Optional[Ownership]:
    """The ownership of the written arrays' tiles, or None when no such proof exists."""
    covered = arrays_to_cover(fn)
    if covered is None:
        return None
    pure = _block_only_values(fn)
    arrays = []
    for pos, accesses in covered:
        owners = _tile_owners(accesses, pure)
        if owners is None:
            return None
        arrays.append((pos, owners))
    return Ownership(arrays)


def _uses(fn: Function) -> Dict[int, List]:
    """Per value id, the (op, operand position) pairs that use it."""
    out: Dict[int, List] = {}
    for op in fn.walk():
        for k, v in enumerate(op.operands):
            out.setdefault(v.id, []).append((op, k))
    return out


def _written(value_id: int, uses: Dict[int, List]) -> bool:
    """Whether some op writes the array, directly or through views of it (`Array.slice`, tiled
    views, raw memory), which are read-only-safe only while nothing stores through them."""
    for op, k in uses.get(value_id, []):
        if k == 0 and op.name in _WRITES:
            return True
        if k == 0 and op.name in _VIEWS and any(_written(r.id, uses) for r in op.results):
            return True
    return False


def _tile_owners(accesses, pure: Set[int]) -> Optional[List[Tuple[Value, ...]]]:
    """Per access, the index values at the positions where every access's value is block-only:
    tile indices (all accesses load_tile/store_tile of one tiling) or element coordinates (all
    gather/scatter, whose index tile is a broadcast scalar there)."""
    pattern = None
    indices = []
    for op, k in accesses:
        if k != 0:
            return None
        if op.name in _ELEMENT:
            n = op.operands[0].type.ndim
            index = [_scalar_source(v) for v in op.operands[1:1 + n]]
            key = "element"
        elif op.name in _TILED and "traversal_steps" not in op.attrs:
            index = op.operands[1:] if op.name == "load_tile" else op.operands[1:-1]
            shape = tuple(op.results[0].type.shape) if op.name == "load_tile" else tuple(op.operands[-1].type.shape)
            key = (shape, tuple(op.attrs["order"]))
        else:
            return None
        if pattern is None:
            pattern = key
        elif pattern != key:
            return None
        indices.append(index)
    positions = [p for p in range(len(indices[0])) if all(ix[p] is not None and ix[p].id in pure for ix in indices)]
    if not positions:
        return None
    return [tuple(ix[p] for p in positions) for ix in indices]


def _scalar_source(v: Value) -> Optional[Value]:
    """The scalar an index tile repeats in every lane (through broadcasts and reshapes), or None."""
    while isinstance(v.type, TileType) and v.type.shape:
        if v.owner is None or v.owner.name not in ("broadcast", "reshape"):
            return None
        v = v.owner.operands[0]
    return v


def _block_only_values(fn: Function) -> Set[int]:
    """ids of scalar values that depend only on the block, the grid and the arguments."""
    out = {v.id for v in fn.body.args if isinstance(v.type, ArrayType) or
           (isinstance(v.type, TileType) and not v.type.shape)}
    for op in fn.walk():
        if op.name in _PURE and all(v.id in out for v in op.operands) and \
                all(isinstance(r.type, TileType) and not r.type.shape for r in op.results):
            out.update(r.id for r in op.results)
    return out


def _bid_axis(v: Value) -> Optional[int]:
    op = v.owner
    if op is not None and op.name == "bid":
        return op.attrs["axis"]
    return None


def statically_independent(fn: Function, grid: Tuple[int, int, int]) -> Optional[bool]:
    """True/False when the block ids alone decide; None when owner values must be evaluated."""
    own = ownership(fn)
    if own is None:
        return False
    axes = own.static_axes
    if axes is None:
        return None
    needed = {a for a in range(3) if grid[a] > 1}
    return all(needed <= a for a in axes)


def owners_disjoint(fn: Function, table) -> bool:
    """Given the owner values of every block (rows: blocks, columns: `ownership(fn).values()`),
    whether no tile of a written array is accessed by two blocks."""
    import numpy as np
    own = ownership(fn)
    col, blocks = 0, np.arange(table.shape[0], dtype=np.int64)
    for _, accesses in own.arrays:
        width = len(accesses[0])
        keys = np.concatenate([table[:, col + a * width:col + (a + 1) * width] for a in range(len(accesses))])
        who = np.tile(blocks, len(accesses))
        col += width * len(accesses)
        rows = np.ascontiguousarray(keys).view(np.dtype((np.void, 8 * width))).reshape(-1)
        order = np.argsort(rows, kind="stable")
        same = rows[order][1:] == rows[order][:-1]
        if (same & (who[order][1:] != who[order][:-1])).any():
            return False
    return True


@per_function
def trackable(fn: Function) -> Optional[Dict[int, Tuple[Tuple[int, ...], Tuple[int, ...]]]]:
    """For kernels without an ownership proof: when every access to every written array is a
    load_tile/store_tile of one tiling per array, or every one a gather/scatter (tracked per
    element: tiles of one element), {array parameter position: (tile shape, order)}; the
    generated code then records which block touched each tile (exact race detection at one
    entry per tile, see runtime ts_track); else None."""
    covered = arrays_to_cover(fn)
    if covered is None:
        return None
    out = {}
    for pos, accesses in covered:
        pattern = None
        for op, k in accesses:
            if k != 0:
                return None
            if op.name in _ELEMENT and op.operands[0].type.ndim:
                nd = op.operands[0].type.ndim
                key = ((1,) * nd, tuple(range(nd)))
            elif op.name in _TILED and "traversal_steps" not in op.attrs:
                shape = tuple(op.results[0].type.shape) if op.name == "load_tile" else tuple(op.operands[-1].type.shape)
                key = (shape, tuple(op.attrs["order"]))
            else:
                return None
            if pattern not in (None, key):
                return None
            pattern = key
        out[pos] = pattern
    return out
