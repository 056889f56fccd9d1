"""Tile geometry on NumPy arrays: element coordinates of tiles, bounds, zero-copy tile views.

Dependency-free (NumPy only, no typing names in signatures): the executor's memory rules
use it, and transpiled modules carry it whole (see transpile/codegen.py `prelude_source`). Index arrays
carry the leading block axis; `order[k]` is the array axis that tile axis k covers.
"""
from __future__ import annotations

import numpy as np



def tile_coords(index, tile_shape, order, steps=None):
    """Element coordinates per *array* axis, broadcastable to (B, *tile_shape).

    Tile axis k covers array axis order[k]; its origin is index[k] * steps[k] elements
    (steps default to the tile shape: tiles partition the array)."""
    nd = len(tile_shape)
    steps = tuple(tile_shape) if steps is None else tuple(steps)
    coords = [None] * nd
    for k in range(nd):
        base = np.asarray(index[k]).astype(np.int64).reshape((-1,) + (1,) * nd) * steps[k]
        local = np.arange(tile_shape[k], dtype=np.int64).reshape((1,) + (1,) * k + (tile_shape[k],) + (1,) * (nd - k - 1))
        coords[order[k]] = base + local
    return coords


def in_bounds(coords, shape) -> np.ndarray:
    mask = None
    for c, n in zip(coords, shape):
        m = (c >= 0) & (c < n)
        mask = m if mask is None else (mask & m)
    return mask


def tile_view(a: np.ndarray, tile_shape, order, writeable: bool = False):
    """A zero-copy view of `a` as (n_tiles..., *tile_shape) in tile-axis order (whole tiles only)."""
    perm = a.transpose(order)
    counts = tuple(n // t for n, t in zip(perm.shape, tile_shape))
    strides = tuple(s * t for s, t in zip(perm.strides, tile_shape)) + perm.strides
    # as_strided rebuilds the dtype from its string, which fails for some ml_dtypes types
    # (float8_e5m2 is '<f1'): go through a same-width integer view and back.
    raw = perm.view(np.dtype(f"u{perm.itemsize}")) if perm.dtype.kind == "V" or perm.dtype.itemsize == 1 \
        and perm.dtype.kind not in "biu" else perm
    view = np.lib.stride_tricks.as_strided(raw, counts + tuple(tile_shape), strides, writeable=writeable)
    return view if raw is perm else view.view(perm.dtype)


def tiles_fully_inside(index, tile_shape, order, shape) -> bool:
    for k, t in enumerate(tile_shape):
        n = shape[order[k]]
        idx = index[k]
        if idx.size == 0:
            continue
        if idx.min() < 0 or (int(idx.max()) + 1) * t > n:
            return False
    return True


def subtile_coords(index, sub_shape, full_shape):
    """Per-axis element coordinates (lead, 1.., s_k, ..1) of the sub-tile at grid position
    `index` of a `full_shape` tile, clipped into the tile, and the (lead,) mask of indices
    inside the sub-tile grid (one outside is undefined behaviour on the GPU)."""
    nd = len(sub_shape)
    lead = max(i.shape[0] for i in index) if index else 1
    coords, valid = [], np.ones(lead, dtype=bool)
    for k, (s, n) in enumerate(zip(sub_shape, full_shape)):
        i = index[k].reshape(-1).astype(np.int64)
        i = i if i.shape[0] == lead else np.broadcast_to(i, (lead,))
        valid &= (i >= 0) & (i < n // s)
        shape = (1,) + (1,) * k + (s,) + (1,) * (nd - k - 1)
        c = i.reshape((lead,) + (1,) * nd) * s + np.arange(s, dtype=np.int64).reshape(shape)
        coords.append(np.clip(c, 0, n - 1))
    return coords, valid


def keep_last_writes(coords, values, shape):
    """Lanes writing element coordinates `coords` (flat, in (block, row-major lane) order):
    where lanes collide, only the last one's write is kept."""
    if len(values) <= 1:
        return coords, values
    lin = np.ravel_multi_index(coords, shape)
    step = np.diff(lin)
    if (step > 0).all() or (step < 0).all():   # strictly monotone (the usual scatter): no collision,
        return coords, values                   # and no sort
    first_of_reversed = np.unique(lin[::-1], return_index=True)[1]
    if len(first_of_reversed) == len(lin):
        return coords, values
    keep = np.sort(len(lin) - 1 - first_of_reversed)
    return tuple(c[keep] for c in coords), values[keep]


def _lead_to(x, n):
    return x if x.shape[0] == n else np.broadcast_to(x, (n,) + x.shape[1:])


def _uniform_slices(index, sub, full):
    """Basic slices for one sub-tile position shared by every block, inside the tile; or None."""
    if not all(i.shape[0] == 1 for i in index):
        return None
    starts = [int(i.reshape(-1)[0]) * s for i, s in zip(index, sub)]
    if not all(0 <= st and st + s <= n for st, s, n in zip(starts, sub, full)):
        return None
    return (slice(None),) + tuple(slice(st, st + s) for st, s in zip(starts, sub))


def extract_subtile(x, index, sub, coords_of=subtile_coords):
    """The `sub`-shaped sub-tile of every block's tile at sub-tile grid position `index`
    (`coords_of(index, sub, full)` gives clipped coordinates and validity)."""
    full = x.shape[1:]
    plain = _uniform_slices(index, sub, full)
    if plain is not None:
        return x[plain]
    coords, _ = coords_of(index, sub, full)
    lead = max([x.shape[0]] + [i.shape[0] for i in index])
    b = np.arange(lead).reshape((lead,) + (1,) * len(sub))
    return _lead_to(x, lead)[(b,) + tuple(_lead_to(c, lead) for c in coords)]


def insert_subtile(x, val, index, coords_of=subtile_coords):
    """A copy of every block's tile `x` with `val` written at sub-tile grid position `index`
    (an index outside the grid writes nothing)."""
    sub, full = val.shape[1:], x.shape[1:]
    lead = max([x.shape[0], val.shape[0]] + [i.shape[0] for i in index])
    out = np.array(_lead_to(x, lead))                # a fresh copy: tiles are values
    v = _lead_to(val, lead)
    plain = _uniform_slices(index, sub, full)
    if plain is not None:
        out[plain] = v
        return out
    coords, valid = coords_of(index, sub, full)
    keep = _lead_to(valid, lead)
    b = np.arange(lead)[keep].reshape((-1,) + (1,) * len(sub))
    out[(b,) + tuple(_lead_to(c, lead)[keep] for c in coords)] = v[keep]
    return out
