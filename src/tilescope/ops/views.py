"""Other views of an array: sub-arrays, tiled views, raw memory, and items of array lists.

* `Array.slice(axis, start, stop)`: the same memory restricted to [start, stop) along one axis.
* `Array.tiled_view(tile_shape, ...)`: the array as a grid of tiles (`TiledView`), with
  `.load/.store/.num_tiles` (its atomics live in atomics.py).
* `Array.get_raw_memory()`: flat element-offset access (`RawArrayMemory`), with
  `.load_offset/.store_offset` (its atomics live in atomics.py).
* `lst[i]` on a list-of-arrays parameter.
"""
from __future__ import annotations

from typing import Any, Tuple

from .. import dtypes as D
from ..annotations import Array as SurfaceArray
from ..enums import PaddingMode
from ..ir.core import Value
from ..ir.primitive import BOOL, INT
from ..ir.types import ArrayType, ListType, RawMemoryType, TiledViewType, TileType
from .common import (broadcast_to, const_enum, const_int, const_shape, expect, implicit_cast, is_number,
                     is_tile, no_results, normalize_axis, require_array, reshape, scalar_result,
                     type_or_describe)
from .gather import broadcastable_to, custom_mask, padding_operand, stored_value
from .memory import (HINT_ATTRS, array_type, check_bounds_flag, latency_hint, load_store_hints, scalar_index_items,
                     tile_shape_arg)
from .registry import Attr, attribute, method, no_rule, optional, primitive, surface, type_fields

ARRAY_SLICE = primitive(
    "array_slice", "The array restricted to elements [start, stop) along `axis` (a view: same memory "
    "and strides, base moved by start*stride[axis]).", operands=("array", "start", "stop"), attrs={"axis": Attr(INT)})
TILED_VIEW = primitive("tiled_view", "The array seen as a grid of tiles (type TiledViewType); no memory access.",
                       operands=("array",))
TILED_LOAD = primitive(
    "tiled_load", "Load the view's tile at tile index `index`; tile origins are index*traversal_steps "
    "elements; out-of-bounds elements padded by the view's padding mode.", operands=("view", "*index"),
    attrs={"check_bounds": Attr(BOOL, True), **HINT_ATTRS})
TILED_STORE = primitive(
    "tiled_store", "Store a tile of the view's tile shape at tile index `index`; out-of-bounds elements are "
    "dropped.", operands=("view", "*index", "tile"), results=0, traits=("side_effects",),
    attrs={"check_bounds": Attr(BOOL, True), **HINT_ATTRS, "stored_operand": Attr(INT, -1)})
TILED_NUM_TILES = primitive("tiled_num_tiles", "Number of tile positions of the view along `axis` (int32 scalar).",
                            operands=("view",), attrs={"axis": Attr(INT)})
RAW_MEMORY = primitive("raw_memory", "The array's base pointer as flat element-offset memory (type RawMemoryType).",
                       operands=("array",))
RAW_LOAD = primitive(
    "raw_load", "Element load at base + offset[p] where mask[p] (else padding[p]; no bounds check).", operands=("memory", "offset", "padding", "mask?has_mask"),
    attrs={"has_mask": Attr(BOOL, False), "latency": optional(INT)})
RAW_STORE = primitive(
    "raw_store", "Element store of value[p] at base + offset[p] where mask[p] (no bounds check).", operands=("memory", "offset", "value", "mask?has_mask"), results=0,
    traits=("side_effects",), attrs={"has_mask": Attr(BOOL, False), "latency": optional(INT),
                                     "stored_operand": Attr(INT, -1)})
LIST_ITEM = primitive("list_item", "Item `index` of a list-of-arrays parameter (an array).", operands=("list", "index"))
LIST_LEN = primitive("list_len", "The length of a list-of-arrays parameter (int32 scalar).", operands=("list",))


