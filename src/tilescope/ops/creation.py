"""Tile creation: arange, full, zeros, ones, astile.

Tile shapes are compile-time tuples of powers of two. Fill values known at compile
time become constant tiles (not range-checked against the dtype, as upstream);
run-time fill values are converted and broadcast.
"""
from __future__ import annotations

import math

from .. import dtypes as D
from ..ir.primitive import LITERALS
from ..ir.types import TileType
from ..semantics import shapes
from .common import (broadcast_to, const_int, const_shape, convert, describe, expect, is_number, is_tile,
                     require_dtype)
from .elementwise import binary_arith, cast
from .registry import Attr, no_rule, primitive, surface

ARANGE = primitive("arange", "The 1-d tile [0, 1, ..., n-1] of the result's integer dtype.")
LITERAL_TILE = primitive("literal_tile", "A compile-time constant tile: `values` are its elements in row-major "
                                         "order, already converted to the result dtype.",
                         attrs={"values": Attr(LITERALS)})
FROM_SCALARS = primitive("from_scalars", "The tile whose row-major elements are the scalar operands (all of the "
                                         "result dtype), reshaped to the result shape.", operands=("*scalars",))
UNDEF = primitive("undef", "A tile of the result type whose value does not matter (a loop-carried value "
                           "before its first assignment).")


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _is_one_of(ctx, x, value) -> bool:
    """Whether x is a compile-time constant equal to `value` (so the op can be skipped)."""
    return ctx.is_constant(x) and not isinstance(ctx.const_value(x), tuple) and ctx.const_value(x) == value


@surface("creation")
def arange(size, /, *, dtype, start=0, step=1):
    """The 1-d tile `start, start + step, ..., start + (size - 1) * step` of `dtype`.

    `size` must be a compile-time power of two; `start` and `step` may be run-time
    scalars and are converted to `dtype` first.
    """


@arange.rule
def _(ctx, size, dtype, start, step):
    n = const_int(ctx, size, "size")
    dt = require_dtype(ctx, dtype)
    if not _is_pow2(n):
        raise ctx.type_error(f"Result tile shape must be power of 2, got {n}")
    # Integers count natively; other dtypes count in int32 and convert.
    result = ctx.emit1("arange", [], TileType(dt if dt.is_int else D.DEFAULT_INT, (n,)))
    result = convert(ctx, result, dt)
    if not _is_one_of(ctx, step, 1):
        result = binary_arith(ctx, "mul", result, cast(ctx, _scalar_arg(ctx, step, "step"), dt))
    if not _is_one_of(ctx, start, 0):
        result = binary_arith(ctx, "add", result, cast(ctx, _scalar_arg(ctx, start, "start"), dt))
    return result


def _scalar_arg(ctx, x, what):
    if is_tile(x) or is_number(x):
        return x
    raise ctx.type_error(f"arange() {what} must be a scalar, got {describe(x)}")


def _constant_tile(ctx, value, dtype: D.DType, shape):
    """A tile of `shape` filled with the constant `value` (a splat of a scalar constant)."""
    return broadcast_to(ctx, ctx.constant(value, dtype), shape)


@surface("creation")
def full(shape, fill_value, dtype):
    """A tile of `shape` and `dtype` with every element `fill_value` (a constant or a run-time scalar)."""


@full.rule
def _(ctx, shape, fill_value, dtype):
    if not (is_number(fill_value) or (is_tile(fill_value) and not fill_value.type.shape)):
        raise ctx.type_error(f"full() fill_value must be a scalar or a 0D tile, got {describe(fill_value)}")
    shp = const_shape(ctx, shape, "shape")
    dt = require_dtype(ctx, dtype)
    if ctx.is_constant(fill_value):
        return _constant_tile(ctx, ctx.const_value(fill_value), dt, shp)
    return broadcast_to(ctx, convert(ctx, fill_value, dt), shp)


@surface("creation")
def ones(shape, dtype):
    """A tile of `shape` and `dtype` filled with 1."""


@ones.rule
def _(ctx, shape, dtype):
    return _constant_tile(ctx, 1, require_dtype(ctx, dtype), const_shape(ctx, shape, "shape"))


@surface("creation")
def zeros(shape, dtype):
    """A tile of `shape` and `dtype` filled with 0."""


@zeros.rule
def _(ctx, shape, dtype):
    return _constant_tile(ctx, 0, require_dtype(ctx, dtype), const_shape(ctx, shape, "shape"))


@surface("creation")
def astile(value, /, *, dtype):
    """A tile of `dtype` from a scalar or a nested tuple of scalars (one nesting level per axis).

    Every tuple length must be a power of two and siblings must have the same shape.
    """


