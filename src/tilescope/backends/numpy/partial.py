"""Tilings that run past the array's edge (a vector whose length is not a multiple of the tile,
a matmul of 1000×1000): loads and stores by whole regions instead of element by element.

The tiles a group of blocks reads span one box of the array, tile index range by tile index
range. When some of them reach past the array (or before it), a load copies the part of the box
inside the array into a buffer pre-filled with the padding value and reads the tiles from the
buffer as it would from the array (a regular tiling's views, a matmul's shared panels); a store
of a regular tiling writes its tiles into such a buffer and copies back only the part inside
the array. Elements outside the array read the padding and are never written, exactly as
lane-by-lane access does it, at the cost of plain copies instead of a gather or scatter of every
element.
"""
from __future__ import annotations

from typing import List, Tuple

import numpy as np

from .tiles import Tiling, blocks_to_grid, tile_view


def _ranges(tiling: Tiling, tile_shape) -> List[Tuple[int, int]]:
    """(start, stop) element range of the box along each tile axis (may reach outside the array)."""
    out = []
    for key, t in zip(tiling.key, tile_shape):
        lo, hi = (key, key + 1) if isinstance(key, int) else (key.start, key.stop)
        out.append((lo * t, hi * t))
    return out


def _inside(ranges, extent) -> Tuple[tuple, tuple]:
    """(slices of the array, slices of the box buffer) for the part of the box inside the array."""
    arr, buf = [], []
    for (lo, hi), n in zip(ranges, extent):
        a0, a1 = min(max(lo, 0), n), min(max(hi, 0), n)
        arr.append(slice(a0, a1))
        buf.append(slice(a0 - lo, a0 - lo + (a1 - a0)))
    return tuple(arr), tuple(buf)


def _box_tiles(buf: np.ndarray, tiling: Tiling, tile_shape, writeable: bool = False) -> np.ndarray:
    """The box buffer as `tile_view(...)[tiling.key]` of the whole array would give it."""
    view = tile_view(buf, tile_shape, tuple(range(buf.ndim)), writeable=writeable)
    return view[tuple(0 if isinstance(k, int) else slice(None) for k in tiling.key)]


def padded_tiles(a: np.ndarray, tile_shape, order, index, pad, limit: int):
    """(tile view, first tile) of a copy of the box of tiles `index` spans (per-block tile
    indices, one array per tile axis), elements outside `a` set to `pad`; None when the box
    holds more than `limit` elements (tiles scattered far apart)."""
    lo = [int(np.min(i)) for i in index]
    hi = [int(np.max(i)) + 1 for i in index]
    if int(np.prod([(h - l) * t for l, h, t in zip(lo, hi, tile_shape)], dtype=np.int64)) > limit:
        return None
    perm = a.transpose(order)
    ranges = [(l * t, h * t) for l, h, t in zip(lo, hi, tile_shape)]
    buf = np.full([h - l for l, h in ranges], pad, dtype=a.dtype)
    arr, box = _inside(ranges, perm.shape)
    buf[box] = perm[arr]
    return tile_view(buf, tile_shape, tuple(range(buf.ndim))), lo


def shifted(key: tuple, first) -> tuple:
    """A `Tiling.key` into the whole array's tile view, for a view whose first tile is `first`."""
    return tuple(k - f if isinstance(k, int) else slice(k.start - f, k.stop - f) for k, f in zip(key, first))


def store(a: np.ndarray, tile_shape, order, tiling: Tiling, tiles: np.ndarray) -> None:
    """Write (B, *tile) `tiles` (block order) to the tiles of `tiling`, inside `a` only."""
    perm = a.transpose(order)
    ranges = _ranges(tiling, tile_shape)
    buf = np.empty([hi - lo for lo, hi in ranges], dtype=a.dtype)
    _box_tiles(buf, tiling, tile_shape, writeable=True)[...] = blocks_to_grid(tiles, tiling, len(tile_shape))
    arr, box = _inside(ranges, perm.shape)
    perm[arr] = buf[box]