def raw_offset(ctx, raw: Value, offset: Any) -> Tuple[Value, Tuple[int, ...]]:
    """The element offset operand of raw-memory ops (an integer scalar or tile)."""
    if not (is_tile(offset) and offset.type.dtype.is_int) and not (
            isinstance(offset, int) and not isinstance(offset, bool)):
        raise ctx.type_error(f"Offset must be an integer scalar or tile, got {type_or_describe(offset)}")
    off = offset if is_tile(offset) else ctx.to_value(offset)
    return off, off.type.shape


def _signed_int_scalar(ctx, x: Any) -> Value:
    if is_tile(x):
        if x.type.shape:
            raise ctx.type_error(f"Expected a scalar or a 0D tile, but given value has type {x.type}")
        if not (x.type.dtype.is_int and x.type.dtype.is_signed):
            raise ctx.type_error(f"Expected a signed integer scalar, but got {x.type}")
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return ctx.to_value(x)
    if isinstance(x, bool):
        raise ctx.type_error("Expected a signed integer scalar, but got Tile[bool_,()]")
    if isinstance(x, float):
        raise ctx.type_error("Expected a signed integer scalar, but got Tile[float32,()]")
    raise ctx.type_error(f"Expected a scalar or a 0D tile, but given value has type {type_or_describe(x)}")


# ---- Array.slice ----------------------------------------------------------------------

@surface("views", name="Array.slice")
def array_slice(self, axis, start, stop):
    """A view of the array restricted to [start, stop) along `axis` (constant; negative counts from the end).

    `start`/`stop` are signed integer scalars (run-time values allowed); no data is copied.
    """


@array_slice.rule
def _(ctx, self, axis, start, stop):
    a = require_array(ctx, self)
    at: ArrayType = a.type
    ax = normalize_axis(ctx, axis, at.ndim)
    lo, hi = _signed_int_scalar(ctx, start), _signed_int_scalar(ctx, stop)
    c_lo, c_hi = lo.const, hi.const
    if c_lo is not None and c_lo < 0:
        raise ctx.type_error("Slice start must be non-negative")
    if c_hi is not None and c_hi < 0:
        raise ctx.type_error("Slice stop must be non-negative")
    if c_lo is not None and c_hi is not None and c_hi < c_lo:
        raise ctx.type_error("Slice stop must be greater than or equal to start")
    known = c_hi - c_lo if c_lo is not None and c_hi is not None else None
    shape = tuple(known if i == ax else d for i, d in enumerate(at.shape))
    static = tuple((known is not None) if i == ax else s for i, s in enumerate(at.static_shape))
    new_type = ArrayType(at.dtype, at.ndim, shape, at.strides, index_dtype=at.index_dtype,
                         static_shape=static, static_strides=at.static_strides)
    return ctx.emit1("array_slice", [a, lo, hi], new_type, axis=ax)


method(ArrayType, "slice", array_slice)


# ---- Array.tiled_view and TiledView --------------------------------------------------------

@surface("views", name="Array.tiled_view")
def tiled_view(self, tile_shape, *, padding_mode=PaddingMode.UNDETERMINED, traversal_steps=None):
    """The array as a grid of `tile_shape` tiles (one extent per axis; powers of two).

    `traversal_steps` (elements between consecutive tile origins per axis, any positive
    int) defaults to `tile_shape`: smaller steps overlap tiles, larger ones leave gaps.
    """


@tiled_view.rule
def _(ctx, self, tile_shape, padding_mode, traversal_steps):
    a = require_array(ctx, self)
    nd = a.type.ndim
    shape = tile_shape_arg(ctx, tile_shape, nd)
    pad = const_enum(ctx, padding_mode, PaddingMode, "padding_mode")
    if traversal_steps is None:
        steps = shape or (1,) * nd
    else:
        steps = ctx.require_constant(traversal_steps, "traversal_steps")
        if isinstance(steps, tuple) and len(steps) != nd and \
                all(isinstance(s, int) and not isinstance(s, bool) for s in steps):
            raise ctx.type_error(f"Expected traversal_steps length to be {nd}, got {len(steps)}")
        steps = const_shape(ctx, steps, "traversal_steps", pow2=False)
        if len(steps) != nd:
            raise ctx.type_error(f"Expected traversal_steps length to be {nd}, got {len(steps)}")
    vt = TiledViewType(a.type, shape, tuple(range(nd)), pad, steps)
    return ctx.emit1("tiled_view", [a], vt)


