"""Element-indexed memory access: gather/scatter and advanced (sparse + dense) indexing.

`gather`/`scatter` address single elements: one integer index tile per array axis,
all broadcast to a common shape that is the shape of the result. Out-of-bounds
(and negative) indices are masked off when `check_bounds` is set.

`load_advanced_indexing`/`store_advanced_indexing` address a tile made of one
*sparse* axis (a 1-D tile of element indices) and *dense* axes (`ct.Slice(start,
length)`, a contiguous element range).

The pointer-style helpers here (index broadcasting, custom masks, stored values)
are shared with the atomics and raw-memory families.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

from .. import dtypes as D
from ..annotations import Slice
from ..enums import PaddingMode
from ..ir.core import Value
from ..ir.primitive import BOOL, INT, INTS
from ..ir.types import TileType
from .common import (broadcast_to, const_bool, const_enum, describe, expect, implicit_cast, is_number, is_tile,
                     common_shape, require_array, tile_operand)
from .memory import HINT_ATTRS, index_items, latency_hint, load_store_hints
from .registry import PADDING, Attr, no_rule, optional, primitive, register_python_call, surface

Shape = Tuple[int, ...]

GATHER = primitive(
    "gather", "Element load: result[p] = array[idx_0[p], ..., idx_{n-1}[p]] where in bounds (indices "
    "compared as unsigned, so negatives are out of bounds) and mask[p]; else padding[p]. One index tile "
    "(of the result shape) per array axis.", operands=("array", "*index", "padding", "mask?has_mask"),
    attrs={"check_bounds": Attr(BOOL, True), "latency": optional(INT), "has_mask": Attr(BOOL, False)})
SCATTER = primitive(
    "scatter", "Element store: array[idx_0[p], ...] = value[p] where in bounds (when `check_bounds`) and "
    "mask[p].", operands=("array", "*index", "value", "mask?has_mask"), results=0, traits=("side_effects",),
    attrs={"check_bounds": Attr(BOOL, True), "latency": optional(INT), "has_mask": Attr(BOOL, False),
           "stored_operand": Attr(INT, -1)})
LOAD_ADVANCED = primitive(
    "load_advanced", "Tile load whose axis `sparse_dim` takes the elements listed by a 1-D index tile and "
    "whose other axes are contiguous ranges [start, start+shape[d]); one operand per axis: the index tile "
    "(sparse axis) or the start scalar (dense axes).", operands=("array", "*per_axis"),
    attrs={"sparse_dim": Attr(INT), "shape": Attr(INTS), "padding_mode": Attr(PADDING), **HINT_ATTRS})
STORE_ADVANCED = primitive(
    "store_advanced", "Tile store with load_advanced's addressing; out-of-bounds elements are dropped.",
    operands=("array", "*per_axis", "tile"), results=0, traits=("side_effects",),
    attrs={"sparse_dim": Attr(INT), "shape": Attr(INTS), **HINT_ATTRS, "stored_operand": Attr(INT, -1)})


# ---- shared helpers for pointer-style ops --------------------------------------

def _is_index_tile(x: Any) -> bool:
    if is_tile(x):
        return x.type.dtype.is_int
    return isinstance(x, int) and not isinstance(x, bool)


def _type_text(x: Any) -> str:
    if isinstance(x, Value):
        return str(x.type)
    if isinstance(x, tuple):
        return "Tuple[" + ",".join(_type_text(i) for i in x) + "]"
    return describe(x)


def broadcastable_to(src: Shape, dst: Shape) -> bool:
    return len(src) <= len(dst) and all(s in (1, d) for s, d in zip(src[::-1], dst[::-1]))


def element_indices(ctx, array: Value, indices: Any) -> Tuple[List[Value], Shape]:
    """Per-axis element indices (signed or unsigned ints, any shape) broadcast to their common shape."""
    ndim = array.type.ndim
    items = index_items(ctx, indices, _is_index_tile,
                        "a tuple of integer scalars/tiles or a single integer scalar/tile", _type_text)
    if len(items) != ndim:
        msg = f"For array of rank {ndim}, `indices` must be a tuple of length {ndim}"
        if ndim == 1:
            msg += ", or a single scalar/tile"
        raise ctx.type_error(msg + f". However, `indices` has type {_type_text(indices)}.")
    values = [tile_operand(ctx, i, "index") for i in items]
    shape = common_shape(ctx, values, "Index")
    return [broadcast_to(ctx, v, shape) for v in values], shape


def custom_mask(ctx, mask: Any, shape: Shape) -> Optional[Value]:
    """The user's boolean mask broadcast to the index shape (None when absent)."""
    if mask is None:
        return None
    if not is_tile(mask) and not is_number(mask):
        raise ctx.type_error(f"Expected a tile, but given value has type {_type_text(mask)}")
    m = tile_operand(ctx, mask, "mask")
    if not m.type.dtype.is_bool:
        raise ctx.type_error(f"Custom mask must have boolean dtype, but got {m.type.dtype}")
    if not broadcastable_to(m.type.shape, shape):
        raise ctx.type_error(f"Custom mask shape {m.type.shape} is not broadcastable to the index shape {shape}")
    return broadcast_to(ctx, m, shape)


