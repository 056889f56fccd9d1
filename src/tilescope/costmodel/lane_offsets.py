"""Where a gather's lanes land, from metadata alone (version 43).

An index tile computed only from `bid`, `ct.arange`, constants and given runtime scalars (a
flattened N-d index split by `//` and `%`, a pooling window's taps) names the same elements at
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
_MOST_LANES = 1 << 16          # larger index tiles are not evaluated (the cost of the count)


def sector_share(sc: GridScalars, index: Sequence[Value], shape: Sequence[int], itemsize: int) -> Optional[float]:
    """DRAM bytes per lane of a gather from a C-ordered array of `shape` at the `index` tiles (one
    per axis): the distinct sectors a middle block's in-bounds lanes touch, over its lanes."""
    if not all(isinstance(n, int) and n > 0 for n in shape) or len(index) != len(shape):
        return None
    if max(int(np.prod(getattr(v.type, "shape", ()) or ())) for v in index) > _MOST_LANES:
        return None
    block = sc.blocks // 2
    memo: Dict[int, Optional[np.ndarray]] = {}
    tiles = [_tile(v, sc, block, memo, 0) for v in index]
    if any(t is None for t in tiles):
        return None
    tiles = np.broadcast_arrays(*tiles)
    lanes = tiles[0].size
    if not lanes:
        return None
    inside = np.ones(tiles[0].shape, bool)
    flat = np.zeros(tiles[0].shape, np.int64)
    for t, n in zip(tiles, shape):
        inside &= (t >= 0) & (t < n)          # lanes past the array are dropped by the bounds check
        flat = flat * n + t
    sectors = np.unique(flat[inside] * itemsize // SECTOR_BYTES).size
    return sectors * SECTOR_BYTES / lanes


def _tile(v: Value, sc: GridScalars, block: int, memo: Dict[int, Optional[np.ndarray]],
          depth: int) -> Optional[np.ndarray]:
    if v.id in memo:
        return memo[v.id]
    shape = tuple(getattr(v.type, "shape", ()) or ())
    out = _compute(v, shape, sc, block, memo, depth)
    # each value keeps its type's shape, so that the ops above it see what the IR says they see
    memo[v.id] = out = out if out is not None and np.shape(out) == shape else None
    return out


def _compute(v: Value, shape: tuple, sc: GridScalars, block: int, memo, depth: int) -> Optional[np.ndarray]:
    if _scalar_like(v):
        x = sc.value(v)
        return np.asarray(x[block] if x.ndim else x).reshape(shape) if isinstance(x, np.ndarray) else None
    op = v.owner
    if op is None or depth > 64:
        return None
    if op.name == "arange":
        return np.arange(shape[0], dtype=np.int64)
    if op.name == "const" and isinstance(op.attrs.get("value"), (bool, int, float)):
        return np.full(shape, op.attrs["value"])
    args = [_tile(o, sc, block, memo, depth + 1) for o in op.operands]
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
