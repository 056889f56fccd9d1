"""Block ids and tile-indexed loads/stores through arrays."""
from __future__ import annotations

from .. import dtypes as D
from ..ir.types import ArrayType, TileType
from ..lang.enums import MemoryOrder, MemoryScope, PaddingMode
from .common import (axis_order, const_bool, const_enum, const_int, const_shape, implicit_cast, index_tuple,
                     require_array)
from .registry import attribute, primitive, surface

_INT32 = TileType(D.int32, ())

primitive("bid", "The block's index along grid axis `axis` (int32 scalar).")
primitive("num_blocks", "The grid size along `axis` (int32 scalar).")
primitive("array_dim", "A run-time shape (`what='shape'`) or stride (`what='stride'`) of an array.")
primitive("load_tile", "Load the tile at tile-index `index` (tiles, not elements) of shape `shape`.")
primitive("store_tile", "Store `tile` at tile-index `index`; out-of-bounds elements are dropped.")


def _axis(ctx, axis):
    a = const_int(ctx, axis, "axis")
    if a not in (0, 1, 2):
        raise ctx.value_error(f"Axis must be 0, 1, or 2, got {a}")
    return a


@surface("memory")
def bid(axis):
    """Index of the current block along grid axis `axis` (0, 1 or 2)."""


@bid.rule
def _(ctx, axis):
    return ctx.emit1("bid", [], _INT32, axis=_axis(ctx, axis))


@surface("memory")
def num_blocks(axis):
    """Number of blocks in the grid along axis `axis` (0, 1 or 2)."""


@num_blocks.rule
def _(ctx, axis):
    return ctx.emit1("num_blocks", [], _INT32, axis=_axis(ctx, axis))


def _check_bounds(ctx, check_bounds):
    return const_bool(ctx, check_bounds, "check_bounds")


def _memory_order(ctx, memory_order, memory_scope, allowed):
    mo = const_enum(ctx, memory_order, MemoryOrder, "memory_order")
    ms = const_enum(ctx, memory_scope, MemoryScope, "memory_scope")
    if mo not in allowed:
        raise ctx.type_error(f"memory_order {mo.name} is not allowed here "
                             f"(allowed: {', '.join(m.name for m in allowed)})")
    if (mo is MemoryOrder.WEAK) != (ms is MemoryScope.NONE):
        raise ctx.type_error("memory_scope must be NONE exactly when memory_order is WEAK")
    return mo, ms


def _hints(ctx, latency, allow_tma):
    lat = None if latency is None else const_int(ctx, latency, "latency")
    if lat is not None and not 1 <= lat <= 10:
        raise ctx.value_error(f"latency must be between 1 and 10, got {lat}")
    tma = None if allow_tma is None else const_bool(ctx, allow_tma, "allow_tma")
    return lat, tma


@surface("memory")
def load(array, /, index, shape, *, order="C", padding_mode=PaddingMode.UNDETERMINED, check_bounds=True,
         latency=None, allow_tma=None, memory_order=MemoryOrder.WEAK, memory_scope=MemoryScope.NONE):
    """Load a tile of `shape` from `array` at tile index `index`.

    `index` counts tiles, not elements: tile (i, j) of shape (m, n) covers elements
    [i*m, (i+1)*m) x [j*n, (j+1)*n). `order` maps tile axes to array axes ('C', 'F' or a
    permutation). Elements of a partially out-of-bounds tile take `padding_mode`'s value.
    """


