"""Shape manipulation: reshape, permute/transpose, expand/broadcast, cat, extract/insert, byte packing.

Also the tile methods and attributes that forward to them (`t.reshape(...)`,
`t.item()`, `t[:, None]`, `t.shape`...).
"""
from __future__ import annotations

import math

from .. import dtypes as D
from ..ir.primitive import INT, INTS
from ..ir.types import TileType
from ..semantics import shapes
from ..semantics.tilegeom import extract_subtile, insert_subtile, subtile_coords
from .common import (broadcast_to as _broadcast, describe, expect, is_number, is_tile, require_bytecode,
                     require_dtype, reshape as _reshape, tile_operand, tile_type)
from .registry import (DTYPE, METHODS, SURFACE, Attr, SurfaceFunction, method, no_rule, primitive,
                       surface, type_fields)

PERMUTE = primitive("permute", "Result axis i is input axis `axes[i]`.", operands=("x",), attrs={"axes": Attr(INTS)})
CAT = primitive("cat", "Concatenate the two operands along `axis`.", operands=("x", "y"), attrs={"axis": Attr(INT)})
EXTRACT = primitive("extract", "The sub-tile of shape `shape` at sub-tile grid index `index` of `x`.",
                    operands=("x", "*index"), attrs={"shape": Attr(INTS)})
INSERT = primitive("insert", "`x` with the sub-tile at grid index `index` replaced by `value`.",
                   operands=("x", "value", "*index"))
BITCAST = primitive("bitcast", "Reinterpret each element's bits as `dtype` (same bit width).", operands=("x",),
                    attrs={"dtype": Attr(DTYPE)}, traits=("elementwise",))
PACK_BYTES = primitive("pack_bytes", "Flatten a 1-d tile and reinterpret its little-endian bytes as uint8.",
                       operands=("x",))
UNPACK_BYTES = primitive("unpack_bytes", "Reinterpret a 1-d uint8 tile's bytes (little-endian) as elements of "
                                         "`dtype`.", operands=("x",), attrs={"dtype": Attr(DTYPE)})

def require_version(ctx, name: str, minimum) -> None:
    """Upstream rejects some ops below a tileiras version, before looking at their arguments."""
    require_bytecode(ctx, minimum, name)


def _tile(ctx, x, what="x"):
    """A tile operand; loose numbers become 0-d tiles, anything else is a type error."""
    if is_tile(x) or is_number(x):
        return tile_operand(ctx, x, what)
    raise ctx.type_error(f"Expected a tile, but given value has type {type_name(x)}")


def type_name(x) -> str:
    if isinstance(x, tuple):
        return f"Tuple[{','.join(type_name(i) for i in x)}]"
    if x is None:
        return "None"
    if is_number(x):
        return f"Tile[{D.literal_dtype(x).name},()]"
    t = getattr(x, "type", None)
    return str(t) if t is not None else describe(x)


def _int_tuple(ctx, x, what: str, fn: str, *, allow_single_int=False):
    """A compile-time tuple of ints (upstream's `require_constant_int_tuple`)."""
    prefix = f"Invalid argument \"{what}\" of {fn}(): "
    if not ctx.is_constant(x):
        raise ctx.type_error(f"{prefix}Expected a constant integer tuple, but given value is not constant")
    v = ctx.require_constant(x, what)
    if allow_single_int and isinstance(v, int) and not isinstance(v, bool):
        return (v,)
    if not isinstance(v, tuple):
        raise ctx.type_error(f"{prefix}Expected a tuple, but given value has type {type_name(x)}")
    for i, d in enumerate(v):
        if isinstance(d, bool) or not isinstance(d, int):
            raise ctx.type_error(f"{prefix}Expected a tuple of integers, but element #{i} has type "
                                 f"{type_name(d)}")
    return v


def _shape(ctx, x, fn: str, what: str = "shape", *, allow_single_int=False, expected_rank=None,
           allow_0d=False):
    """A compile-time shape: positive powers of two (upstream's `require_constant_shape`)."""
    shape = _int_tuple(ctx, x, what, fn, allow_single_int=allow_single_int)
    prefix = f"Invalid argument \"{what}\" of {fn}(): "
    if expected_rank is not None and len(shape) != expected_rank and not (allow_0d and not shape):
        raise ctx.type_error(f"{prefix}Expected {what} length to be {expected_rank}, got {len(shape)}")
    for i, d in enumerate(shape):
        if d <= 0:
            raise ctx.type_error(f"{prefix}Dimension #{i} of {what} {tuple(shape)} is not positive")
        if d & (d - 1):
            raise ctx.type_error(f"{prefix}Dimension #{i} of {what} {tuple(shape)} is not a power of two")
    return shape