method(ArrayType, "tiled_view", tiled_view)


def require_view(ctx, x: Any) -> Value:
    if isinstance(x, Value) and isinstance(x.type, TiledViewType):
        return x
    raise ctx.type_error(f"Expected a TiledView, but given value has type {type_or_describe(x)}")


def _view_rank(vt: TiledViewType) -> int:
    return len(vt.order)


type_fields(TiledViewType, "dtype", "tile_shape", "traversal_steps")


@surface("views", name="TiledView.num_tiles")
def view_num_tiles(self, axis):
    """Number of tiles of the view along `axis` (an int32 scalar)."""


@view_num_tiles.rule
def _(ctx, self, axis):
    view = require_view(ctx, self)
    ax = const_int(ctx, axis, "axis")
    nd = _view_rank(view.type)
    if not -nd <= ax < nd:
        raise ctx.type_error(f"Axis {ax} is out of range for rank {nd}")
    return ctx.emit1("tiled_num_tiles", [view], TileType(D.int32, ()), axis=ax % nd)


@surface("views", name="TiledView.load")
def view_load(self, index, *, check_bounds=True, latency=None, allow_tma=None):
    """Load the tile at tile index `index` of the view (shape `tile_shape`, padded by the view's mode)."""


@view_load.rule
def _(ctx, self, index, check_bounds, latency, allow_tma):
    view = require_view(ctx, self)
    vt: TiledViewType = view.type
    nd = _view_rank(vt)
    idx = scalar_index_items(ctx, index, nd, "tiled view")
    cb = check_bounds_flag(ctx, check_bounds)
    lat, tma = load_store_hints(ctx, latency, allow_tma)
    full = vt.tile_shape or (1,) * nd
    t = ctx.emit1("tiled_load", [view] + idx, TileType(vt.dtype, full), check_bounds=cb, latency=lat,
                  allow_tma=tma)
    if not vt.tile_shape:
        t = reshape(ctx, t, ())
    return t


@surface("views", name="TiledView.store")
def view_store(self, index, tile, *, check_bounds=True, latency=None, allow_tma=None):
    """Store `tile` (broadcast to `tile_shape`, implicitly cast) at tile index `index` of the view."""


def view_tile_operand(ctx, vt: TiledViewType, tile: Any, noun: str) -> Value:
    """A tile (or scalar) stored into a tiled view's tile: it must broadcast to the tile shape."""
    if not is_tile(tile) and not is_number(tile):
        raise ctx.type_error(f"Expected a tile, but given value has type {type_or_describe(tile)}")
    tshape = tile.type.shape if is_tile(tile) else ()
    if not broadcastable_to(tshape, vt.tile_shape):
        raise ctx.type_error(f"{noun} shape {tshape} is not broadcastable to the tiled view's tile shape "
                             f"{vt.tile_shape}")
    return tile if is_tile(tile) else ctx.to_value(tile)


@view_store.rule
def _(ctx, self, index, tile, check_bounds, latency, allow_tma):
    view = require_view(ctx, self)
    vt: TiledViewType = view.type
    nd = _view_rank(vt)
    idx = scalar_index_items(ctx, index, nd, "tiled view")
    t = view_tile_operand(ctx, vt, tile, "Tile")
    cb = check_bounds_flag(ctx, check_bounds)
    t = broadcast_to(ctx, t, vt.tile_shape)
    t = implicit_cast(ctx, t, vt.dtype, "Stored tile is incompatible with tiled view's dtype")
    if not t.type.shape:
        t = reshape(ctx, t, (1,) * nd)
    lat, tma = load_store_hints(ctx, latency, allow_tma)
    ctx.emit("tiled_store", [view] + idx + [t], [], check_bounds=cb, latency=lat, allow_tma=tma)
    return None


