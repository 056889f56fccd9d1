"""Reductions and scans: sum/prod/max/min/argmax/argmin, cumsum/cumprod, and the
user-combiner forms `reduce` and `scan`.

Built-in reductions and scans become one `reduce`/`scan` op with a `fn` attribute,
so backends need no region for them. User combiners become the op's single nested
block: its arguments are the 0-d accumulators `(*lhs, *rhs)` and it ends with a
`yield` of the combined values (one per operand, same dtypes).

Typing follows cuTile: no widening (sum of int8 is int8), bool is reduced as
int32, restricted floats (tf32, fp8, fp4) are rejected, and argmax/argmin give
int32 indices.
"""
from __future__ import annotations

import functools
from typing import Any, List, Optional, Sequence, Tuple

from .. import dtypes as D
from ..enums import RoundingMode
from ..errors import TileSyntaxError
from ..ir.core import Block, Value
from ..ir.primitive import BOOL, INT, INTS, LITERALS, one_of
from ..ir.types import TileType
from ..semantics import reductions
from ..semantics.functions import BASIC_ROUNDING
from .common import (broadcast_to, const_bool, const_int, convert, describe, expect, implicit_cast, is_number,
                     common_shape, is_tile, reshape, tile_operand, tile_type)
from .elementwise import given_fp_attrs, rounding_mode_arg
from .registry import ROUNDING, Attr, no_rule, optional, primitive, surface

# Note: this module defines `sum`, `max` and `min` (the cuda.tile names); the Python
# builtins of those names are not used below.

_STEP_ATTRS = {"rounding_mode": optional(ROUNDING), "flush_to_zero": Attr(BOOL, False),
               "propagate_nan": Attr(BOOL, False)}

REDUCE = primitive(
    "reduce", "Reduce the operands along `axes` (sorted; removed from the result shape). "
    "`fn` is sum/prod/max/min (one operand, same dtype; `rounding_mode`, "
    "`flush_to_zero`, `propagate_nan` as for the element-wise op), argmax/argmin "
    "(one operand, int32 index of the first extreme value; NaN is the best value "
    "with `propagate_nan`, the worst without) or 'custom': the nested block takes "
    "0-d `(*lhs, *rhs)` and yields the combined values, `identities` per operand.",
    operands=("*operands",), results="*", blocks=(0, 1),
    attrs={"fn": Attr(one_of("sum", "prod", "max", "min", "argmax", "argmin", "custom")), "axes": Attr(INTS),
           **_STEP_ATTRS, "identities": optional(LITERALS)})
SCAN = primitive(
    "scan", "Inclusive prefix scan along `axis` (from the end when `reverse`). `fn` is sum/prod "
    "(one operand; `rounding_mode`, `flush_to_zero`) or 'custom' with a combiner "
    "block as for `reduce`.", operands=("*operands",), results="*", blocks=(0, 1),
    attrs={"fn": Attr(one_of("sum", "prod", "custom")), "axis": Attr(INT), "reverse": Attr(BOOL, False),
           **_STEP_ATTRS, "identities": optional(LITERALS)})

# Upstream checks rounding modes against the element-wise op the reduction uses.
_ELEMENTWISE_NAME = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}

# Ops that may not appear in a combiner body (memory effects); matched by name.
_MEMORY_WORDS = ("load", "store", "atomic", "print", "assert", "gather", "scatter")


# ---- argument parsing --------------------------------------------------------------

def _check_rounding(ctx, fn: str, rm: Optional[RoundingMode], ftz: bool, dtype: D.DType) -> None:
    op = _ELEMENTWISE_NAME[fn]
    if rm is not None:
        if rm.name not in BASIC_ROUNDING:
            raise ctx.type_error(f"Rounding mode {rm.value} is not supported for {op}")
        if not dtype.is_float or dtype.is_restricted:
            raise ctx.type_error(f"Rounding mode can only be used for unrestricted float types, "
                                 f"but got {dtype}")
    if ftz and dtype is not D.float32:
        raise ctx.type_error(f"Flush to zero can only be used for float32 type, but got {dtype}")