@astile.rule
def _(ctx, value, dtype):
    dt = require_dtype(ctx, dtype)
    if is_number(value) or (is_tile(value) and not value.type.shape):
        return cast(ctx, value, dt)
    if not isinstance(value, tuple):
        raise ctx.type_error(f"Expected a scalar or (possibly nested) tuple of scalars; "
                             f"got {describe(value)}")
    shape = _nested_shape(ctx, value, ())
    leaves = _leaves(value)
    if ctx.is_constant(value):
        values = tuple(D.cast_python_scalar(ctx.const_value(v), dt) for v in leaves)
        out = ctx.emit1("literal_tile", [], TileType(dt, shape), values=values)
        return out
    elements = [cast(ctx, v, dt) for v in leaves]
    elements = [e if is_tile(e) else ctx.constant(e, dt) for e in elements]
    return ctx.emit1("from_scalars", elements, TileType(dt, shape))


def _nested_shape(ctx, value, path):
    """Shape of a nested tuple of scalars, checking power-of-two lengths and uniform nesting."""
    where = "value" + "".join(f"[{i}]" for i in path)
    if not isinstance(value, tuple):
        if is_number(value):
            return ()
        if is_tile(value):
            if value.type.shape:
                raise ctx.type_error(f"Expected scalar elements at {where}; got a tile of shape "
                                     f"{value.type.shape}")
            return ()
        raise ctx.type_error(f"Expected scalar elements at {where}; got {describe(value)}")
    if not _is_pow2(len(value)):
        raise ctx.type_error(f"Tuple length {len(value)} at {where} is not a power of 2")
    inner = {_nested_shape(ctx, v, path + (i,)) for i, v in enumerate(value)}
    if len(inner) != 1:
        raise ctx.type_error(f"Tuple has non-uniform inner shapes at {where}")
    return (len(value),) + inner.pop()


def _leaves(value):
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


# ---- rules ----------------------------------------------------------------------------

@ARANGE.numpy
def _(ex, op):
    t = op.results[0].type
    return shapes.arange(t.shape[0], t.dtype)


@ARANGE.transpile
def _(w, op):
    t = op.results[0].type
    w.call(op, "arange", w.literal(t.shape[0]), w.literal(t.dtype))


@LITERAL_TILE.numpy
def _(ex, op):
    t = op.results[0].type
    return shapes.literal_tile(op.attrs["values"], t.shape, t.dtype)


@LITERAL_TILE.transpile
def _(w, op):
    t = op.results[0].type
    w.call(op, "literal_tile", w.literal(tuple(op.attrs["values"])), w.literal(tuple(t.shape)), w.literal(t.dtype))


@FROM_SCALARS.numpy
def _(ex, op, *scalars):
    t = op.results[0].type
    return shapes.from_scalars(*scalars, shape=t.shape, dtype=t.dtype)


@FROM_SCALARS.transpile
def _(w, op):
    t = op.results[0].type
    w.call(op, "from_scalars", w.args(op.operands), shape=tuple(t.shape), dtype=t.dtype)


@UNDEF.numpy
def _(ex, op):
    t = op.results[0].type
    return shapes.undef(t.shape, t.dtype)


@UNDEF.transpile
def _(w, op):
    t = op.results[0].type
    w.call(op, "undef", w.literal(tuple(t.shape)), w.literal(t.dtype))


# ---- typing (the verifier's rules) and folding -------------------------------------------

def _result_tile(op) -> TileType:
    r = op.results[0].type
    expect(isinstance(r, TileType), f"the result must be a tile, got {r}")
    return r


@ARANGE.typing
def _(op):
    r = _result_tile(op)
    expect(len(r.shape) == 1 and r.dtype.is_int, f"arange makes a 1-d integer tile, not {r}")
    return [r]


@LITERAL_TILE.typing
def _(op):
    r = _result_tile(op)
    expect(len(op.attrs["values"]) == math.prod(r.shape), f"{len(op.attrs['values'])} values for a tile {r}")
    return [r]


@FROM_SCALARS.typing
def _(op):
    r = _result_tile(op)
    expect(len(op.operands) == math.prod(r.shape) and all(v.type == TileType(r.dtype, ()) for v in op.operands),
           f"{len(op.operands)} scalars do not make a tile {r}")
    return [r]


@UNDEF.typing
def _(op):
    return [_result_tile(op)]


no_rule("fold", "tile-shaped (constants fold as scalars only)", ARANGE, LITERAL_TILE, FROM_SCALARS, UNDEF)
