"""Tilings that run past the array's edge (a vector whose length is not a multiple of the tile,
a matmul of 1000×1000): loads and stores by whole regions instead of element by element.

The tiles a group of blocks reads span one box of the array, tile index range by tile index
range. When some of them reach past the array (or before it), a load copies the part of the box
inside the array into a buffer pre-filled with the padding value and reads the tiles from the
buffer as it would from the array (a regular tiling's views, a matmul's shared panels); a store
writes its tiles into such a buffer (first filled from the array, unless a regular tiling's
tiles cover it) and copies back only the part inside the array. Elements outside the array
read the padding and are never written, exactly as lane-by-lane access does it, at the cost of
plain copies instead of a gather or scatter of every element. Tiles scattered far apart (a box
much larger than the tiles) stay lane by lane.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from .tiles import blocks_to_grid, tile_view


def tile_box(index, tile_shape, limit: int):
    """(first, stop) tile indices of the box the per-block tile indices `index` span (one array
    per tile axis); None when it holds more than `limit` elements (tiles scattered far apart)."""
    lo = [int(np.min(i)) for i in index]
    hi = [int(np.max(i)) + 1 for i in index]
    if int(np.prod([(h - l) * t for l, h, t in zip(lo, hi, tile_shape)], dtype=np.int64)) > limit:
        return None
    return lo, hi


def _buffer(a: np.ndarray, tile_shape, order, box):
    """(the array in tile-axis order, an empty buffer for the box, slices of the array, the
    same region's slices in the buffer)."""
    perm = a.transpose(order)
    ranges = [(l * t, h * t) for l, h, t in zip(*box, tile_shape)]
    buf = np.empty([h - l for l, h in ranges], dtype=a.dtype)
    return (perm, buf) + _inside(ranges, perm.shape)


def _inside(ranges, extent) -> Tuple[tuple, tuple]:
    """(slices of the array, slices of the box buffer) for the part of the box inside the array."""
    arr, buf = [], []
    for (lo, hi), n in zip(ranges, extent):
        a0, a1 = min(max(lo, 0), n), min(max(hi, 0), n)
        arr.append(slice(a0, a1))
        buf.append(slice(a0 - lo, a0 - lo + (a1 - a0)))
    return tuple(arr), tuple(buf)


def padded_tiles(a: np.ndarray, tile_shape, order, box, pad):
    """A tile view of a copy of `box` (from `tile_box`), elements outside `a` set to `pad`."""
    perm, buf, arr, inside = _buffer(a, tile_shape, order, box)
    buf[...] = pad
    buf[inside] = perm[arr]
    return tile_view(buf, tile_shape, tuple(range(buf.ndim)))


def shifted(key: tuple, first) -> tuple:
    """A `Tiling.key` into the whole array's tile view, for a view whose first tile is `first`."""
    return tuple(k - f if isinstance(k, int) else slice(k.start - f, k.stop - f) for k, f in zip(key, first))


def store(a: np.ndarray, tile_shape, order, box, index, tiles: np.ndarray, tiling=None) -> None:
    """Write `tiles` (one per block, in block order) at tile indices `index` inside `box`, into
    `a` where they lie inside it. `tiling`: the indices' regular tiling, when they have one (its
    tiles cover the box, so the array's old values need not be read first)."""
    perm, buf, arr, inside = _buffer(a, tile_shape, order, box)
    view = tile_view(buf, tile_shape, tuple(range(buf.ndim)), writeable=True)
    if tiling is not None:
        view[shifted(tiling.key, box[0])] = blocks_to_grid(tiles, tiling, len(tile_shape))
    else:
        buf[inside] = perm[arr]                  # tiles no block writes keep their values
        view[tuple(i - f for i, f in zip(index, box[0]))] = tiles     # (several writes: the last wins)
    perm[arr] = buf[inside]
