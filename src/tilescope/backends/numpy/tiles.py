"""Tile-indexed array access for a group of blocks: coordinates, fast strided paths, checks."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from ...lang.enums import PaddingMode


class ArrayRef:
    """A kernel's array argument as the executor sees it: the caller's NumPy array (a view)."""
    __slots__ = ("array", "name", "index")

    def __init__(self, array: np.ndarray, name: str = "", index: int = 0):
        self.array = array
        self.name = name
        self.index = index

    @property
    def shape(self) -> Tuple[int, ...]:
        return self.array.shape


def padding_value(mode: PaddingMode, dtype: np.dtype):
    if mode in (PaddingMode.ZERO, PaddingMode.UNDETERMINED):
        return 0
    if mode is PaddingMode.NEG_ZERO:
        return -0.0 if dtype.kind == "f" or _is_ml_float(dtype) else 0
    if mode is PaddingMode.NAN:
        return np.nan
    if mode is PaddingMode.POS_INF:
        return np.inf
    if mode is PaddingMode.NEG_INF:
        return -np.inf
    return 0


def _is_ml_float(dtype: np.dtype) -> bool:
    return dtype.kind == "V" or dtype.name.startswith(("bfloat", "float8", "float4"))


def tile_coords(index: Sequence[np.ndarray], tile_shape: Tuple[int, ...], order: Tuple[int, ...]) -> List[np.ndarray]:
    """Element coordinates per *array* axis, broadcastable to (B, *tile_shape)."""
    nd = len(tile_shape)
    coords: List[Optional[np.ndarray]] = [None] * nd
    for k in range(nd):
        base = index[k].astype(np.int64).reshape((-1,) + (1,) * nd) * tile_shape[k]
        local = np.arange(tile_shape[k], dtype=np.int64).reshape((1,) + (1,) * k + (tile_shape[k],) + (1,) * (nd - k - 1))
        coords[order[k]] = base + local
    return coords


def in_bounds(coords: Sequence[np.ndarray], shape: Tuple[int, ...]) -> np.ndarray:
    mask = None
    for c, n in zip(coords, shape):
        m = (c >= 0) & (c < n)
        mask = m if mask is None else (mask & m)
    return mask


def tile_view(a: np.ndarray, tile_shape: Tuple[int, ...], order: Tuple[int, ...], writeable: bool = False):
    """A zero-copy view of `a` as (n_tiles..., *tile_shape) in tile-axis order (whole tiles only)."""
    perm = a.transpose(order)
    counts = tuple(n // t for n, t in zip(perm.shape, tile_shape))
    strides = tuple(s * t for s, t in zip(perm.strides, tile_shape)) + perm.strides
    return np.lib.stride_tricks.as_strided(perm, counts + tuple(tile_shape), strides, writeable=writeable)


def tiles_fully_inside(index: Sequence[np.ndarray], tile_shape, order, shape) -> bool:
    for k, t in enumerate(tile_shape):
        n = shape[order[k]]
        idx = index[k]
        if idx.size == 0:
            continue
        if idx.min() < 0 or (int(idx.max()) + 1) * t > n:
            return False
    return True


def gather_tiles(a: np.ndarray, index: Sequence[np.ndarray], tile_shape, order, pad) -> Tuple[np.ndarray, np.ndarray]:
    """Values (B, *tile_shape) and the in-bounds mask (None when all in bounds)."""
    nd = len(tile_shape)
    if nd == 0:
        return a.reshape(1), None
    if tiles_fully_inside(index, tile_shape, order, a.shape):
        view = tile_view(a, tile_shape, order)
        idx = np.broadcast_arrays(*[i.astype(np.intp) for i in index])
        return view[tuple(idx)], None
    coords = tile_coords(index, tile_shape, order)
    mask = in_bounds(coords, a.shape)
    clipped = tuple(np.clip(c, 0, max(n - 1, 0)) for c, n in zip(coords, a.shape))
    if a.size == 0:
        vals = np.zeros(np.broadcast_shapes(*[c.shape for c in coords]), dtype=a.dtype)
    else:
        vals = a[clipped]
    vals = np.where(mask, vals, np.asarray(pad).astype(a.dtype) if pad is not None else vals)
    return vals, mask


def tile_index_bounds(index: Sequence[np.ndarray], tile_shape, order, shape) -> np.ndarray:
    """(B,) mask of tiles that touch the array at all (a fully out-of-bounds tile is UB on GPU)."""
    ok = None
    for k, t in enumerate(tile_shape):
        n = shape[order[k]]
        i = index[k].astype(np.int64)
        m = (i * t < n) & (i * t + t > 0)
        ok = m if ok is None else (ok & m)
    return ok