method(TiledViewType, "num_tiles", view_num_tiles)
method(TiledViewType, "load", view_load)
method(TiledViewType, "store", view_store)


# ---- Array.get_raw_memory and RawArrayMemory -------------------------------------------------

@surface("views", name="Array.get_raw_memory")
def get_raw_memory(self):
    """Flat access to the array's storage by element offset from its base (`RawArrayMemory`)."""


@get_raw_memory.rule
def _(ctx, self):
    a = require_array(ctx, self)
    return ctx.emit1("raw_memory", [a], RawMemoryType(a.type))


method(ArrayType, "get_raw_memory", get_raw_memory)


def _require_raw(ctx, x: Any) -> Value:
    if isinstance(x, Value) and isinstance(x.type, RawMemoryType):
        return x
    raise ctx.type_error(f"Expected a RawArrayMemory, but given value has type {type_or_describe(x)}")


type_fields(RawMemoryType, "dtype")


@surface("views", name="RawArrayMemory.load_offset")
def load_offset(self, offset, /, *, mask=None, padding_value=0, latency=None):
    """Load the elements at base + `offset` (in elements; no bounds check); `padding_value` where `mask` is False."""


@load_offset.rule
def _(ctx, self, offset, mask, padding_value, latency):
    # padding_value=None is not accepted: upstream 1.7.0 crashes on it (TileInternalError).
    raw = _require_raw(ctx, self)
    off, shape = raw_offset(ctx, raw, offset)
    m = custom_mask(ctx, mask, shape)
    pad = padding_operand(ctx, padding_value, shape, raw.type.dtype, "offset")
    lat = latency_hint(ctx, latency)
    extra = [m] if m is not None else []
    return ctx.emit1("raw_load", [raw, off, pad] + extra, TileType(raw.type.dtype, shape),
                     has_mask=m is not None, latency=lat)


@surface("views", name="RawArrayMemory.store_offset")
def store_offset(self, offset, value, /, *, mask=None, latency=None):
    """Store `value` (broadcast to the offset shape) at base + `offset` where `mask` holds."""


@store_offset.rule
def _(ctx, self, offset, value, mask, latency):
    raw = _require_raw(ctx, self)
    off, shape = raw_offset(ctx, raw, offset)
    m = custom_mask(ctx, mask, shape)
    v = stored_value(ctx, value, shape, raw.type.dtype, "Value", array_name="RawArrayMemory")
    lat = latency_hint(ctx, latency)
    extra = [m] if m is not None else []
    ctx.emit("raw_store", [raw, off, v] + extra, [], has_mask=m is not None, latency=lat, stored_operand=2)
    return None


method(RawMemoryType, "load_offset", load_offset)
method(RawMemoryType, "store_offset", store_offset)


# ---- foreign pointers (not supported) ---------------------------------------------------------

@attribute(ArrayType, "foreign_pointer")
def _foreign_pointer(ctx, a):
    raise ctx.unsupported("Array.foreign_pointer is not supported by tilescope (foreign pointers "
                          "exist only for foreign calls)")


@surface("views", name="Array.from_foreign")
def from_foreign(pointer, shape, strides):
    """Build an array from a foreign pointer (not supported by tilescope)."""


@from_foreign.rule
def _(ctx, pointer, shape, strides):
    raise ctx.unsupported("Array.from_foreign is not supported by tilescope (foreign pointers "
                          "exist only for foreign calls)")


# `ct.Array.from_foreign(...)` in kernel code reaches this surface function.
SurfaceArray.from_foreign = from_foreign


# ---- items of list-of-arrays parameters ----------------------------------------------------------

@surface("views", name="List.__getitem__")
def list_getitem(self, index):
    """Item `index` (an integer scalar, possibly a run-time value) of a list of arrays."""