def _reduce_axes(ctx, axis) -> Optional[Tuple[int, ...]]:
    """None, an int or a tuple of ints (not normalized yet)."""
    v = ctx.require_constant(axis, "axis")
    if v is None:
        return None
    if isinstance(v, tuple):
        for i, a in enumerate(v):
            if isinstance(a, bool) or not isinstance(a, int):
                raise ctx.type_error(f"Expected a tuple of integers for axis, but element #{i} is "
                                     f"{describe(a)}")
        return v
    return (const_int(ctx, v, "axis"),)


def _normalize_axes(ctx, axes: Optional[Sequence[int]], ndim: int) -> Tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    out = sorted(_axis(ctx, a, ndim) for a in axes)
    for a, b in zip(out, out[1:]):
        if a == b:
            raise ctx.type_error(f"Repeated reduction axis {a}")
    return tuple(out)


def _axis(ctx, a: int, ndim: int) -> int:
    if not -ndim <= a < ndim:
        raise ctx.type_error(f"Axis {a} is out of range for rank {ndim}")
    return a % ndim


def _arith_operand(ctx, x, what: str) -> Value:
    v = tile_operand(ctx, x, "x")
    if not v.type.dtype.is_arithmetic:
        raise ctx.type_error(f"Non-arithmetic dtype {v.type.dtype} is unsupported for {what}")
    return v


def _as_int_if_bool(ctx, v: Value) -> Value:
    return convert(ctx, v, D.int32) if v.type.dtype.is_bool else v


def _reduced_shape(shape, axes, keepdims: bool) -> Tuple[int, ...]:
    return tuple(1 if i in axes else d for i, d in enumerate(shape) if keepdims or i not in axes)


# ---- nested-combiner bookkeeping -------------------------------------------------------

def _check_not_nested(ctx) -> None:
    # ctx.combiner_depth counts the combiner bodies being built: reductions may not nest.
    if ctx.combiner_depth:
        raise ctx.syntax_error("Nested scan/reduction is not supported")


def _check_body_ops(ctx, block: Block, kind: str) -> None:
    """Combiner bodies may not touch memory, loop or branch (checked innermost first, as upstream)."""
    for op in block.ops:
        for inner in op.blocks:
            _check_body_ops(ctx, inner, kind)
        name = op.name
        msg = None
        if any(w in name for w in _MEMORY_WORDS):
            msg = f"Operations with memory effects are not supported inside {kind} body"
        elif name in ("for", "loop", "while"):
            msg = f"Loops inside {kind} body are not supported"
        elif name == "if":
            msg = (f"Branching inside {kind} body is not supported. "
                   f"Consider ct.where() as a workaround.")
        if msg:
            raise ctx.error(TileSyntaxError, msg, op.loc)


# ---- built-in reductions ---------------------------------------------------------------

def builtin_reduce(fn: str, ctx, x, axis, keepdims, *, rounding_mode=None, flush_to_zero=False,
                   propagate_nan=False) -> Value:
    """The typing rule of ct.sum/prod/max/min (`fn`), bound to each by functools.partial."""
    axes = _reduce_axes(ctx, axis)
    keep = const_bool(ctx, keepdims, "keepdims")
    rm = rounding_mode_arg(ctx, rounding_mode)
    ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
    nan = const_bool(ctx, propagate_nan, "propagate_nan")
    v = _arith_operand(ctx, x, "reduction")
    _check_rounding(ctx, fn, rm, ftz, v.type.dtype)
    v = _as_int_if_bool(ctx, v)
    shape = v.type.shape
    axes = _normalize_axes(ctx, axes, len(shape))
    if not axes:
        return v
    _check_not_nested(ctx)
    out = ctx.emit1("reduce", [v], TileType(v.type.dtype, _reduced_shape(shape, axes, False)), fn=fn, axes=axes,
                    **given_fp_attrs(rm, ftz, nan))
    return reshape(ctx, out, _reduced_shape(shape, axes, keep))


