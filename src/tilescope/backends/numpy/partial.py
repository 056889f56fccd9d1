"""Regular tilings that run past the array's edge (a vector whose length is not a multiple of
the tile): loads and stores by whole regions instead of element by element.

Tiles of a regular tiling (`tiles.Tiling`) cover one box of the array, tile index range by
tile index range. When some of them reach past the array (or before it), a load copies the part
of the box inside the array into a buffer pre-filled with the padding value and cuts the buffer
into tiles; a store does the reverse and writes back only the part inside the array. Elements
outside the array read the padding and are never written, exactly as lane-by-lane access does
it, at the cost of two plain copies instead of a gather or scatter of every element.
"""
from __future__ import annotations

from typing import List, Tuple

import numpy as np

from .tiles import Tiling, blocks_to_grid, grid_to_blocks, tile_view


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


def load(a: np.ndarray, tile_shape, order, tiling: Tiling, pad) -> np.ndarray:
    """The tiles of `tiling` in block order, (B, *tile); elements outside `a` are `pad`."""
    perm = a.transpose(order)
    ranges = _ranges(tiling, tile_shape)
    buf = np.full([hi - lo for lo, hi in ranges], pad, dtype=a.dtype)
    arr, box = _inside(ranges, perm.shape)
    buf[box] = perm[arr]
    return grid_to_blocks(_box_tiles(buf, tiling, tile_shape), tiling)


def store(a: np.ndarray, tile_shape, order, tiling: Tiling, tiles: np.ndarray) -> None:
    """Write (B, *tile) `tiles` (block order) to the tiles of `tiling`, inside `a` only."""
    perm = a.transpose(order)
    ranges = _ranges(tiling, tile_shape)
    buf = np.empty([hi - lo for lo, hi in ranges], dtype=a.dtype)
    _box_tiles(buf, tiling, tile_shape, writeable=True)[...] = blocks_to_grid(tiles, tiling, len(tile_shape))
    arr, box = _inside(ranges, perm.shape)
    perm[arr] = buf[box]