@list_getitem.rule
def _(ctx, self, index):
    if not (isinstance(self, Value) and isinstance(self.type, ListType)):
        raise ctx.type_error(f"Expected a list, but given value has type {type_or_describe(self)}")
    if is_tile(index):
        if index.type.shape:
            raise ctx.type_error(f"Expected a scalar or a 0D tile, but given value has type {index.type}")
        if not index.type.dtype.is_int:
            raise ctx.type_error(f"Index must be an integer scalar or 0D Tile, got {index.type}")
        i = index
    elif isinstance(index, int) and not isinstance(index, bool):
        i = ctx.to_value(index)
    else:
        raise ctx.type_error(f"Index must be an integer scalar or 0D Tile, got {type_or_describe(index)}")
    return ctx.emit1("list_item", [self, i], self.type.item)


method(ListType, "__getitem__", list_getitem)


# ---- CPU executor rules ------------------------------------------------------------
# A view value is the array reference itself (the view's type carries tile shape, steps and
# padding); `Array.slice` makes a SliceRef with per-block bounds and `lst[i]` a MultiRef when
# `i` differs between blocks (see backends/numpy/tiles.py).

import numpy as _np  # noqa: E402

from ..backends.numpy import tiles as _T  # noqa: E402
from .memory import load_tile_values, store_tile_values  # noqa: E402


@ARRAY_SLICE.numpy
@_T.per_array
def _(ex, op, ref, start, stop):
    base, origin, extent = _T.geometry(ref)
    ax = op.attrs["axis"]
    lo = _np.asarray(start).astype(_np.int64).reshape(-1)
    hi = _np.asarray(stop).astype(_np.int64).reshape(-1)
    n = extent[ax]
    n_arr = _np.asarray(n, dtype=_np.int64).reshape(-1)
    bad = (lo < 0) | (hi < lo) | (hi > n_arr)
    if ex.checks.bounds and bad.any():
        rows = _np.broadcast_to(bad, (ex.nb,)) & ex.active_mask()
        if rows.any():
            b = int(_np.argmax(rows))
            pick = lambda x: int(_np.broadcast_to(x, (ex.nb,))[b])  # noqa: E731
            _T.report_once(ex, op, "slice",
                           f"Array.slice(axis={ax}, start={pick(lo)}, stop={pick(hi)}) of array '{ref.name}' "
                           f"with extent {pick(n_arr)} along that axis: bounds must satisfy 0 <= start <= stop "
                           f"<= extent (undefined behaviour on the GPU; tilescope clamps them)", ex.block_ids[b])
    lo = _np.clip(lo, 0, n_arr)
    hi = _np.clip(hi, lo, n_arr)
    new_origin, new_extent = list(origin), list(extent)
    new_origin[ax] = lo if origin[ax] is None else origin[ax] + lo
    new_extent[ax] = hi - lo
    return _T.SliceRef(base, new_origin, new_extent)


ARRAY_SLICE.unsupported("transpile", "per-block array views are not transpiled yet")


@TILED_VIEW.numpy
@RAW_MEMORY.numpy
def _(ex, op, ref):
    return ref


@TILED_VIEW.transpile
def _(w, op):
    w.assign(op, f"{w.name(op.operands[0])}  # seen as tiles of {tuple(op.results[0].type.tile_shape)}")


def _view_layout(vt: TiledViewType):
    shape = vt.tile_shape or (1,) * len(vt.order)
    steps = tuple(vt.traversal_steps) if vt.traversal_steps else shape
    return shape, tuple(vt.order), (None if steps == shape else steps)


def _view_attrs(op, **extra) -> dict:
    """A tiled view's addressing as the prelude's load_tile/store_tile/num_tiles take it."""
    shape, order, steps = _view_layout(op.operands[0].type)
    out = dict(extra, shape=shape, order=order)
    if steps is not None:
        out["traversal_steps"] = steps
    return out