@surface("reduce")
def sum(x, /, axis=None, *, keepdims=False, rounding_mode=None, flush_to_zero=False):
    """Sum of the elements along `axis` (None: all axes; an int or a tuple of ints).

    The result keeps x's dtype (bool sums as int32); `keepdims` leaves size-1 axes.
    """


sum.rule(functools.partial(builtin_reduce, "sum"))


@surface("reduce")
def prod(x, /, axis=None, *, keepdims=False, rounding_mode=None, flush_to_zero=False):
    """Product of the elements along `axis` (None: all axes); keeps x's dtype (bool as int32)."""


prod.rule(functools.partial(builtin_reduce, "prod"))


@surface("reduce")
def max(x, /, axis=None, *, keepdims=False, flush_to_zero=False, propagate_nan=False):
    """Largest element along `axis` (None: all axes); NaN is skipped unless `propagate_nan`."""


max.rule(functools.partial(builtin_reduce, "max"))


@surface("reduce")
def min(x, /, axis=None, *, keepdims=False, flush_to_zero=False, propagate_nan=False):
    """Smallest element along `axis` (None: all axes); NaN is skipped unless `propagate_nan`."""


min.rule(functools.partial(builtin_reduce, "min"))


def arg_reduce(ctx, fn: str, x, axis, keepdims, propagate_nan) -> Value:
    ax = None if ctx.require_constant(axis, "axis") is None else const_int(ctx, axis, "axis")
    keep = const_bool(ctx, keepdims, "keepdims")
    nan = const_bool(ctx, propagate_nan, "propagate_nan")
    v = tile_operand(ctx, x, "x")
    ndim = v.type.ndim
    final_shape = None
    if ax is None:
        # Over the flattened tile; keepdims then means a (1,)*ndim result.
        if keep:
            final_shape, keep = (1,) * ndim, False
        n = 1
        for d in v.type.shape:
            n *= d
        v = reshape(ctx, v, (n,))
        ax = 0
    else:
        ax = _axis(ctx, ax, ndim)
    v = _as_int_if_bool(ctx, v)
    if v.type.dtype.is_restricted:
        # Upstream fails here internally (no min/max value known for the dtype).
        raise ctx.type_error(f"{fn} does not support dtype {v.type.dtype}")
    shape = v.type.shape
    _check_not_nested(ctx)
    out = ctx.emit1("reduce", [v], TileType(D.int32, _reduced_shape(shape, (ax,), False)), fn=fn, axes=(ax,),
                    **given_fp_attrs(propagate_nan=nan))
    out = reshape(ctx, out, _reduced_shape(shape, (ax,), keep))
    return reshape(ctx, out, final_shape) if final_shape is not None else out


@surface("reduce")
def argmax(x, /, axis=None, *, keepdims=False, propagate_nan=False):
    """int32 index of the first largest element along `axis` (None: of the flattened tile)."""


@argmax.rule
def _(ctx, x, axis, keepdims, propagate_nan):
    return arg_reduce(ctx, "argmax", x, axis, keepdims, propagate_nan)


@surface("reduce")
def argmin(x, /, axis=None, *, keepdims=False, propagate_nan=False):
    """int32 index of the first smallest element along `axis` (None: of the flattened tile)."""


@argmin.rule
def _(ctx, x, axis, keepdims, propagate_nan):
    return arg_reduce(ctx, "argmin", x, axis, keepdims, propagate_nan)


# ---- built-in scans --------------------------------------------------------------------

