"""Per-block values that vary along only some axes of the launch grid.

A group of blocks that forms a box of the grid, (nz, ny, nx) blocks with x fastest, lets a
per-block value be kept in *grid form*: an array of shape (nz|1, ny|1, nx|1, *tile) with
size-1 axes where the value does not change. A matmul's A tiles depend on the row of
blocks only and its B tiles on the column only; in grid form each distinct tile is loaded
and converted once instead of once per block, and the products broadcast over the grid axes
(blocks sharing an operand share one BLAS call where that changes no bit: joined.py).

`Factored` wraps such an array. Only the rules that know it receive one (the executor hands
every other rule the ordinary (B, *tile) array, made on first use).
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

import numpy as np

from ...semantics import products
from .joined import joined_matmul

Box = Tuple[int, int, int]       # (nz, ny, nx): the group's extent along each grid axis

# Ops whose NumPy rule only looks at the tile axes, so they run unchanged on any number of
# leading rows: a factored operand goes through them without being expanded.
TILE_LOCAL_OPS = frozenset({"reshape", "permute", "astype", "broadcast"})
# Ops whose NumPy rule takes factored operands itself.
FACTORED_OPS = frozenset({"mma"})
# Ops whose rule takes a factored value as its last operand only (the tile a store writes).
FACTORED_VALUE_OPS = frozenset({"store_tile"})


class Factored:
    """A per-block value in grid form: `data` has shape (nz|1, ny|1, nx|1, *tile)."""
    __slots__ = ("data", "box")

    def __init__(self, data: np.ndarray, box: Box):
        self.data = data
        self.box = box

    def materialize(self) -> np.ndarray:
        """The ordinary (B, *tile) array in block order."""
        return self.in_box().reshape((-1,) + self.data.shape[3:])

    def in_box(self) -> np.ndarray:
        """The (nz, ny, nx, *tile) view: block order over the first three axes, no copy."""
        return np.broadcast_to(self.data, self.box + self.data.shape[3:])

    def map_tiles(self, fn) -> "Factored":
        """Apply a rule that works on (rows, *tile) arrays to the distinct tiles only."""
        lead = self.data.shape[:3]
        out = np.asarray(fn(self.data.reshape((-1,) + self.data.shape[3:])))
        return Factored(out.reshape(lead + out.shape[1:]), self.box)


def tile_local(x: Factored, op, rule) -> Factored:
    """A TILE_LOCAL_OPS op on a factored value; a permutation stays a view of the grid form."""
    if op.name == "permute":
        return Factored(np.transpose(x.data, (0, 1, 2) + tuple(a + 3 for a in op.attrs["axes"])), x.box)
    return x.map_tiles(rule)


def box_of(block_ids: np.ndarray) -> Optional[Box]:
    """The group's (nz, ny, nx) when its blocks, in order, fill a box of the grid; else None."""
    lo, hi = block_ids.min(axis=0), block_ids.max(axis=0)
    nx, ny, nz = (int(h - l + 1) for l, h in zip(lo, hi))
    if nx * ny * nz != len(block_ids):
        return None
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    expected = np.stack([x.reshape(-1), y.reshape(-1), z.reshape(-1)], axis=1) + lo
    return (nz, ny, nx) if np.array_equal(block_ids, expected) else None


def to_grid(x, box: Box) -> np.ndarray:
    """Any run-time tile value (Factored, (B, *tile) or uniform (1, *tile)) in grid form."""
    if isinstance(x, Factored):
        return x.data
    x = np.asarray(x)
    if x.shape[0] == 1:
        return x.reshape((1, 1, 1) + x.shape[1:])
    return x.reshape(box + x.shape[1:])          # splitting the block axis is always a view


def from_grid(x: np.ndarray, box: Box):
    """Back from grid form: uniform (1, *tile), (B, *tile) when it varies everywhere and that is
    a view, else a Factored (a product joined across blocks is laid out by rows of blocks, and
    stays so until a rule needs block order)."""
    lead, tile = x.shape[:3], x.shape[3:]
    if lead == (1, 1, 1):
        return x.reshape((1,) + tile)
    if all(n == b for n, b in zip(lead, box)) and leading_axes_merge(x):
        return x.reshape((-1,) + tile)
    return Factored(x, box)