@TILED_LOAD.numpy
@_T.per_array
def _(ex, op, ref, *index):
    vt: TiledViewType = op.operands[0].type
    shape, order, steps = _view_layout(vt)
    pad = _T.padding_for(vt.padding_mode, vt.dtype, ex.checks.poison)
    return load_tile_values(ex, op, ref, index, shape, order, steps, pad, op.attrs["check_bounds"])


@TILED_LOAD.transpile
def _(w, op):
    vt = op.operands[0].type
    shape, order, steps = _view_layout(vt)
    extra = dict(shape=shape, order=order, padding_mode=vt.padding_mode, dtype=vt.dtype)
    if steps is not None:
        extra["traversal_steps"] = steps
    w.call(op, "load_tile", "ctx", w.args(op.operands), **extra)


@TILED_STORE.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    vt: TiledViewType = op.operands[0].type
    shape, order, steps = _view_layout(vt)
    store_tile_values(ex, op, ref, rest[:-1], rest[-1], shape, order, steps, op.attrs["check_bounds"])


@TILED_STORE.transpile
def _(w, op):
    w.call(op, "store_tile", "ctx", w.args(op.operands), **_view_attrs(op))


@TILED_NUM_TILES.numpy
@_T.per_array
def _(ex, op, ref):
    vt: TiledViewType = op.operands[0].type
    shape, order, steps = _view_layout(vt)
    axis = op.attrs["axis"]
    step = (steps or shape)[axis]
    _, _, extent = _T.geometry(ref)
    n = _np.asarray(extent[order[axis]], dtype=_np.int64).reshape(-1)
    return (-(-n // step)).astype(_np.int32)


@TILED_NUM_TILES.transpile
def _(w, op):
    w.call(op, "num_tiles", w.name(op.operands[0]), **_view_attrs(op, axis=op.attrs["axis"]))


def raw_lanes(ex, op, ref, offsets, lane_mask, what: str):
    """Raw-memory offsets → (base array, base coordinates, lanes that hit the array). Offsets
    count elements from the view's first element, in storage order (strides are not applied:
    an offset names an address). An address outside the array is undefined behaviour on the
    GPU: reported, and the lane is padded / dropped / a no-op."""
    base = ref.base
    off = _np.asarray(offsets).astype(_np.int64)
    shift = _T.view_base_offset(ref)
    off = off + shift.reshape((-1,) + (1,) * (off.ndim - 1))
    coords, ok = _T.raw_coords(base, off)
    if ex.checks.bounds and not ok.all():
        want = _T.active_rows(ex, ok.ndim)
        if lane_mask is not None:
            want = want & _T.expand_rows(ex, _np.broadcast_to(lane_mask, (_np.shape(lane_mask)[0],) + ok.shape[1:]))
        bad = _np.broadcast_to(want, (ex.nb,) + ok.shape[1:]) & _T.expand_rows(ex, ~ok)
        if bad.any():
            b, lane = _T.first_lane(bad)
            o = int(_np.broadcast_to(_T.expand_rows(ex, off), bad.shape)[(b,) + lane])
            _T.report_once(ex, op, "raw-oob",
                           f"{what} at element offset {o} (lane {lane}) from the base of array '{ref.name}' of "
                           f"shape {tuple(base.array.shape)} and element strides "
                           f"{_T.element_strides(base.array)} is outside the array (undefined behaviour on the "
                           f"GPU; tilescope {'pads the lane' if what == 'raw load' else 'skips the lane'})",
                           ex.block_ids[b])
    return base, coords, ok


def _and_mask(ok, mask):
    return ok if mask is None else (ok & mask)


@RAW_LOAD.numpy
@_T.per_array
def _(ex, op, ref, offsets, pad, *mask):
    m = mask[0] if op.attrs["has_mask"] else None
    base, coords, ok = raw_lanes(ex, op, ref, offsets, m, "raw load")
    return _T.load_elements(ex, op, base, coords, pad, _and_mask(ok, m), what="raw load", report_oob=False)


@RAW_STORE.numpy
@_T.per_array
def _(ex, op, ref, offsets, value, *mask):
    m = mask[0] if op.attrs["has_mask"] else None
    base, coords, ok = raw_lanes(ex, op, ref, offsets, m, "raw store")
    _T.store_elements(ex, op, base, coords, value, _and_mask(ok, m), what="raw store", report_oob=False)


no_rule("transpile", "raw memory and per-block list items are not transpiled yet", RAW_MEMORY, RAW_LOAD, RAW_STORE, LIST_ITEM)


@LIST_LEN.numpy
def _(ex, op, lst):
    return _np.full((1,), len(lst), dtype=_np.int32)


@LIST_LEN.transpile
def _(w, op):
    w.assign(op, f"np.array([len({w.name(op.operands[0])})], dtype=np.int32)")


@LIST_ITEM.numpy
def _(ex, op, lst, index):
    idx = _np.asarray(index).astype(_np.int64).reshape(-1)
    rows = _np.broadcast_to(idx, (ex.nb,))
    live = rows[ex.active_mask()]
    if live.size and (live.min() < 0 or live.max() >= len(lst)):
        bad = int(live[(live < 0) | (live >= len(lst))][0])
        raise ex.error(f"list index {bad} out of range for a list of {len(lst)} arrays "
                       f"(undefined behaviour on the GPU)")
    first = int(live[0]) if live.size else 0
    if not live.size or (live == first).all():
        return lst[first]
    return _T.MultiRef(list(lst), _np.clip(rows, 0, len(lst) - 1).copy())


# ---- typing (the verifier's rules) and folding -------------------------------------------

def _operand_of(op, cls, what: str):
    t = op.operands[0].type
    expect(isinstance(t, cls), f"operand #0 must be {what}, got {t}")
    return t


def _view_type(op) -> TiledViewType:
    return _operand_of(op, TiledViewType, "a tiled view")


def _raw_type(op) -> RawMemoryType:
    return _operand_of(op, RawMemoryType, "raw memory")


@ARRAY_SLICE.typing
def _(op):
    a, r = array_type(op), op.results[0].type
    expect(isinstance(r, ArrayType) and (r.dtype, r.ndim) == (a.dtype, a.ndim), f"a slice of {a} cannot be {r}")
    return [r]


@TILED_VIEW.typing
def _(op):
    a, r = array_type(op), op.results[0].type
    expect(isinstance(r, TiledViewType) and r.array == a, f"a tiled view of {a} cannot be {r}")
    return [r]


@TILED_LOAD.typing
def _(op):
    vt = _view_type(op)
    return [TileType(vt.dtype, tuple(vt.tile_shape) or (1,) * len(vt.order))]


@RAW_MEMORY.typing
def _(op):
    return [RawMemoryType(array_type(op))]


@RAW_LOAD.typing
def _(op):
    return [TileType(_raw_type(op).dtype, op.operands[1].type.shape)]


@LIST_ITEM.typing
def _(op):
    t = op.operands[0].type
    expect(isinstance(t, ListType), f"operand #0 must be a list, got {t}")
    return [t.item]


TILED_STORE.typing(no_results)
RAW_STORE.typing(no_results)
TILED_NUM_TILES.typing(scalar_result(D.int32))
LIST_LEN.typing(scalar_result(D.int32))

no_rule("fold", "a run-time value", ARRAY_SLICE, TILED_VIEW, TILED_LOAD, TILED_STORE, TILED_NUM_TILES, RAW_MEMORY, RAW_LOAD, RAW_STORE, LIST_ITEM, LIST_LEN)
no_rule("tileir", "not lowered to TileIR yet", ARRAY_SLICE, TILED_VIEW, TILED_LOAD, TILED_STORE, TILED_NUM_TILES, RAW_MEMORY, RAW_LOAD, RAW_STORE, LIST_ITEM, LIST_LEN)