def builtin_scan(ctx, fn: str, x, axis, reverse, rounding_mode, flush_to_zero) -> Value:
    ax = const_int(ctx, axis, "axis")
    rev = const_bool(ctx, reverse, "reverse")
    rm = rounding_mode_arg(ctx, rounding_mode)
    ftz = const_bool(ctx, flush_to_zero, "flush_to_zero")
    v = _arith_operand(ctx, x, "prefix scans")
    _check_rounding(ctx, fn, rm, ftz, v.type.dtype)
    v = _as_int_if_bool(ctx, v)
    ax = _axis(ctx, ax, v.type.ndim)
    _check_not_nested(ctx)
    return ctx.emit1("scan", [v], v.type, fn=fn, axis=ax, reverse=rev, **given_fp_attrs(rm, ftz))


@surface("reduce")
def cumsum(x, /, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False):
    """Inclusive prefix sum along `axis` (from the end when `reverse`); keeps x's dtype."""


@cumsum.rule
def _(ctx, x, axis, reverse, rounding_mode, flush_to_zero):
    return builtin_scan(ctx, "sum", x, axis, reverse, rounding_mode, flush_to_zero)


@surface("reduce")
def cumprod(x, /, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False):
    """Inclusive prefix product along `axis` (from the end when `reverse`); keeps x's dtype."""


@cumprod.rule
def _(ctx, x, axis, reverse, rounding_mode, flush_to_zero):
    return builtin_scan(ctx, "prod", x, axis, reverse, rounding_mode, flush_to_zero)


# ---- user combiners --------------------------------------------------------------------

def _operands(ctx, x) -> Tuple[List[Any], bool]:
    """The operands of reduce/scan: a tile, or a tuple of tiles (tuple mode)."""
    if isinstance(x, tuple):
        if all(is_tile(i) or is_number(i) for i in x):
            return list(x), True
    elif is_tile(x) or is_number(x):
        return [x], False
    raise ctx.type_error(f"Expected a tile or a tuple of tiles, but given value is {describe(x)}")


def _require_callable(ctx, func) -> None:
    if ctx.is_callable(func):
        return
    raise ctx.type_error(f"Expected a callable object for func, but given value is {describe(func)}")


def _scalar_constant(ctx, x, what: str):
    if is_number(x):
        return x
    if is_tile(x):
        if x.type.shape:
            raise ctx.type_error(f"Expected a scalar constant for {what}, but given value has type {x.type}")
        if x.const is None:
            raise ctx.type_error(f"Expected a constant for {what}, but given value has non-constant "
                                 f"type {x.type}")
        return x.const
    raise ctx.type_error(f"Expected a scalar constant for {what}, but given value is {describe(x)}")


def _identities(ctx, identity, n: int, tuple_mode: bool) -> List[Any]:
    if not tuple_mode:
        return [_scalar_constant(ctx, identity, "identity")]
    if not isinstance(identity, tuple):
        raise ctx.type_error(f"Expected a tuple for identity, but given value is {describe(identity)}")
    ids = []
    for i, item in enumerate(identity):
        if not (is_number(item) or (is_tile(item) and not item.type.shape)):
            raise ctx.type_error(f"Expected a tuple of scalar constants for identity, but item at "
                                 f"position #{i} is {describe(item)}")
        if is_tile(item) and item.const is None:
            raise ctx.type_error(f"Expected a tuple of scalar constants for identity, but item at "
                                 f"position #{i} is not constant")
        ids.append(item if is_number(item) else item.const)
    if len(ids) != n:
        raise ctx.type_error(f"Number of identity values ({len(ids)}) must match the number of "
                             f"input tiles ({n})")
    return ids


def _identity_as(value, dtype: D.DType):
    """The identity as the Python value the operand dtype holds (as upstream's bytecode encodes it)."""
    if dtype.is_float:
        return float(value)
    if dtype.is_bool:
        return bool(value)
    return int(value)