@load.rule
def _(ctx, array, index, shape, order, padding_mode, check_bounds, latency, allow_tma, memory_order,
      memory_scope):
    a = require_array(ctx, array)
    at: ArrayType = a.type
    idx = index_tuple(ctx, index, at.ndim)
    shp = const_shape(ctx, shape, "tile shape")
    if len(shp) != at.ndim:
        raise ctx.type_error(f"Expected shape length to be {at.ndim}, got {len(shp)}")
    perm = axis_order(ctx, order, at.ndim)
    pad = const_enum(ctx, padding_mode, PaddingMode, "padding_mode")
    cb = _check_bounds(ctx, check_bounds)
    mo, ms = _memory_order(ctx, memory_order, memory_scope,
                           (MemoryOrder.WEAK, MemoryOrder.RELAXED, MemoryOrder.ACQUIRE))
    lat, tma = _hints(ctx, latency, allow_tma)
    return ctx.emit1("load_tile", [a] + idx, TileType(at.dtype, shp), order=perm, padding_mode=pad,
                     check_bounds=cb, latency=lat, allow_tma=tma, memory_order=mo, memory_scope=ms)


@surface("memory")
def store(array, /, index, tile, *, order="C", check_bounds=True, latency=None, allow_tma=None,
          memory_order=MemoryOrder.WEAK, memory_scope=MemoryScope.NONE):
    """Store `tile` into `array` at tile index `index` (tiles, not elements).

    Out-of-bounds elements are dropped. A scalar is broadcast to a tile whose shape
    has one element per array axis.
    """


@store.rule
def _(ctx, array, index, tile, order, check_bounds, latency, allow_tma, memory_order, memory_scope):
    a = require_array(ctx, array)
    at: ArrayType = a.type
    idx = index_tuple(ctx, index, at.ndim)
    t = implicit_cast(ctx, tile, at.dtype, "Stored tile is incompatible with array's dtype")
    if not t.type.shape:
        from .common import reshape
        t = reshape(ctx, t, (1,) * at.ndim)
    perm = axis_order(ctx, order, at.ndim)
    cb = _check_bounds(ctx, check_bounds)
    mo, ms = _memory_order(ctx, memory_order, memory_scope,
                           (MemoryOrder.WEAK, MemoryOrder.RELAXED, MemoryOrder.RELEASE))
    lat, tma = _hints(ctx, latency, allow_tma)
    ctx.emit("store_tile", [a] + idx + [t], [], order=perm, check_bounds=cb, latency=lat, allow_tma=tma,
             memory_order=mo, memory_scope=ms)
    return None


@surface("memory")
def num_tiles(array, /, axis, shape, order="C"):
    """Number of tiles of `shape` needed to cover `array` along tile axis `axis` (rounded up)."""


@num_tiles.rule
def _(ctx, array, axis, shape, order):
    a = require_array(ctx, array)
    nd = a.type.ndim
    shp = const_shape(ctx, shape, "tile shape")
    if len(shp) != nd:
        raise ctx.type_error(f"Expected shape length to be {nd}, got {len(shp)}")
    ax = const_int(ctx, axis, "axis")
    if not -nd <= ax < nd:
        raise ctx.type_error(f"axis {ax} is out of range for an array of rank {nd}")
    ax %= nd
    perm = axis_order(ctx, order, nd)
    dim = array_dim(ctx, a, perm[ax], "shape")
    return ctx.call_surface("cdiv", [dim, shp[ax]], {})


def array_dim(ctx, a, axis: int, what: str):
    at: ArrayType = a.type
    known = at.static_dim(axis) if what == "shape" else at.static_stride(axis)
    if known is not None:
        return known
    return ctx.emit1("array_dim", [a], TileType(at.index_dtype, ()), axis=axis, what=what)


@attribute(ArrayType, "shape")
def _array_shape(ctx, a):
    return tuple(array_dim(ctx, a, i, "shape") for i in range(a.type.ndim))


@attribute(ArrayType, "strides")
def _array_strides(ctx, a):
    return tuple(array_dim(ctx, a, i, "stride") for i in range(a.type.ndim))


@attribute(ArrayType, "dtype")
def _array_dtype(ctx, a):
    return a.type.dtype


@attribute(ArrayType, "ndim")
def _array_ndim(ctx, a):
    return a.type.ndim