def _require_tile_like(ctx, x: Any, what: str) -> None:
    if not is_tile(x) and not is_number(x):
        raise ctx.type_error(f"{what} must be a tile or a scalar, got {_type_text(x)}")


def stored_value(ctx, value: Any, shape: Shape, dtype: D.DType, what: str, *,
                 array_name: str = "array") -> Value:
    """A value stored at every index: broadcastable to the index shape, implicitly cast to `dtype`."""
    _require_tile_like(ctx, value, what)
    vshape = value.type.shape if is_tile(value) else ()
    if not broadcastable_to(vshape, shape):
        raise ctx.type_error(f"{what} shape {vshape} is not broadcastable to the index shape {shape}")
    v = implicit_cast(ctx, value, dtype, f"Stored value is incompatible with {array_name}'s dtype")
    return broadcast_to(ctx, v, shape)


def padding_operand(ctx, padding_value: Any, shape: Shape, dtype: D.DType, what: str = "index") -> Value:
    _require_tile_like(ctx, padding_value, "padding_value")
    pshape = padding_value.type.shape if is_tile(padding_value) else ()
    if not broadcastable_to(pshape, shape):
        raise ctx.type_error(f"Padding shape {pshape} is not broadcastable to the {what} shape {shape}")
    v = implicit_cast(ctx, padding_value, dtype, "Invalid padding value")
    return broadcast_to(ctx, v, shape)


def mask_operands(mask: Optional[Value]) -> Tuple[List[Value], bool]:
    """The optional mask as trailing operands, and the `has_mask` attribute."""
    return ([mask], True) if mask is not None else ([], False)


def indexed_lanes(ctx, array: Any, indices: Any, check_bounds: Any) -> Tuple[bool, Value, List[Value], Shape]:
    """(check_bounds, array, per-axis element indices, lane shape) of an element-indexed op."""
    cb = const_bool(ctx, check_bounds, "check_bounds")
    a = require_array(ctx, array)
    idx, shape = element_indices(ctx, a, indices)
    return cb, a, idx, shape


# ---- gather / scatter -------------------------------------------------------------

@surface("gather")
def gather(array, indices, /, *, mask=None, padding_value=0, check_bounds=True, latency=None):
    """Load the elements of `array` at `indices` (one integer tile or scalar per array axis).

    The indices broadcast to a common shape, which is the result's shape. Where `mask`
    is False or an index is out of bounds (checked unless `check_bounds=False`;
    negative indices count as out of bounds), the result takes `padding_value`.
    """


@gather.rule
def _(ctx, array, indices, mask, padding_value, check_bounds, latency):
    cb, a, idx, shape = indexed_lanes(ctx, array, indices, check_bounds)
    m = custom_mask(ctx, mask, shape)
    pad = padding_operand(ctx, padding_value, shape, a.type.dtype)
    lat = latency_hint(ctx, latency)
    extra, has_mask = mask_operands(m)
    return ctx.emit1("gather", [a] + idx + [pad] + extra, TileType(a.type.dtype, shape),
                     check_bounds=cb, latency=lat, has_mask=has_mask)


