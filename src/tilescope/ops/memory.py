"""Block ids and tile-indexed loads/stores through arrays.

Also the checks shared by every memory family (gather/scatter, views, atomics):
index tuples, memory order/scope validation, load/store hints and the
bytecode-version gate of upstream's oracle target (13.3).
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

from .. import dtypes as D
from ..ir.core import Value
from ..ir.primitive import BOOL, INT, INTS, one_of
from ..ir.types import ArrayType, TileType
from ..enums import MemoryOrder, MemoryScope, PaddingMode
from .common import (axis_order, const_bool, const_enum, const_int, const_shape, expect, implicit_cast,
                     is_tile, require_array, reshape, require_bytecode, scalar_result, type_or_describe)
from .registry import (MEMORY_ORDER, MEMORY_SCOPE, PADDING, Attr, attribute, no_rule, optional, primitive,
                       surface, type_fields)

_INT32 = TileType(D.int32, ())

ALL_SCOPES = (MemoryScope.NONE, MemoryScope.BLOCK, MemoryScope.DEVICE, MemoryScope.SYS)
LOAD_ORDERS = (MemoryOrder.RELAXED, MemoryOrder.ACQUIRE, MemoryOrder.WEAK)
STORE_ORDERS = (MemoryOrder.RELAXED, MemoryOrder.RELEASE, MemoryOrder.WEAK)

# Attributes of tile loads and stores (views, gathers and atomics take some of them).
HINT_ATTRS = {"latency": optional(INT, "expected latency hint, 1..10"), "allow_tma": optional(BOOL)}
ORDER_ATTRS = {"memory_order": Attr(MEMORY_ORDER, MemoryOrder.WEAK), "memory_scope": Attr(MEMORY_SCOPE, MemoryScope.NONE)}
TILE_ATTRS = {"order": Attr(INTS, doc="array axis of each tile axis"), "traversal_steps": optional(INTS),
              "check_bounds": Attr(BOOL, True), **HINT_ATTRS, **ORDER_ATTRS}

BID = primitive("bid", "The block's index along grid axis `axis` (int32 scalar).", attrs={"axis": Attr(INT)})
NUM_BLOCKS = primitive("num_blocks", "The grid size along `axis` (int32 scalar).", attrs={"axis": Attr(INT)})
ARRAY_DIM = primitive("array_dim", "A run-time shape (`what='shape'`) or stride (`what='stride'`) of an array.",
                      operands=("array",), attrs={"axis": Attr(INT), "what": Attr(one_of("shape", "stride"))})
LOAD_TILE = primitive(
    "load_tile", "Load the tile at tile-index `index` (tiles, not elements) of shape `shape`: "
    "tile axis i covers array axis order[i]; with `traversal_steps`, tile origins are "
    "index*steps elements apart (else index*shape).",
    operands=("array", "*index"), attrs={"shape": Attr(INTS), "padding_mode": Attr(PADDING), **TILE_ATTRS})
STORE_TILE = primitive(
    "store_tile", "Store `tile` at tile-index `index` (same addressing as load_tile); out-of-bounds "
    "elements are dropped.", operands=("array", "*index", "tile"), results=0, traits=("side_effects",),
    attrs={**TILE_ATTRS, "stored_operand": Attr(INT, -1)})
NUM_TILES = primitive(
    "num_tiles", "ceil-div of the array extent along array axis order[axis] by the tile extent "
    "(or the number of tile origins with `traversal_steps`), as an int32 scalar.",
    operands=("array",), attrs={"axis": Attr(INT), "shape": Attr(INTS), "order": Attr(INTS),
                                "traversal_steps": optional(INTS)})


# ---- shared checks -----------------------------------------------------------

def check_bounds_flag(ctx, check_bounds) -> bool:
    """`check_bounds` of tile loads/stores: False needs bytecode 13.4 (upstream rejects it on 13.3)."""
    cb = const_bool(ctx, check_bounds, "check_bounds")
    if not cb:
        require_bytecode(ctx, (13, 4), "'check_bounds=False'")
    return cb


def memory_order_scope(ctx, memory_order, memory_scope, opname: str, orders: Sequence[MemoryOrder],
                       scopes: Sequence[MemoryScope] = ALL_SCOPES):
    """Validate a (memory_order, memory_scope) pair for the op `opname` as upstream does."""
    mo = const_enum(ctx, memory_order, MemoryOrder, "memory_order")
    ms = const_enum(ctx, memory_scope, MemoryScope, "memory_scope")
    if mo not in orders:
        raise ctx.type_error(f"Invalid memory order for {opname}. Got {mo}, expected one of "
                             f"{', '.join(str(o) for o in orders)}")
    if ms not in scopes:
        raise ctx.type_error(f"Invalid memory scope for {opname}. Got {ms}, expected one of "
                             f"{', '.join(str(s) for s in scopes)}")
    if mo is MemoryOrder.WEAK and ms is not MemoryScope.NONE:
        raise ctx.type_error(f"{opname} with WEAK memory ordering cannot specify a memory scope")
    if mo is not MemoryOrder.WEAK and ms is MemoryScope.NONE:
        raise ctx.type_error(f"{opname} with {mo.name} memory ordering requires a memory scope")
    return mo, ms


def latency_hint(ctx, latency):
    lat = None if latency is None else const_int(ctx, latency, "latency")
    if lat is not None and not 1 <= lat <= 10:
        raise ctx.value_error(f"Latency must be between 1 and 10, got {lat}")
    return lat


def load_store_hints(ctx, latency, allow_tma):
    lat = latency_hint(ctx, latency)
    tma = None if allow_tma is None else const_bool(ctx, allow_tma, "allow_tma")
    return lat, tma


def _is_signed_int_scalar(x: Any) -> bool:
    if is_tile(x):
        return not x.type.shape and x.type.dtype.is_int and x.type.dtype.is_signed
    return isinstance(x, int) and not isinstance(x, bool)


def scalar_index_items(ctx, index: Any, rank: int, what: str = "array") -> List[Value]:
    """Tile-space index: a signed integer scalar or a tuple of them, one per axis of the `what`."""
    items = index_items(ctx, index, _is_signed_int_scalar,
                        "a tuple of signed integers or a single signed integer scalar")
    if len(items) != rank:
        raise ctx.type_error(f"Index size {len(items)} does not match the {what} rank {rank}")
    return [i if is_tile(i) else ctx.to_value(i, D.int32) for i in items]


def index_items(ctx, index: Any, is_item, expected: str, type_text=type_or_describe) -> tuple:
    """The items of an index (a tuple of them, or one), each checked by `is_item`."""
    items = index if isinstance(index, tuple) else (index,)
    for i, item in enumerate(items):
        if not is_item(item):
            which = f"item #{i}" if isinstance(index, tuple) else "given value"
            raise ctx.type_error(f"Expected {expected}, but {which} has type {type_text(item)}")
    return items


def tile_shape_arg(ctx, shape, rank: int, what: str = "shape") -> Tuple[int, ...]:
    """A constant power-of-two shape with one extent per array axis, or () (a single element)."""
    v = ctx.require_constant(shape, what)
    if isinstance(v, tuple) and len(v) != rank and len(v) != 0 and \
            all(isinstance(d, int) and not isinstance(d, bool) for d in v):
        raise ctx.type_error(f"Expected {what} length to be {rank}, got {len(v)}")
    if v == ():
        return ()
    shp = const_shape(ctx, v, what)
    if len(shp) != rank:
        raise ctx.type_error(f"Expected {what} length to be {rank}, got {len(shp)}")
    return shp


# ---- block ids -----------------------------------------------------------------

def _axis(ctx, axis):
    a = const_int(ctx, axis, "axis")
    if a not in (0, 1, 2):
        raise ctx.type_error(f"Axis must be 0, 1, or 2, but {a} was given.")
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


# ---- tile loads and stores ------------------------------------------------------

def emit_load_tile(ctx, a: Value, idx: List[Value], shape, order, padding_mode, check_bounds, latency,
                   allow_tma, memory_order=MemoryOrder.WEAK, memory_scope=MemoryScope.NONE,
                   traversal_steps=None) -> Value:
    """A load_tile op; a 0-d `shape` loads a one-element tile and drops its axes (as upstream)."""
    ndim = a.type.ndim
    full = shape if shape else (1,) * ndim
    attrs = dict(shape=full, order=order, padding_mode=padding_mode, check_bounds=check_bounds,
                 latency=latency, allow_tma=allow_tma, memory_order=memory_order, memory_scope=memory_scope)
    if traversal_steps is not None and tuple(traversal_steps) != tuple(full):
        attrs["traversal_steps"] = tuple(traversal_steps)
    t = ctx.emit1("load_tile", [a] + idx, TileType(a.type.dtype, full), **attrs)
    return reshape(ctx, t, shape) if not shape else t


def emit_store_tile(ctx, a: Value, idx: List[Value], tile: Value, order, check_bounds, latency, allow_tma,
                    memory_order=MemoryOrder.WEAK, memory_scope=MemoryScope.NONE,
                    traversal_steps=None) -> None:
    ndim = a.type.ndim
    if not tile.type.shape:
        tile = reshape(ctx, tile, (1,) * ndim)
    attrs = dict(order=order, check_bounds=check_bounds, latency=latency, allow_tma=allow_tma,
                 memory_order=memory_order, memory_scope=memory_scope)
    if traversal_steps is not None and tuple(traversal_steps) != tuple(tile.type.shape):
        attrs["traversal_steps"] = tuple(traversal_steps)
    ctx.emit("store_tile", [a] + idx + [tile], [], **attrs)


@surface("memory")
def load(array, /, index, shape, *, order="C", padding_mode=PaddingMode.UNDETERMINED, check_bounds=True,
         latency=None, allow_tma=None, memory_order=MemoryOrder.WEAK, memory_scope=MemoryScope.NONE):
    """Load a tile of `shape` from `array` at tile index `index`.

    `index` counts tiles, not elements: tile (i, j) of shape (m, n) covers elements
    [i*m, (i+1)*m) x [j*n, (j+1)*n). `order` maps tile axes to array axes ('C', 'F' or a
    permutation). Elements of a partially out-of-bounds tile take `padding_mode`'s value.
    `shape=()` loads the single element at `index` as a 0-d tile.
    """


@load.rule
def _(ctx, array, index, shape, order, padding_mode, check_bounds, latency, allow_tma, memory_order,
      memory_scope):
    a = require_array(ctx, array)
    at: ArrayType = a.type
    idx = scalar_index_items(ctx, index, at.ndim)
    shp = tile_shape_arg(ctx, shape, at.ndim)
    perm = axis_order(ctx, order, at.ndim)
    pad = const_enum(ctx, padding_mode, PaddingMode, "padding_mode")
    cb = check_bounds_flag(ctx, check_bounds)
    mo, ms = memory_order_scope(ctx, memory_order, memory_scope, "tile_load", LOAD_ORDERS)
    lat, tma = load_store_hints(ctx, latency, allow_tma)
    return emit_load_tile(ctx, a, idx, shp, perm, pad, cb, lat, tma, mo, ms)


@surface("memory")
def store(array, /, index, tile, *, order="C", check_bounds=True, latency=None, allow_tma=None,
          memory_order=MemoryOrder.WEAK, memory_scope=MemoryScope.NONE):
    """Store `tile` into `array` at tile index `index` (tiles, not elements).

    Out-of-bounds elements are dropped. A scalar is stored as a tile with one
    element per array axis. (Like upstream, a tile whose rank differs from the
    array's is not rejected here.)
    """


@store.rule
def _(ctx, array, index, tile, order, check_bounds, latency, allow_tma, memory_order, memory_scope):
    a = require_array(ctx, array)
    at: ArrayType = a.type
    idx = scalar_index_items(ctx, index, at.ndim)
    t = implicit_cast(ctx, tile, at.dtype, "Stored tile is incompatible with array's dtype")
    perm = axis_order(ctx, order, at.ndim)
    cb = check_bounds_flag(ctx, check_bounds)
    mo, ms = memory_order_scope(ctx, memory_order, memory_scope, "tile_store", STORE_ORDERS)
    lat, tma = load_store_hints(ctx, latency, allow_tma)
    emit_store_tile(ctx, a, idx, t, perm, cb, lat, tma, mo, ms)
    return None


@surface("memory")
def num_tiles(array, /, axis, shape, order="C"):
    """Number of tiles of `shape` needed to cover `array` along tile axis `axis` (rounded up)."""


@num_tiles.rule
def _(ctx, array, axis, shape, order):
    a = require_array(ctx, array)
    nd = a.type.ndim
    ax = const_int(ctx, axis, "axis")
    if not -nd <= ax < nd:
        raise ctx.type_error(f"Axis {ax} is out of range for rank {nd}")
    ax %= nd
    shp = tile_shape_arg(ctx, shape, nd)
    perm = axis_order(ctx, order, nd)
    return emit_num_tiles(ctx, a, ax, shp or (1,) * nd, perm)


def emit_num_tiles(ctx, a: Value, axis: int, shape, order, traversal_steps=None) -> Value:
    # Always a run-time int32, as upstream (its num_tiles op is not folded by the front end).
    attrs = dict(axis=axis, shape=tuple(shape), order=tuple(order))
    if traversal_steps is not None and tuple(traversal_steps) != tuple(shape):
        attrs["traversal_steps"] = tuple(traversal_steps)
    return ctx.emit1("num_tiles", [a], _INT32, **attrs)


# ---- array attributes -------------------------------------------------------------

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


type_fields(ArrayType, "dtype", "ndim")


# ---- CPU executor rules ------------------------------------------------------------
# Values carry a leading block axis (size B, or 1 when uniform). Array operands are
# ArrayRef / SliceRef (per-block `Array.slice` views) / MultiRef (per-block list items);
# the addressing helpers live in backends/numpy/tiles.py (NumPy only, no executor import).

import numpy as _np  # noqa: E402

from ..backends.numpy import tiles as _T  # noqa: E402
from ..backends.numpy import copying as _copying  # noqa: E402
from ..backends.numpy import grid as _grid  # noqa: E402
from ..backends.numpy import partial as _partial  # noqa: E402


@BID.numpy
def _(ex, op):
    return ex.bid(op.attrs["axis"])


@NUM_BLOCKS.numpy
def _(ex, op):
    return _np.full((1,), ex.grid[op.attrs["axis"]], dtype=_np.int32)


@BID.transpile
@NUM_BLOCKS.transpile
def _(w, op):
    w.call(op, op.name, "ctx", axis=op.attrs["axis"])


@ARRAY_DIM.numpy
@_T.per_array
def _(ex, op, ref):
    base, _, extent = _T.geometry(ref)
    axis = op.attrs["axis"]
    dt = op.results[0].type.dtype.numpy
    if op.attrs["what"] == "shape":
        return _np.asarray(extent[axis], dtype=_np.int64).reshape(-1).astype(dt)
    return _np.full((1,), _T.element_strides(base.array)[axis], dtype=dt)


@ARRAY_DIM.transpile
def _(w, op):
    w.call(op, "array_dim", w.name(op.operands[0]), axis=op.attrs["axis"], what=op.attrs["what"],
           dtype=op.results[0].type.dtype)


@NUM_TILES.numpy
@_T.per_array
def _(ex, op, ref):
    _, _, extent = _T.geometry(ref)
    axis, shape, order = op.attrs["axis"], op.attrs["shape"], op.attrs["order"]
    step = (op.attrs["traversal_steps"] or shape)[axis]
    n = _np.asarray(extent[order[axis]], dtype=_np.int64).reshape(-1)
    return (-(-n // step)).astype(_np.int32)


@NUM_TILES.transpile
def _(w, op):
    w.call(op, "num_tiles", w.name(op.operands[0]), **w.attrs(op, "axis", "shape", "order", "traversal_steps"))


def _check_tile_touches(ex, op, ref, index, shape, order, steps, what: str) -> None:
    """A tile entirely outside the array (or slice) is undefined behaviour on the GPU."""
    if not shape:
        return
    _, _, extent = _T.geometry(ref)
    if all(isinstance(e, int) for e in extent):
        ok = ex.remembered(index, ("touch", tuple(shape), tuple(order), steps and tuple(steps), tuple(extent)),
                           lambda: _T.tile_index_bounds(index, shape, order, extent, steps))
    else:
        ok = _T.tile_index_bounds(index, shape, order, extent, steps)
    if ok.all():
        return
    bad = ~_np.broadcast_to(ok, (ex.nb,)) & ex.active_mask()
    if bad.any():
        on_oob = getattr(ex.races, "tile_out_of_bounds", None)     # a launch trace (tilescope.trace)
        if on_oob is not None:
            on_oob(ex, op, ref, index, shape, order, steps, bad)
        b = int(_np.argmax(bad))
        idx = tuple(int(_np.broadcast_to(i, (ex.nb,))[b]) for i in index)
        ext = tuple(int(_np.broadcast_to(e, (ex.nb,))[b]) if isinstance(e, _np.ndarray) else e for e in extent)
        _T.report_once(ex, op, "tile-oob",
                       f"{what} of a tile entirely out of bounds (undefined behaviour on the GPU; tilescope "
                       f"{'pads it' if what == 'load' else 'drops it'}): array '{ref.name}' of shape {ext}, "
                       f"tile index {idx}, tile shape {tuple(shape)}", ex.block_ids[b])


def _slice_on_base(ref, index, shape, order, steps):
    """An `Array.slice` view read or written by whole tiles of its base array: where the view's
    bounds are the same for every block, start on a tile boundary and hold every tile at `index`,
    those tiles are the base's at a shifted index. (base reference, index), else None (lane by
    lane through the view)."""
    if not isinstance(ref, _T.SliceRef) or steps is not None or len(shape) != ref.array.ndim:
        return None
    shifted = list(index)
    for k, t in enumerate(shape):
        origin, extent = ref.origin[order[k]], ref.extent[order[k]]
        if origin is None:
            continue
        origin, extent = _np.asarray(origin).reshape(-1), _np.asarray(extent).reshape(-1)
        if (origin != origin[0]).any() or (extent != extent[0]).any() or origin[0] % t:
            return None
        if (index[k] < 0).any() or ((index[k] + 1) * t > extent[0]).any():
            return None
        shifted[k] = index[k] + int(origin[0]) // t
    return ref.base, shifted


def load_tile_values(ex, op, ref, index, shape, order, steps, pad, check_bounds: bool = True):
    """The tiles at `index` (tile coordinates) of `ref` for every block: (B|1, *shape)."""
    a = ref.array
    if a.ndim == 0:
        return _np.array(a).reshape(1)          # a copy: the kernel may store to it later
    index = [_np.asarray(i) for i in index]
    ref, index = _slice_on_base(ref, index, shape, order, steps) or (ref, index)
    if ex.checks.bounds:
        _check_tile_touches(ex, op, ref, index, shape, order, steps, "load")
    if isinstance(ref, _T.ArrayRef) and steps is None and _T.tiles_fully_inside(index, shape, order, a.shape):
        view = _T.tile_view(a, shape, order)
        regular = ex.regular_tiles(index)
        if regular is not None:          # a regular tiling: basic slicing, no per-tile gather
            vals = _grid_view(ex, ref, view[regular.key], regular)
            if vals is None:
                vals = _T.grid_to_blocks(view[regular.key], regular)
                if not ref.unchanging and _np.may_share_memory(vals, a):
                    vals = vals.copy()   # the kernel may overwrite these elements later
        else:
            vals = _irregular_tiles(ex, view, index)
        _record_tile_read(ex, op, ref, index, shape, order)
    elif (box := _region_box(ex, ref, index, shape, steps, check_bounds)) is not None:
        view, first = _partial.padded_tiles(a, shape, order, box, pad), box[0]
        regular = ex.regular_tiles(index)
        if regular is not None:
            vals = _T.grid_to_blocks(view[_partial.shifted(regular.key, first)], regular)
        else:
            vals = _irregular_tiles(ex, view, [i - f for i, f in zip(index, first)])
        _record_tile_read(ex, op, ref, index, shape, order)
    else:
        coords = _T.tile_coords(index, shape, order, steps)
        vals = _T.load_elements(ex, op, ref, coords, pad, what="tile load", ub=True, report_oob=not check_bounds)
    if not isinstance(vals, _grid.Factored) and vals.shape[0] != 1 and vals.shape[0] != ex.nb:
        vals = _np.broadcast_to(vals, (ex.nb,) + vals.shape[1:])
    return vals


def _record_tile_read(ex, op, ref, index, shape, order) -> None:
    if ex.races is not None and ex.races.watches_reads_of(ref):
        mask = ex.active_mask()
        idx = [_np.broadcast_to(i, (ex.nb,))[mask] for i in index]
        ex.races.record_tile(ex, op, ref, idx, shape, order, mask, write=False)


def _by_region(ref, shape, steps, check_bounds: bool, poison: bool) -> bool:
    """Whether tiles some of which reach past the array may be read or written by regions
    (partial.py): not where lanes need one by one treatment (`check_bounds=False` reports lanes
    outside the array, the poison check follows padded lanes)."""
    return isinstance(ref, _T.ArrayRef) and steps is None and check_bounds and not poison \
        and ref.array.ndim == len(shape) > 0


def _region_box(ex, ref, index, shape, steps, check_bounds: bool):
    """The box of tiles (partial.tile_box) to read or write by region, or None."""
    if not _by_region(ref, shape, steps, check_bounds, ex.checks.poison):
        return None
    per_block = int(_np.prod(shape, dtype=_np.int64)) * ex.nb
    return _partial.tile_box(index, shape, limit=max(4 * per_block, 1 << 16))


def _grid_view(ex, ref, tiles, regular):
    """The tiles as a grid-form view when block order would copy them (see grid.tiles_as_grid);
    only for arrays the kernel never writes (a view must not change under the kernel)."""
    if len(regular.sizes) < 2 or not ref.unchanging or ex.active is not None or ex.box is None:
        return None
    nv = len(regular.order)
    if _grid.leading_axes_merge(tiles.transpose(regular.order + tuple(range(nv, tiles.ndim))), nv):
        return None                      # block order is a view already
    return _grid.tiles_as_grid(tiles, regular.order, ex.box)


def _irregular_tiles(ex, view, index):
    """The tiles at `index` of a tile view when they form no regular tiling: once per distinct
    tile where blocks share them, else one per block."""
    vals = _shared_tiles(ex, view, index)
    if vals is None:
        vals = view[tuple(_np.broadcast_arrays(*[i.astype(_np.intp) for i in index]))]
    return vals


def _shared_tiles(ex, view, index):
    """The tiles once per distinct index, in grid form, when whole rows or columns of the block
    group load the same tile (a matmul's operands); None otherwise."""
    if ex.box is None or ex.active is not None:
        return None
    sub = _grid.index_axes(index, ex.box, ex.index_axes_seen)
    if sub is None:
        return None
    return _grid.Factored(view[tuple(i.astype(_np.intp) for i in sub)], ex.box)


def store_tile_values(ex, op, ref, index, tile, shape, order, steps, check_bounds: bool = True) -> None:
    """Store `tile` at tile coordinates `index` for the active blocks; out-of-bounds elements drop."""
    a = ref.array
    mask = ex.active_mask()
    if not mask.any():
        return
    index = [_np.asarray(i) for i in index]
    ref, index = _slice_on_base(ref, index, shape, order, steps) or (ref, index)
    if ex.checks.bounds:
        _check_tile_touches(ex, op, ref, index, shape, order, steps, "store")
    if a.ndim == 0:
        vals = _T.expand_rows(ex, _np.asarray(tile).reshape((-1,)))
        _T.check_poison(ex, op, ref, vals, mask, [])
        if ex.races is not None:
            ex.races.record_tile_store(ex, op, ref, [], (), (), mask)
        a[()] = vals[mask][-1]
        return
    shape = tuple(shape)
    regular = ex.regular_tiles(index) if mask.all() else None
    idx = [_np.broadcast_to(i, (ex.nb,))[mask].astype(_np.intp) for i in index]     # the active blocks'
    strided = isinstance(ref, _T.ArrayRef) and steps is None and a.flags.writeable and \
        _T.tiles_fully_inside(idx, shape, order, a.shape)
    if isinstance(tile, _grid.Factored) and not (strided and regular is not None and not ex.checks.poison):
        tile = tile.materialize()
    if strided:
        full = (ex.nb,) + shape
        # (grid form goes straight into the tiles: a joined product is already laid out as they are)
        tile_full = tile.in_box() if isinstance(tile, _grid.Factored) else _np.broadcast_to(tile, full)
        if ex.checks.poison and _T.poison_value(tile_full.dtype) is not None:
            _T.check_poison(ex, op, ref, tile_full, _np.broadcast_to(_T.active_rows(ex, len(full)), full),
                            lambda: _T.tile_coords(index, shape, order))
        if ex.races is not None:
            ex.races.record_tile_store(ex, op, ref, idx, shape, order, mask)
        view = _T.tile_view(a, shape, order, writeable=True)
        if regular is not None:          # a regular tiling: one strided copy
            if ex.forwarded.pop(id(op), None) is not tile:     # (else computed in place: forwarding.py)
                _copying.copy_into(view[regular.key], _T.blocks_to_grid(tile_full, regular, len(shape)))
        else:
            view[tuple(idx)] = tile_full[mask]
        return
    box = _region_box(ex, ref, idx, shape, steps, check_bounds) if a.flags.writeable else None
    if box is not None:
        if ex.races is not None:
            ex.races.record_tile_store(ex, op, ref, idx, shape, order, mask)
        _partial.store(a, shape, order, box, idx, _np.broadcast_to(tile, (ex.nb,) + shape)[mask], regular)
        return
    coords = _T.tile_coords(index, shape, order, steps)
    _T.store_elements(ex, op, ref, coords, tile, what="tile store", ub=True, report_oob=not check_bounds)


@LOAD_TILE.numpy
@_T.per_array
def _(ex, op, ref, *index):
    t = op.results[0].type
    pad = _T.padding_for(op.attrs["padding_mode"], t.dtype, ex.checks.poison)
    return load_tile_values(ex, op, ref, index, t.shape, op.attrs["order"], op.attrs["traversal_steps"],
                            pad, op.attrs["check_bounds"])


@LOAD_TILE.transpile
def _(w, op):
    t = op.results[0].type
    w.call(op, "load_tile", "ctx", w.args(op.operands), **w.attrs(op, "order", "padding_mode", "traversal_steps"),
           shape=t.shape, dtype=t.dtype)


@STORE_TILE.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    index, tile = rest[:-1], rest[-1]
    rank = len(op.operands[-1].type.shape)
    if rank != op.operands[0].type.ndim:
        # Upstream's front end accepts this, but it has no defined meaning on the GPU.
        raise ex.error(f"cannot store a tile of rank {rank} into an array of rank {op.operands[0].type.ndim}")
    store_tile_values(ex, op, ref, index, tile, op.operands[-1].type.shape, op.attrs["order"],
                      op.attrs["traversal_steps"], op.attrs["check_bounds"])


@STORE_TILE.transpile
def _(w, op):
    w.call(op, "store_tile", "ctx", w.args(op.operands), **w.attrs(op, "order", "traversal_steps"),
           shape=op.operands[-1].type.shape)


# ---- typing (the verifier's rules) and folding -------------------------------------------

def array_type(op, i: int = 0) -> ArrayType:
    t = op.operands[i].type
    expect(isinstance(t, ArrayType), f"operand #{i} must be an array, got {t}")
    return t


def expect_index(op, ndim: int, count: int) -> None:
    """The op has `count` tile-index operands, one per array axis."""
    expect(count == ndim, f"{count} index operands for an array of rank {ndim}")


BID.typing(scalar_result(D.int32))
NUM_BLOCKS.typing(scalar_result(D.int32))
NUM_TILES.typing(scalar_result(D.int32))


@ARRAY_DIM.typing
def _(op):
    return [TileType(array_type(op).index_dtype, ())]


@LOAD_TILE.typing
def _(op):
    a = array_type(op)
    expect_index(op, a.ndim, len(op.operands) - 1)
    return [TileType(a.dtype, tuple(op.attrs["shape"]))]


@STORE_TILE.typing
def _(op):
    expect_index(op, array_type(op).ndim, len(op.operands) - 2)
    return []


no_rule("fold", "a run-time value", BID, NUM_BLOCKS, ARRAY_DIM, LOAD_TILE, STORE_TILE, NUM_TILES)