def _common_operands(ctx, items: List[Any], what: str) -> List[Value]:
    """Numeric tiles broadcast to one common shape."""
    tiles = []
    for i in items:
        v = tile_operand(ctx, i, "x")
        if not D.is_integral(v.type.dtype) and not v.type.dtype.is_float:
            raise ctx.type_error(f"Expected a numeric tile, but got {v.type}")
        tiles.append(v)
    if not tiles:
        raise ctx.type_error(f"Need at least one input value to {what}")
    shape = common_shape(ctx, tiles, "Input")
    return [broadcast_to(ctx, v, shape) for v in tiles]


def _combiner_region(ctx, func, xs: List[Value], tuple_mode: bool, kind: str) -> Block:
    """Build the combiner block: args (*lhs, *rhs) 0-d tiles, ends with `yield` of the results."""
    what = "Reduction" if kind == "reduction" else "Scan"
    n = len(xs)
    arg_types = [TileType(v.type.dtype, ()) for v in xs] * 2

    def body(*args):
        res = ctx.call(func, args)
        if tuple_mode:
            if not isinstance(res, tuple):
                t = res.type if isinstance(res, Value) else describe(res)
                raise ctx.type_error(f"{what} function returns a value of type {t}, but a tuple was expected")
            if len(res) != n:
                raise ctx.type_error(f"{what} function must return a tuple of {n} values to match the "
                                     f"number of inputs, but a tuple of length {len(res)} was found.")
            results = list(res)
        else:
            results = [res]
        out = []
        for i, (x, r) in enumerate(zip(xs, results)):
            extra = f" at position #{i}" if tuple_mode else ""
            if not is_tile(r) and not is_number(r):
                t = _type_text(r)
                raise ctx.type_error(f"{what} function returned a value of non-tile type {t}{extra}")
            if is_tile(r) and r.type.shape:
                raise ctx.type_error(f"{what} function returned a tile of non-scalar shape "
                                     f"{r.type.shape}{extra}")
            ctx_msg = f"{what} function returned a tile of unexpected dtype{extra}"
            out.append(implicit_cast(ctx, r, x.type.dtype, ctx_msg))
        ctx.emit("yield", out)

    ctx.combiner_depth += 1
    try:
        block, _ = ctx.region(arg_types, body)
    finally:
        ctx.combiner_depth -= 1
    _check_body_ops(ctx, block, kind)
    return block


def _type_text(x) -> str:
    if isinstance(x, tuple):
        return "Tuple[" + ",".join(_type_text(i) for i in x) + "]"
    if isinstance(x, Value):
        return str(x.type)
    return describe(x)


def _emit_custom(ctx, opname: str, xs: List[Value], result_shape, block: Block, **attrs) -> List[Value]:
    op = ctx.emit(opname, xs, [TileType(v.type.dtype, result_shape) for v in xs], fn="custom", **attrs)
    op.blocks.append(block)
    return op.results


@surface("reduce")
def reduce(x, /, axis, func, identity, *, keepdims=False):
    """Reduce `x` (a tile or a tuple of tiles) along `axis` with the combiner `func`.

    `func(*lhs, *rhs)` combines two partial results (one scalar per input tile) and
    returns the combined scalar(s); `identity` (a constant, or a tuple of them) is the
    neutral value of each input.
    """


@reduce.rule
def _(ctx, x, axis, func, identity, keepdims):
    items, tuple_mode = _operands(ctx, x)
    ax = const_int(ctx, axis, "axis")
    _require_callable(ctx, func)
    ids = _identities(ctx, identity, len(items), tuple_mode)
    keep = const_bool(ctx, keepdims, "keepdims")
    xs = _common_operands(ctx, items, "reduce")
    shape = xs[0].type.shape
    ax = _axis(ctx, ax, len(shape))
    _check_not_nested(ctx)
    block = _combiner_region(ctx, func, xs, tuple_mode, "reduction")
    idv = tuple(_identity_as(i, v.type.dtype) for i, v in zip(ids, xs))
    results = _emit_custom(ctx, "reduce", xs, _reduced_shape(shape, (ax,), False), block,
                           axes=(ax,), identities=idv)
    results = [reshape(ctx, r, _reduced_shape(shape, (ax,), keep)) for r in results]
    return tuple(results) if tuple_mode else results[0]