@surface("gather")
def scatter(array, indices, value, /, *, mask=None, check_bounds=True, latency=None):
    """Store `value` into the elements of `array` at `indices` (one integer tile or scalar per axis).

    `value` broadcasts to the indices' common shape. Nothing is stored where `mask` is
    False or (unless `check_bounds=False`) where an index is out of bounds.
    """


@scatter.rule
def _(ctx, array, indices, value, mask, check_bounds, latency):
    cb, a, idx, shape = indexed_lanes(ctx, array, indices, check_bounds)
    m = custom_mask(ctx, mask, shape)
    v = stored_value(ctx, value, shape, a.type.dtype, "Value")
    lat = latency_hint(ctx, latency)
    extra, has_mask = mask_operands(m)
    ctx.emit("scatter", [a] + idx + [v] + extra, [], check_bounds=cb, latency=lat, has_mask=has_mask,
             stored_operand=1 + len(idx))
    return None


# ---- ct.Slice and advanced indexing ------------------------------------------------

@dataclass(frozen=True)
class IndexSlice:
    """`ct.Slice(start, length)`: a dense axis of an advanced index."""
    start: Any
    length: Any


def _signed_int_scalar(ctx, x: Any) -> Any:
    if is_tile(x):
        t = x.type
        if t.shape:
            raise ctx.type_error(f"Expected a scalar or a 0D tile, but given value has type {t}")
        if not (t.dtype.is_int and t.dtype.is_signed):
            raise ctx.type_error(f"Expected a signed integer scalar, but got {t}")
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    if isinstance(x, bool):
        raise ctx.type_error("Expected a signed integer scalar, but got Tile[bool_,()]")
    raise ctx.type_error(f"Expected a scalar or a 0D tile, but given value has type {_type_text(x)}")


def _slice_rule(ctx, *args, **kwargs):
    if kwargs or len(args) != 2:
        raise ctx.type_error("Slice(start, length, /) takes exactly two positional arguments")
    start, length = (_signed_int_scalar(ctx, a) for a in args)
    return IndexSlice(start, length)


register_python_call(Slice, _slice_rule)


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _advanced_index(ctx, indices: Any, ndim: int) -> Tuple[int, Shape, List[Value]]:
    """(sparse axis, tile shape, per-axis operands) of an advanced index tuple."""
    if not isinstance(indices, tuple):
        raise ctx.type_error(f"Expected a tuple, but given value has type {_type_text(indices)}")
    if len(indices) != ndim:
        raise ctx.type_error(f"load_advanced_indexing/store_advanced_indexing index length {len(indices)} "
                             f"does not match array rank {ndim}")
    sparse: List[int] = []
    shape: List[int] = []
    operands: List[Value] = []
    for dim, item in enumerate(indices):
        if is_tile(item) or is_number(item):
            t = tile_operand(ctx, item, "index")
            if t.type.ndim != 1:
                raise ctx.type_error(f"Sparse index at dim {dim} must be a 1D integer tile, got {t.type.ndim}D")
            if not t.type.dtype.is_int:
                raise ctx.type_error(f"Sparse index at dim {dim} must be an integer tile, "
                                     f"got dtype {t.type.dtype}")
            sparse.append(dim)
            shape.append(t.type.shape[0])
            operands.append(t)
        elif isinstance(item, IndexSlice):
            if not ctx.is_constant(item.length):
                raise ctx.type_error(f"ct.Slice length at dim {dim} must be a compile-time constant "
                                     f"in load_advanced_indexing/store_advanced_indexing")
            n = ctx.const_value(item.length)
            if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
                raise ctx.type_error(f"ct.Slice length at dim {dim} must be a positive integer, got {n}")
            shape.append(n)
            operands.append(ctx.to_value(item.start, D.int32) if not is_tile(item.start) else item.start)
        else:
            raise ctx.type_error(f"load_advanced_indexing/store_advanced_indexing index at dim {dim} must be a "
                                 f"1D integer Tile (sparse dim) or ct.Slice(start, length) (dense dim), "
                                 f"got type {_type_text(item)}")
    if not sparse:
        raise ctx.type_error("load_advanced_indexing/store_advanced_indexing: exactly one index must be a 1D "
                             "integer Tile (the sparse dim); none found")
    if len(sparse) > 1:
        raise ctx.type_error(f"load_advanced_indexing/store_advanced_indexing: exactly one index must be a 1D "
                             f"integer Tile (the sparse dim); found {len(sparse)} at dims {sparse}")
    for dim, n in enumerate(shape):
        if not _is_pow2(n):
            raise ctx.type_error(f"Index at dim {dim} has size {n}; must be a power of two")
    return sparse[0], tuple(shape), operands