def tiles_as_grid(tiles: np.ndarray, order: Sequence[int], box: Box) -> Optional[Factored]:
    """Tiles of a regular tiling (`tiles.Tiling`: `tiles` has one axis per varying index
    component, then the tile axes; `order` lists the components from the slowest in block order)
    as a zero-copy grid-form value, when each component runs along one axis of the box; None
    otherwise. Block order would need a copy when the components' strides do not nest (a tile
    read transposed); grid form lets that copy wait for a rule that needs it, and a store can
    then copy the tiles straight from one array into the other."""
    nv = len(order)
    lead = tiles.transpose(tuple(order) + tuple(range(nv, tiles.ndim)))
    if [n for n in lead.shape[:nv] if n > 1] != [n for n in box if n > 1]:
        return None
    return Factored(lead.reshape(box + lead.shape[nv:]), box)


def leading_axes_merge(x: np.ndarray, count: int = 3) -> bool:
    """Whether the first `count` axes of `x` (the three grid axes) merge into one without a copy."""
    axes = [(n, st) for n, st in zip(x.shape[:count], x.strides[:count]) if n > 1]
    return all(st == n_in * st_in for (_, st), (n_in, st_in) in zip(axes, axes[1:]))


def varying_axes(i: np.ndarray, box: Box) -> Tuple[bool, bool, bool]:
    """Which grid axes a per-block index ((B,) or (1,)) changes along."""
    if i.shape[0] == 1:
        return (False, False, False)
    g = i.reshape(box)
    return tuple(box[ax] > 1 and not (g == g[(slice(None),) * ax + (slice(0, 1),)]).all() for ax in range(3))


def index_axes(index: Sequence[np.ndarray], box: Box, seen: Optional[dict] = None):
    """Tile indices (one (B,) or (1,) array per component) in grid form, or None when they
    vary along every axis of the box that has more than one block (nothing to share).
    `seen` caches the analysis per index array (a loop reloads with the same block indices)."""
    keep = [False, False, False]
    for i in index:
        axes = memo_per_array(seen, i, lambda i: varying_axes(np.asarray(i).reshape(-1), box))
        keep = [k or a for k, a in zip(keep, axes)]
    if all(k or n == 1 for k, n in zip(keep, box)):
        return None
    sub = tuple(slice(None) if k else slice(0, 1) for k in keep)
    return [np.broadcast_to(to_grid(np.asarray(i).reshape(-1), box), box)[sub] for i in index]


def memo_per_array(seen: Optional[dict], array, compute):
    """compute(array), remembered in `seen` (when given) for as long as that very array is used."""
    if seen is None:
        return compute(array)
    hit = seen.get(id(array))
    if hit is None or hit[0] is not array:
        hit = (array, compute(array))
        remember(seen, id(array), hit)           # holding the array keeps its id from being reused
    return hit[1]


def remember(memo: dict, key, value, size: int = 64) -> None:
    """memo[key] = value, forgetting the oldest entries beyond `size` (a loop makes new index
    arrays every iteration)."""
    memo[key] = value
    while len(memo) > size:
        del memo[next(iter(memo))]


def concat(values: Sequence, axis: int, box: Optional[Box]):
    """Concatenate per-block tiles along tile axis `axis` (negative), keeping grid form."""
    if box is None:
        lead = max(np.shape(v)[0] for v in values)
        return np.concatenate([np.broadcast_to(v, (lead,) + np.shape(v)[1:]) for v in values], axis=axis)
    grids = [to_grid(v, box) for v in values]
    lead = tuple(max(g.shape[a] for g in grids) for a in range(3))
    grids = [g if g.shape[:3] == lead else np.broadcast_to(g, lead + g.shape[3:]) for g in grids]
    return from_grid(np.concatenate(grids, axis=axis), box)


def mma(box: Optional[Box], x, y, acc, x_dtype, y_dtype):
    """`products.mma` on operands that may be factored: each distinct tile is converted once, and
    blocks that share a tile have their products joined into one BLAS call where that is
    bit-identical to one call per block (joined.py), so the result does not depend on how
    blocks are grouped."""
    if not any(isinstance(v, Factored) for v in (x, y, acc)):
        return products.mma(x, y, acc, x_dtype, y_dtype)
    return from_grid(products.mma(to_grid(x, box), to_grid(y, box), to_grid(acc, box), x_dtype, y_dtype,
                                  joined_matmul), box)