@surface("reduce")
def scan(x, /, axis, func, identity, *, reverse=False):
    """Inclusive prefix scan of `x` (a tile or a tuple of tiles) along `axis` with combiner `func`.

    `func` and `identity` are as for `reduce`; `reverse` scans from the end.
    """


@scan.rule
def _(ctx, x, axis, func, identity, reverse):
    items, tuple_mode = _operands(ctx, x)
    ax = const_int(ctx, axis, "axis")
    _require_callable(ctx, func)
    rev = const_bool(ctx, reverse, "reverse")
    xs = _common_operands(ctx, items, "scan")
    shape = xs[0].type.shape
    ax = _axis(ctx, ax, len(shape))
    ids = _identities(ctx, identity, len(xs), tuple_mode)
    _check_not_nested(ctx)
    block = _combiner_region(ctx, func, xs, tuple_mode, "scan")
    idv = tuple(_identity_as(i, v.type.dtype) for i, v in zip(ids, xs))
    results = _emit_custom(ctx, "scan", xs, shape, block, axis=ax, reverse=rev, identities=idv)
    return tuple(results) if tuple_mode else results[0]


# ---- CPU executor rules ----------------------------------------------------------------
# (the numerics, shared with transpiled modules, are semantics/reductions.py `reduce`
# and `scan`; a custom combiner runs its region on whole arrays)



def _combiner(ex, op):
    return (lambda *args: ex.call_region(op.blocks[0], *args)) if op.attrs["fn"] == "custom" else None


def _given_step_attrs(a) -> dict:
    """The rounding/flush/NaN attributes the op was given (the numerics' defaults are the schema's)."""
    return {k: a[k] for k in _STEP_ATTRS if k in a}


@REDUCE.numpy
def _(ex, op, *xs):
    a = op.attrs
    return reductions.reduce(*xs, fn=a["fn"], axes=a["axes"], dtype=op.results[0].type.dtype,
                              combine=_combiner(ex, op), identities=a["identities"], **_given_step_attrs(a))


@SCAN.numpy
def _(ex, op, *xs):
    a = op.attrs
    return reductions.scan(*xs, fn=a["fn"], axis=a["axis"], reverse=a["reverse"],
                            combine=_combiner(ex, op), **_given_step_attrs(a))


@REDUCE.transpile
@SCAN.transpile
def _(w, op):
    extra = {}
    if op.attrs["fn"] == "custom":
        extra["combine"] = w.code(w.combiner(op))
        if op.name == "reduce":
            extra["identities"] = tuple(op.attrs["identities"])
    elif op.name == "reduce":
        extra["dtype"] = op.results[0].type.dtype
    keys = ("fn", "axes", "axis", "reverse", "rounding_mode", "flush_to_zero", "propagate_nan")
    w.call(op, op.name, w.args(op.operands), **w.attrs(op, *keys), **extra)


# ---- typing (the verifier's rules) and folding -------------------------------------------

@REDUCE.typing
def _(op):
    axes, fn = op.attrs["axes"], op.attrs["fn"]
    out = []
    for i in range(len(op.operands)):
        t = tile_type(op, i)
        expect(all(0 <= a < len(t.shape) for a in axes), f"axes {axes} out of range for {t}")
        shape = tuple(d for k, d in enumerate(t.shape) if k not in axes)
        out.append(TileType(D.int32 if fn in ("argmax", "argmin") else t.dtype, shape))
    return out


@SCAN.typing
def _(op):
    return [tile_type(op, i) for i in range(len(op.operands))]


no_rule("fold", "tile-shaped (constants fold as scalars only)", REDUCE, SCAN)