def _require_rank2(ctx, a: Value, fn: str, alt: str):
    if a.type.ndim < 2:
        raise ctx.type_error(f"{fn} requires a 2D or higher-rank array; use ct.{alt}() for 1D arrays")


@surface("gather")
def load_advanced_indexing(array, indices, /, *, padding_mode=PaddingMode.UNDETERMINED, latency=None,
                           allow_tma=None):
    """Load a tile whose one sparse axis lists element indices and whose other axes are dense ranges.

    `indices` has one entry per array axis: exactly one 1-D integer tile (the sparse axis)
    and `ct.Slice(start, length)` for the others (`length` a constant power of two).
    The result shape is (len_0, ..., len_{n-1}).
    """


@load_advanced_indexing.rule
def _(ctx, array, indices, padding_mode, latency, allow_tma):
    a = require_array(ctx, array)
    _require_rank2(ctx, a, "load_advanced_indexing", "gather")
    sparse_dim, shape, operands = _advanced_index(ctx, indices, a.type.ndim)
    pad = const_enum(ctx, padding_mode, PaddingMode, "padding_mode")
    lat, tma = load_store_hints(ctx, latency, allow_tma)
    return ctx.emit1("load_advanced", [a] + operands, TileType(a.type.dtype, shape), sparse_dim=sparse_dim,
                     shape=shape, padding_mode=pad, latency=lat, allow_tma=tma)


@surface("gather")
def store_advanced_indexing(array, indices, tile, /, *, latency=None, allow_tma=None):
    """Store `tile` with `load_advanced_indexing`'s addressing; its shape must equal the indexed shape."""


@store_advanced_indexing.rule
def _(ctx, array, indices, tile, latency, allow_tma):
    a = require_array(ctx, array)
    _require_rank2(ctx, a, "store_advanced_indexing", "scatter")
    sparse_dim, shape, operands = _advanced_index(ctx, indices, a.type.ndim)
    _require_tile_like(ctx, tile, "tile")
    tshape = tile.type.shape if is_tile(tile) else ()
    if tshape != shape:
        raise ctx.type_error(f"Tile shape {tshape} does not match the shape implied by indices {shape}")
    t = implicit_cast(ctx, tile, a.type.dtype, "Stored tile dtype is incompatible with array dtype")
    lat, tma = load_store_hints(ctx, latency, allow_tma)
    ctx.emit("store_advanced", [a] + operands + [t], [], sparse_dim=sparse_dim, shape=shape, latency=lat,
             allow_tma=tma)
    return None


__all__ = ["gather", "scatter", "load_advanced_indexing", "store_advanced_indexing", "IndexSlice",
           "element_indices", "custom_mask", "stored_value", "padding_operand", "broadcastable_to"]


# ---- CPU executor rules ------------------------------------------------------------
# Per-lane element access through backends/numpy/tiles.py: negative and too-large indices
# are out of bounds (no wrap-around); such lanes and masked-off lanes read the padding
# value or write nothing, which is defined behaviour (the usual masked tail) and never
# reported. Without bounds checks (`check_bounds=False`) an out-of-bounds lane is undefined
# behaviour on the GPU: tilescope reports it and still stays in bounds.

import numpy as _np  # noqa: E402

from ..backends.numpy import tiles as _T  # noqa: E402


def _split_pointer_operands(op, rest, n_values: int):
    """(indices, values, mask) of a gather/scatter: n index tiles, n_values tiles, optional mask."""
    n = op.operands[0].type.ndim
    idx, values = rest[:n], rest[n:n + n_values]
    mask = rest[n + n_values] if op.attrs["has_mask"] else None
    return list(idx), list(values), mask