def _axis(ctx, axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ctx.type_error(f"Axis {axis} is out of range for rank {ndim}")
    return axis % ndim


def _const_int(ctx, x, what: str) -> int:
    v = ctx.require_constant(x, what)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ctx.type_error(f"Invalid argument \"{what}\": Expected an integer constant, "
                             f"but given value has type {type_name(x)}")
    return v


# ---- reshape ---------------------------------------------------------------

def reshape_to(ctx, v, new_shape):
    """Reshape with upstream's checks; one dimension may be -1 (inferred)."""
    old = v.type.shape
    numel = math.prod(old)
    infer_at, known = None, 1
    for i, d in enumerate(new_shape):
        if d < 0:
            if d < -1:
                raise ctx.type_error(f"Dimension can only be -1 or non-negative, got {d}")
            if infer_at is not None:
                raise ctx.type_error(f"Only one dimension can be -1, got {tuple(new_shape)}")
            infer_at = i
        else:
            known *= d
    if infer_at is not None:
        if known == 0 or numel % known:
            raise ctx.type_error(f"Cannot reshape {old} to {tuple(new_shape)}")
        new_shape = tuple(new_shape[:infer_at]) + (numel // known,) + tuple(new_shape[infer_at + 1:])
    elif numel != known:
        raise ctx.type_error(f"Cannot reshape {old} to {tuple(new_shape)}")
    return _reshape(ctx, v, tuple(new_shape))


@surface("shape")
def reshape(x, /, shape):
    """Same elements (row-major order) in a new `shape`; one dimension may be -1 (inferred)."""


@reshape.rule
def _(ctx, x, shape):
    new_shape = _int_tuple(ctx, shape, "shape", "reshape")
    return reshape_to(ctx, _tile(ctx, x), new_shape)


# ---- permute / transpose ---------------------------------------------------

def permute_axes(ctx, v, axes):
    axes = tuple(_axis(ctx, a, v.type.ndim) for a in axes)
    if axes == tuple(range(v.type.ndim)):
        return v
    shape = tuple(v.type.shape[a] for a in axes)
    return ctx.emit1("permute", [v], TileType(v.type.dtype, shape), axes=axes)


@surface("shape")
def permute(x, /, axes):
    """Reorder the axes: result axis i is input axis `axes[i]`."""


@permute.rule
def _(ctx, x, axes):
    v = _tile(ctx, x)
    order = _int_tuple(ctx, axes, "axes", "permute")
    if len(order) != v.type.ndim:
        raise ctx.type_error(f"Num axes must match input's rank: {len(order)} vs {v.type.ndim}")
    seen = set()
    for i, a in enumerate(order):
        if a in seen:
            raise ctx.type_error(f"Repeated axis #{i}: {a}")
        seen.add(a)
    return permute_axes(ctx, v, order)


@surface("shape")
def transpose(x, /, axis0=None, axis1=None):
    """Swap two axes; for a 2-d tile both may be omitted (matrix transpose)."""


@transpose.rule
def _(ctx, x, axis0, axis1):
    v = _tile(ctx, x)
    nd = v.type.ndim
    if nd < 2:
        raise ctx.type_error("Cannot transpose a tile with fewer than 2 dimensions")
    a0 = None if axis0 is None else _const_int(ctx, axis0, "axis0")
    a1 = None if axis1 is None else _const_int(ctx, axis1, "axis1")
    if a0 is not None and a1 is not None:
        a0, a1 = _axis(ctx, a0, nd), _axis(ctx, a1, nd)
    elif a0 is None and a1 is None:
        if nd != 2:
            raise ctx.type_error("`axes` must be specified for tile with more than 2 dimensions")
        a0, a1 = 1, 0
    else:
        raise ctx.type_error(f"transpose axes must either both be specified or both be None, "
                             f"got axis0={a0}, axis1={a1}")
    axes = list(range(nd))
    axes[a0], axes[a1] = axes[a1], axes[a0]
    # Upstream always emits the permute here, even for a0 == a1.
    shape = tuple(v.type.shape[a] for a in axes)
    return ctx.emit1("permute", [v], TileType(v.type.dtype, shape), axes=tuple(axes))


# ---- expand_dims / broadcast_to --------------------------------------------

@surface("shape")
def expand_dims(x, /, axis):
    """Insert a new axis of size 1 at position `axis` (also `x[:, None]`)."""


@expand_dims.rule
def _(ctx, x, axis):
    v = _tile(ctx, x)
    a = _axis(ctx, _const_int(ctx, axis, "axis"), v.type.ndim + 1)
    shape = v.type.shape
    return _reshape(ctx, v, shape[:a] + (1,) + shape[a:])


def _tile_getitem(ctx, x, index):
    """`t[None]`, `t[:, None]`, `t[..., None]`: NumPy-style new axes; real indexing is rejected."""
    if index is None:
        index = (None,)
    elif not isinstance(index, tuple):
        raise ctx.type_error("Directly indexing a tile is not supported; use `extract()` or `item()` instead.")
    full = slice(None)
    for i in index:
        if not (i is None or i is Ellipsis or (isinstance(i, slice) and i == full)):
            raise ctx.type_error(f"Expected `None|np.newaxis` or `ellipsis` or full slice (`:`), but got "
                                 f"{type_name(i) if is_tile(i) else i}. Hint: Directly indexing a tile is "
                                 f"not supported, use `extract` or `item`.")
    nd = x.type.ndim
    n_slices = sum(1 for i in index if isinstance(i, slice))
    if n_slices > nd:
        raise ctx.type_error(f"Tile is {nd}-dimensional, but {n_slices} were indexed")
    axes, ellipsis_at = [], None
    for pos, i in enumerate(index):
        if i is Ellipsis:
            if ellipsis_at is not None:
                raise ctx.type_error("Only one ellipsis is allowed")
            ellipsis_at = pos
        elif i is None:
            axes.append(pos - len(index) if ellipsis_at is not None and pos > ellipsis_at else pos)
    rank = nd + len(axes)
    shape = list(x.type.shape)
    for a in axes:
        shape.insert(a + rank if a < 0 else a, 1)
    return reshape_to(ctx, x, tuple(shape))


@surface("shape")
def broadcast_to(x, /, shape):
    """Broadcast to `shape` with NumPy rules (size-1 and missing leading axes repeat)."""


@broadcast_to.rule
def _(ctx, x, shape):
    target = _shape(ctx, shape, "broadcast_to")
    v = _tile(ctx, x)
    return _broadcast(ctx, v, target)


# ---- cat -------------------------------------------------------------------

@surface("shape")
def cat(tiles, /, axis):
    """Concatenate a pair of same-shaped tiles along `axis`."""


@cat.rule
def _(ctx, tiles, axis):
    if not isinstance(tiles, tuple):
        raise ctx.type_error(f"Invalid argument #1 of cat(): Expected a tuple, but given value has "
                             f"type {type_name(tiles)}")
    ax = _const_int(ctx, axis, "axis")
    if not tiles:
        raise ctx.type_error("cat() received an empty tuple")
    if len(tiles) == 1:
        return tiles[0]
    if len(tiles) > 2:
        raise ctx.type_error(f"cat() supports at most 2 tiles, got {len(tiles)}")
    x, y = tiles
    if not is_tile(x):
        raise ctx.type_error(f"Expected tuple of Tile, got a {type_name(x)}")
    dtype, rank = x.type.dtype, x.type.ndim
    shape = list(x.type.shape)
    ax = _axis(ctx, ax, rank)
    if not is_tile(y):
        raise ctx.type_error(f"Expected tuple of Tile, got a {type_name(y)}")
    if y.type.ndim != rank:
        raise ctx.type_error(f"Expected tiles to have the same rank: {rank} != {y.type.ndim}")
    if y.type.dtype is not dtype:
        raise ctx.type_error(f"Expected tiles to have the same dtype: {dtype} != {y.type.dtype}")
    for i, (a, b) in enumerate(zip(shape, y.type.shape)):
        if i != ax and a != b:
            raise ctx.type_error(f"Expected tiles to have the same shape for non axis dimensions, "
                                 f"got {tuple(shape)} and {y.type.shape}")
    shape[ax] += y.type.shape[ax]
    if any(d & (d - 1) for d in shape):
        raise ctx.type_error(f"Result tile shape must be power of 2, got: {shape}")
    return ctx.emit1("cat", [x, y], TileType(dtype, tuple(shape)), axis=ax)


# ---- extract / insert ------------------------------------------------------

def _subtile_index(ctx, x, shape, index, sub_noun: str):
    """Grid-index operands of extract/insert, checked against the sub-tile grid."""
    items = index if isinstance(index, tuple) else (index,)
    for i, item in enumerate(items):
        ok = (isinstance(item, int) and not isinstance(item, bool)) or (
            is_tile(item) and not item.type.shape and D.is_integral(item.type.dtype)
            and not item.type.dtype.is_bool)
        if not ok:
            raise ctx.type_error(f"Invalid argument \"index\": Expected an integer scalar or a tuple of integer "
                                 f"scalars, but element #{i} has type {type_name(item)}")
    nd = x.type.ndim
    if len(items) != nd:
        raise ctx.type_error(f"Index size {len(items)} does not match the tile rank {nd}")
    out = []
    for i, (s1, s2, item) in enumerate(zip(x.type.shape, shape, items)):
        if s1 % s2:
            raise ctx.type_error(f"Input shape {x.type.shape} is not divisible by {sub_noun} shape "
                                 f"{tuple(shape)} at dimension #{i}")
        n = s1 // s2
        known = item if isinstance(item, int) else item.const
        if known is not None and not 0 <= known < n:
            raise ctx.type_error(f"Index {known} out of bounds at dimension #{i}: valid range is [0, {n}) in "
                                 f"tile space (input shape {x.type.shape}, {sub_noun} shape {tuple(shape)})")
        out.append(ctx.to_value(item, D.int32) if isinstance(item, int) else item)
    return out


@surface("shape")
def extract(x, /, index, shape):
    """The sub-tile of `shape` at grid index `index` (counted in sub-tiles, like `load`)."""


@extract.rule
def _(ctx, x, index, shape):
    v = _tile(ctx, x)
    nd = v.type.ndim
    shp = _shape(ctx, shape, "extract", allow_single_int=True, expected_rank=nd, allow_0d=True)
    sub = shp if shp else (1,) * nd
    idx = _subtile_index(ctx, v, sub, index, "result")
    out = ctx.emit1("extract", [v] + idx, TileType(v.type.dtype, tuple(sub)), shape=tuple(sub))
    return _reshape(ctx, out, shp)


@surface("shape")
def insert(x, /, index, value):
    """`x` with the sub-tile at grid index `index` replaced by `value` (needs tileiras 13.4)."""


@insert.rule
def _(ctx, x, index, value):
    require_version(ctx, "insert", (13, 4))
    v = _tile(ctx, x)
    val = _tile(ctx, value, "value")
    if val.type.dtype is not v.type.dtype:
        raise ctx.type_error(f"Cannot insert a tile of dtype {val.type.dtype} into a tile of dtype "
                             f"{v.type.dtype}")
    if not val.type.shape:
        val = _reshape(ctx, val, (1,) * v.type.ndim)
    elif val.type.ndim != v.type.ndim:
        raise ctx.type_error(f"Value rank {val.type.ndim} does not match the tile rank {v.type.ndim}")
    idx = _subtile_index(ctx, v, val.type.shape, index, "value")
    return ctx.emit1("insert", [v, val] + idx, v.type)


# ---- bytes -----------------------------------------------------------------

def _is_numeric(dt) -> bool:
    # Byte packing takes every element type upstream calls numeric: restricted floats (fp8, fp4,
    # tf32) included (upstream 1.7.0 accepts pack_to_bytes/unpack_from_bytes on them).
    return dt.is_bool or dt.is_int or dt.is_float


def _numeric_tile(ctx, x):
    v = _tile(ctx, x)
    if not _is_numeric(v.type.dtype):
        raise ctx.type_error(f"Expected tile dtype to satisfy constraint is_numeric, but got {v.type}")
    return v


def _bitcast(ctx, v, dtype):
    if v.type.dtype is dtype:
        return v
    return ctx.emit1("bitcast", [v], TileType(dtype, v.type.shape), dtype=dtype)


@surface("shape")
def pack_to_bytes(x, /):
    """Flatten `x` and reinterpret its raw bytes as a 1-d uint8 tile."""


@pack_to_bytes.rule
def _(ctx, x):
    v = _numeric_tile(ctx, x)
    dt = v.type.dtype
    v = reshape_to(ctx, v, (-1,))
    if dt.is_bool:
        raise ctx.type_error(f"pack_to_bytes from a {dt} tile is not supported")
    if dt.bitwidth == 8:
        return _bitcast(ctx, v, D.uint8)
    n = v.type.shape[0]
    size, rem = divmod(n * dt.bitwidth, 8)
    if rem:
        raise ctx.type_error(f"Cannot pack tile {v.type}: total bits ({n} * {dt.bitwidth}) not divisible by 8")
    return ctx.emit1("pack_bytes", [v], TileType(D.uint8, (size,)))


@surface("shape")
def unpack_from_bytes(x, /, dtype):
    """Reinterpret a 1-d uint8 tile's bytes as a 1-d tile of `dtype` (inverse of pack_to_bytes)."""


@unpack_from_bytes.rule
def _(ctx, x, dtype):
    v = _numeric_tile(ctx, x)
    dt = require_dtype(ctx, dtype)
    if not _is_numeric(dt):
        raise ctx.type_error(f"Expected a numeric dtype, got {dt}")
    if v.type.ndim != 1:
        raise ctx.type_error(f"unpack_from_bytes requires a 1D tile, got {v.type.ndim}D tile with shape "
                             f"{v.type.shape}")
    if v.type.dtype is not D.uint8:
        raise ctx.type_error(f"unpack_from_bytes requires uint8 tile, got {v.type.dtype} tile")
    if dt.is_bool:
        raise ctx.type_error(f"unpack_from_bytes to a {dt} tile is not supported")
    if dt.bitwidth == 8:
        return _bitcast(ctx, v, dt)
    n = v.type.shape[0]
    size, rem = divmod(n * 8, dt.bitwidth)
    if rem:
        raise ctx.type_error(f"Cannot unpack tile {v.type} to {dt}: total bits ({n} * 8) not divisible by "
                             f"{dt.bitwidth}")
    return ctx.emit1("unpack_bytes", [v], TileType(dt, (size,)), dtype=dt)


# ---- Tile methods and attributes --------------------------------------------

def _tile_method(name: str):
    """A method-only operation (not a `cuda.tile` function): a SurfaceFunction kept out of SURFACE."""
    def wrap(stub):
        sf = SurfaceFunction(stub, name, "shape")
        method(TileType, name.rsplit(".", 1)[-1], sf)
        return sf
    return wrap


@_tile_method("Tile.item")
def tile_item(self):
    """The single element of the tile as a 0-d tile (same as `self.reshape(())`)."""


@tile_item.rule
def _(ctx, x):
    return reshape_to(ctx, x, ())


@_tile_method("Tile.__getitem__")
def tile_getitem(self, index):
    """NumPy-style new axes: `t[None]`, `t[:, None]`, `t[..., None]`."""


tile_getitem.rule(_tile_getitem)

for _name in ("reshape", "permute", "transpose", "extract", "insert"):
    method(TileType, _name, SURFACE[_name])
if (TileType, "astype") not in METHODS:
    from .elementwise import astype as _astype
    method(TileType, "astype", _astype)


type_fields(TileType, "dtype", "shape", "ndim")


# ---- CPU executor rules ------------------------------------------------------
# Values carry a leading block axis (size B, or 1 when uniform across blocks).

import numpy as _np


@PERMUTE.numpy
def _(ex, op, x):
    return shapes.permute(x, op.attrs["axes"])


@CAT.numpy
def _(ex, op, x, y):
    return shapes.cat(x, y, op.attrs["axis"])


def _subtile_coords(ex, op, index, sub_shape, full_shape, what: str):
    """`tilegeom.subtile_coords`, reporting (with bounds checks on) the first active block whose
    index lies outside the sub-tile grid (undefined behaviour on the GPU; the coordinates are
    clipped, so nothing outside the tile is touched)."""
    coords, valid = subtile_coords(index, sub_shape, full_shape)
    if ex.checks.bounds and not valid.all():
        bad = shapes.expand_lead(~valid, ex.nb) & ex.active_mask()
        if bad.any():
            b = int(_np.argmax(bad))
            idx = tuple(int(shapes.expand_lead(i.reshape(-1), ex.nb)[b]) for i in index)
            ex.report(f"{what} at sub-tile index {idx} is outside the grid of {tuple(sub_shape)} sub-tiles "
                      f"of a {tuple(full_shape)} tile (undefined behaviour on the GPU)",
                      block=tuple(int(v) for v in ex.block_ids[b]))
    return coords, valid


@EXTRACT.numpy
def _(ex, op, x, *index):
    return extract_subtile(x, index, op.attrs["shape"],
                           lambda i, sub, full: _subtile_coords(ex, op, i, sub, full, "extract"))


@INSERT.numpy
def _(ex, op, x, val, *index):
    return insert_subtile(x, val, index, lambda i, sub, full: _subtile_coords(ex, op, i, sub, full, "insert"))


@BITCAST.numpy
def _(ex, op, x):
    return shapes.bitcast(x, op.attrs["dtype"])


@PACK_BYTES.numpy
def _(ex, op, x):
    return shapes.pack_bytes(x, op.operands[0].type.dtype)


@UNPACK_BYTES.numpy
def _(ex, op, x):
    return shapes.unpack_bytes(x, op.attrs["dtype"])


@PERMUTE.transpile
def _(w, op):
    w.call(op, "permute", w.name(op.operands[0]), w.literal(tuple(op.attrs["axes"])))


@CAT.transpile
def _(w, op):
    w.call(op, "cat", w.args(op.operands), axis=op.attrs["axis"])


@EXTRACT.transpile
def _(w, op):
    w.call(op, "extract", w.args(op.operands), shape=op.attrs["shape"])


@INSERT.transpile
def _(w, op):
    w.call(op, "insert", w.args(op.operands))


@BITCAST.transpile
@UNPACK_BYTES.transpile
def _(w, op):
    w.call(op, op.name, w.name(op.operands[0]), w.literal(op.attrs["dtype"]))


@PACK_BYTES.transpile
def _(w, op):
    w.call(op, "pack_bytes", w.name(op.operands[0]), w.literal(op.operands[0].type.dtype))


# ---- typing (the verifier's rules) and folding -------------------------------------------

@PERMUTE.typing
def _(op):
    t, axes = tile_type(op), op.attrs["axes"]
    expect(sorted(axes) == list(range(len(t.shape))), f"axes {axes} do not permute {t}")
    return [TileType(t.dtype, tuple(t.shape[a] for a in axes))]


@CAT.typing
def _(op):
    x, y, axis = tile_type(op, 0), tile_type(op, 1), op.attrs["axis"]
    expect(x.dtype is y.dtype and len(x.shape) == len(y.shape) and 0 <= axis < len(x.shape),
           f"cannot join {x} and {y} along axis {axis}")
    shape = list(x.shape)
    shape[axis] += y.shape[axis]
    return [TileType(x.dtype, tuple(shape))]


@EXTRACT.typing
def _(op):
    return [TileType(tile_type(op).dtype, tuple(op.attrs["shape"]))]


@INSERT.typing
def _(op):
    t, sub = tile_type(op, 0), tile_type(op, 1)
    expect(sub.dtype is t.dtype and len(sub.shape) == len(t.shape), f"cannot insert {sub} into {t}")
    return [t]


@BITCAST.typing
def _(op):
    t, dt = tile_type(op), op.attrs["dtype"]
    expect(t.dtype.bitwidth == dt.bitwidth, f"cannot bitcast {t} to {dt}: bit widths differ")
    return [TileType(dt, t.shape)]


@PACK_BYTES.typing
def _(op):
    t = tile_type(op)
    expect(len(t.shape) == 1, f"pack_bytes takes a 1-d tile, not {t}")
    return [TileType(D.uint8, (t.shape[0] * t.dtype.bitwidth // 8,))]


@UNPACK_BYTES.typing
def _(op):
    t, dt = tile_type(op), op.attrs["dtype"]
    expect(t.dtype is D.uint8 and len(t.shape) == 1, f"unpack_bytes takes a 1-d uint8 tile, not {t}")
    return [TileType(dt, (t.shape[0] * 8 // dt.bitwidth,))]


no_rule("fold", "tile-shaped (constants fold as scalars only)", PERMUTE, CAT, EXTRACT, INSERT, BITCAST, PACK_BYTES, UNPACK_BYTES)
no_rule("tileir", "not lowered to TileIR yet", INSERT, PACK_BYTES, UNPACK_BYTES)
