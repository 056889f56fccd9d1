"""Where a gather's lanes land, from metadata alone (version 43).

An index tile computed only from `bid`, `ct.arange`, constants and given runtime scalars (a
flattened N-d index split by `//` and `%`, a pooling window's taps, a sort's partners by shifts:
version 65) names the same elements at
every launch, whatever the data. Evaluating it for one block gives the elements its lanes read,
and so the 32-byte sectors they bring: the DRAM bytes an element costs without guessing from the
index's form. An index that depends on loaded data or on a loop variable stays unknown (None).
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence

import numpy as np

from ..ir.core import Value
from .scalars import _BINARY, _COMPARE, GridScalars, _scalar_like

SECTOR_BYTES = 32
LINE_BYTES = 128               # an L1 cache line
# what DRAM moves for a read that needs part of it: a pair of 32-byte sectors (lanes 68 and 128 bytes
# apart read 64 bytes each, 32 bytes apart 32)
DRAM_READ_BYTES = 64
WARP_LANES = 32
_MOST_LANES = 1 << 16          # larger index tiles are not evaluated (the cost of the count)
_SHIFT = 1 << 20 | 1            # a second value taken for unknown uniform offsets


def sector_share(sc: GridScalars, index: Sequence[Value], shape: Sequence[int], itemsize: int) -> Optional[float]:
    """DRAM bytes per lane of a gather from a C-ordered array of `shape` at the `index` tiles (one
    per axis): the distinct sectors a middle block's in-bounds lanes touch, over its lanes."""
    flat, inside = _flat_offsets(sc, index, shape)
    if flat is None or not flat.size:
        return None
    lanes = flat.size
    sectors = np.unique(flat[inside] * itemsize // SECTOR_BYTES).size
    return sectors * SECTOR_BYTES / lanes


def lines_per_instruction(sc: GridScalars, index: Sequence[Value], shape: Sequence[int],
                          itemsize: int) -> Optional[float]:
    """Cache lines a warp instruction of an element-by-element gather or scatter touches, its lanes
    laid down min(rows, 32) of the index tile's rows and along a few neighbouring elements of each
    (version 46), or 32 neighbouring lanes of a 1-D one: the middle block's in-bounds lanes, over its
    instructions. Rows a line apart or more give a line a row; rows closer (a flat index over short
    rows) share lines."""
    flat, inside = _flat_offsets(sc, index, shape)
    if flat is None:
        # a uniform offset the data gives (a group's base) moves every lane alike: the lanes'
        # pattern is known if two values taken for it give the same offsets less the first
        flat, inside = _flat_offsets(sc, index, shape, unknown=0)
        other, _ = _flat_offsets(sc, index, shape, unknown=_SHIFT)
        if flat is None or other is None or not np.array_equal(other - other.flat[0], flat - flat.flat[0]):
            return None
        flat, inside = flat - flat.min(), np.ones(flat.shape, bool)
    if flat.ndim == 0:
        return None
    if flat.ndim == 1:                 # a 1-D index tile: a warp takes 32 neighbouring lanes (v96)
        flat, inside = flat[None, :], inside[None, :]
    cols = flat.shape[-1]
    flat, inside = flat.reshape(-1, cols), inside.reshape(-1, cols)
    down = min(flat.shape[0], WARP_LANES)
    along = max(1, WARP_LANES // down)
    rows, cols = flat.shape[0] // down * down, cols // along * along
    if not rows or not cols:
        return None
    # (row groups, rows of a group, column groups, columns of a group): one instruction per group pair
    groups = (flat[:rows, :cols] * itemsize // LINE_BYTES).reshape(rows // down, down, cols // along, along)
    keep = inside[:rows, :cols].reshape(groups.shape)
    per = groups.transpose(0, 2, 1, 3).reshape(-1, down * along)
    keep = keep.transpose(0, 2, 1, 3).reshape(-1, down * along)
    per = np.sort(np.where(keep, per, -1), axis=1)          # lanes past the array: no line
    distinct = 1 + np.count_nonzero(np.diff(per, axis=1), axis=1) - (per[:, 0] < 0)
    return float(distinct.mean())


def _flat_offsets(sc: GridScalars, index: Sequence[Value], shape: Sequence[int], unknown: Optional[int] = None):
    """The middle block's element offsets into a C-ordered array of `shape` at the `index` tiles,
    and which lanes fall inside it; (None, None) where the index is not known from metadata.
    `unknown`: the value taken for uniform values metadata does not give (None: not known)."""
    if not all(isinstance(n, int) and n > 0 for n in shape) or len(index) != len(shape):
        return None, None
    if max(int(np.prod(getattr(v.type, "shape", ()) or ())) for v in index) > _MOST_LANES:
        return None, None
    memo: Dict[int, Optional[np.ndarray]] = {}
    tiles = [_tile(v, sc, sc.blocks // 2, memo, 0, unknown) for v in index]
    if any(t is None for t in tiles):
        return None, None
    tiles = np.broadcast_arrays(*tiles)
    inside = np.ones(tiles[0].shape, bool)
    flat = np.zeros(tiles[0].shape, np.int64)
    for t, n in zip(tiles, shape):
        inside &= (t >= 0) & (t < n)          # lanes past the array are dropped by the bounds check
        flat = flat * n + t
    return flat, inside


def _tile(v: Value, sc: GridScalars, block: int, memo: Dict[int, Optional[np.ndarray]],
          depth: int, unknown: Optional[int] = None) -> Optional[np.ndarray]:
    if v.id in memo:
        return memo[v.id]
    shape = tuple(getattr(v.type, "shape", ()) or ())
    out = _compute(v, shape, sc, block, memo, depth, unknown)
    # each value keeps its type's shape, so that the ops above it see what the IR says they see
    memo[v.id] = out = out if out is not None and np.shape(out) == shape else None
    return out


def _compute(v: Value, shape: tuple, sc: GridScalars, block: int, memo, depth: int,
             unknown: Optional[int]) -> Optional[np.ndarray]:
    if _scalar_like(v):
        x = sc.value(v)
        if not isinstance(x, np.ndarray):
            return None if unknown is None else np.full(shape, unknown)
        return np.asarray(x[block] if x.ndim else x).reshape(shape)
    op = v.owner
    if op is None or depth > 64:
        return None
    if op.name == "arange":
        return np.arange(shape[0], dtype=np.int64)
    if op.name == "const" and isinstance(op.attrs.get("value"), (bool, int, float)):
        return np.full(shape, op.attrs["value"])
    args = [_tile(o, sc, block, memo, depth + 1, unknown) for o in op.operands]
    if any(a is None for a in args):
        return None
    if op.name == "broadcast":
        return np.broadcast_to(args[0], shape)
    if op.name == "reshape":
        return args[0].reshape(shape)
    if op.name == "astype":
        dt = v.type.dtype
        return args[0].astype(np.int64 if dt.is_int else bool if dt.name == "bool_" else np.float64)
    if op.name == "where" and len(args) == 3:
        return np.where(*args)
    fn = _BINARY.get(op.attrs.get("fn")) if op.name == "binary" else \
        _COMPARE.get(op.attrs.get("fn")) if op.name == "compare" else None
    if fn is None or len(args) != 2:
        return None
    with np.errstate(all="ignore"):
        return fn(*args)