@GATHER.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    idx, (pad,), mask = _split_pointer_operands(op, rest, 1)
    return _T.load_elements(ex, op, ref, idx, pad, mask, **_T.bounds_reporting(op, "gather"))


@SCATTER.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    idx, (value,), mask = _split_pointer_operands(op, rest, 1)
    _T.store_elements(ex, op, ref, idx, value, mask, **_T.bounds_reporting(op, "scatter"))
    return None


def _advanced_coords(op, per_axis):
    """View coordinates of load_advanced/store_advanced: the sparse axis takes the listed
    indices, each dense axis the range [start, start + length)."""
    shape, sparse = op.attrs["shape"], op.attrs["sparse_dim"]
    nd = len(shape)
    coords = []
    for d, x in enumerate(per_axis):
        x = _np.asarray(x).astype(_np.int64)
        place = (-1,) + tuple(shape[d] if k == d else 1 for k in range(nd))
        if d == sparse:
            coords.append(x.reshape(place))
        else:
            local = _np.arange(shape[d], dtype=_np.int64).reshape((1,) + place[1:])
            coords.append(x.reshape((-1,) + (1,) * nd) + local)
    return coords


@LOAD_ADVANCED.numpy
@_T.per_array
def _(ex, op, ref, *per_axis):
    t = op.results[0].type
    pad = _T.padding_for(op.attrs["padding_mode"], t.dtype, ex.checks.poison)
    vals = _T.load_elements(ex, op, ref, _advanced_coords(op, per_axis), pad, what="advanced-index load",
                            report_oob=False)
    return _np.broadcast_to(vals, (vals.shape[0],) + tuple(t.shape))


@STORE_ADVANCED.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    per_axis, tile = rest[:-1], rest[-1]
    _T.store_elements(ex, op, ref, _advanced_coords(op, per_axis), tile, what="advanced-index store",
                      report_oob=False)
    return None


@GATHER.transpile
def _(w, op):
    w.call(op, "gather", w.args(op.operands), **w.attrs(op, "has_mask"), ndim=op.operands[0].type.ndim)


@SCATTER.transpile
def _(w, op):
    w.call(op, "scatter", "ctx", w.args(op.operands), **w.attrs(op, "has_mask"), ndim=op.operands[0].type.ndim)


no_rule("transpile", "advanced indexing is not transpiled yet", LOAD_ADVANCED, STORE_ADVANCED)


# ---- typing (the verifier's rules) and folding -------------------------------------------

def _expect_lanes(op, n_values: int) -> None:
    """array, one index tile per axis, `n_values` value operands, then the mask if any."""
    want = 1 + op.operands[0].type.ndim + n_values + op.attrs["has_mask"]
    expect(len(op.operands) == want, f"{len(op.operands)} operands, expected {want} for this array")


@GATHER.typing
def _(op):
    _expect_lanes(op, 1)
    a = op.operands[0].type
    pad = op.operands[1 + a.ndim].type            # the padding is broadcast to the lanes' shape
    expect(pad.dtype is a.dtype, f"padding {pad} for an array of {a.dtype}")
    return [TileType(a.dtype, pad.shape)]


@LOAD_ADVANCED.typing
def _(op):
    a = op.operands[0].type
    expect(len(op.operands) == a.ndim + 1, f"{len(op.operands) - 1} per-axis operands for an array of rank {a.ndim}")
    return [TileType(a.dtype, tuple(op.attrs["shape"]))]


@SCATTER.typing
def _(op):
    _expect_lanes(op, 1)
    return []


@STORE_ADVANCED.typing
def _(op):
    n = op.operands[0].type.ndim
    expect(len(op.operands) == n + 2, f"{len(op.operands) - 2} per-axis operands for an array of rank {n}")
    return []

no_rule("fold", "a run-time memory access", GATHER, SCATTER, LOAD_ADVANCED, STORE_ADVANCED)
no_rule("tileir", "not lowered to TileIR yet", LOAD_ADVANCED, STORE_ADVANCED)
