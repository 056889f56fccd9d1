"""Matrix products: `mma` (multiply-accumulate), `matmul` / `@`, and block-scaled `mma_scaled`.

cuTile does not promote mma operands: x and y must share a dtype (int8 and uint8 may
mix) and the accumulator dtype must be one the hardware supports for it. `matmul`
promotes its operands, accumulates in the first supported accumulator dtype and casts
back, so `f16 @ f16` is f16 and `i8 @ i8` is i8. Leading (batch) axes broadcast.
"""
from __future__ import annotations

from typing import Optional, Tuple

from .. import dtypes as D
from ..backends.numpy import fusion, grid
from ..ir.primitive import BOOL
from ..ir.types import TileType
from ..semantics import products
from .common import broadcast_pair, broadcast_to, const_bool, convert, describe, expect, is_tile, reshape, tile_type
from .registry import Attr, no_rule, primitive, surface

MMA = primitive("mma", "`x @ y + acc` over the last two axes (batch axes equal); the result has acc's type. "
                       "Integer inputs accumulate exactly in int32; `use_fast_acc` lowers fp8 accumulation "
                       "precision.", operands=("x", "y", "acc"), attrs={"use_fast_acc": Attr(BOOL, False)})
MMA_SCALED = primitive("mma_scaled", "`(x * x_scale) @ (y * y_scale) + acc`: each scale element covers "
                                     "K // K_s consecutive elements along K (x's last axis, y's second to last).",
                       operands=("x", "x_scale", "y", "y_scale", "acc"))

# input dtype -> accumulator dtypes mma supports (matmul uses the first).
MMA_ACC_DTYPES = {
    D.float8_e4m3fn: (D.float16, D.float32),
    D.float8_e5m2: (D.float16, D.float32),
    D.float16: (D.float16, D.float32),
    D.bfloat16: (D.float32,),
    D.float32: (D.float32,),
    D.tfloat32: (D.float32,),
    D.float64: (D.float64,),
    D.int8: (D.int32,),
    D.uint8: (D.int32,),
}

# operand dtype -> {scale dtype: allowed scaling block sizes}; the accumulator is always f32.
MMA_SCALED_DTYPES = {
    D.float8_e4m3fn: {D.float8_e8m0fnu: (32,)},
    D.float8_e5m2: {D.float8_e8m0fnu: (32,)},
    D.float4_e2m1fn: {D.float8_e8m0fnu: (16, 32), D.float8_e4m3fn: (16,), D.float8_e5m3fnu: (16, 32)},
}

Shape = Tuple[int, ...]


def _numeric_tile(ctx, x, name: str):
    if not is_tile(x):
        raise ctx.type_error(f"Expected a tile for `{name}`, but given value is {describe(x)}")
    return x


def _names(dtypes) -> str:
    return ", ".join(str(d) for d in dtypes)


def resolve_acc_dtype(ctx, x_dt: D.DType, y_dt: D.DType, acc_dt: Optional[D.DType]) -> D.DType:
    """The accumulator dtype for x/y inputs: checks `acc_dt`, or picks the default one."""
    small_ints = (D.int8, D.uint8)
    if x_dt is not y_dt and not (x_dt in small_ints and y_dt in small_ints):
        raise ctx.type_error(f"x and y must have the same dtype unless they are int8/uint8, "
                             f"got {x_dt} {y_dt}")
    if x_dt not in MMA_ACC_DTYPES:
        raise ctx.type_error(f"Unsupported input dtype {x_dt}, supported dtypes are "
                             f"{_names(MMA_ACC_DTYPES)}")
    allowed = MMA_ACC_DTYPES[x_dt]
    if acc_dt is None:
        return allowed[0]
    if acc_dt not in allowed:
        raise ctx.type_error(f"Unsupported acc dtype {acc_dt}, supported dtypes are {_names(allowed)}")
    return acc_dt


def matmul_shapes(ctx, x_shape: Shape, y_shape: Shape) -> Tuple[Shape, Shape, Shape, Shape]:
    """(x shape, y shape, accumulator shape, result shape) with 1-d operands made 2-d and batch
    axes broadcast, as numpy.matmul."""
    x2 = (1,) + x_shape if len(x_shape) == 1 else x_shape
    y2 = y_shape + (1,) if len(y_shape) == 1 else y_shape
    if len(x2) < 2 or len(y2) < 2 or x2[-1] != y2[-2]:
        raise ctx.type_error(f"Incompatible shapes for matrix mul on tiles: {x2}, {y2}.")
    batch = broadcast_pair(x2[:-2], y2[:-2])
    if batch is None:
        raise ctx.type_error(f"Incompatible shapes for matrix mul on tiles: {x2}, {y2}.")
    x2, y2 = batch + x2[-2:], batch + y2[-2:]
    acc = batch + (x2[-2], y2[-1])
    out = acc
    if len(x_shape) == 1:
        out = out[:-2] + out[-1:]
    if len(y_shape) == 1:
        out = out[:-1]
    return x2, y2, acc, out


@surface("matmul")
def mma(x, y, /, acc, *, use_fast_acc=False):
    """`x @ y + acc` in one operation, keeping acc's dtype; x and y are not promoted.

    Inputs/accumulators: f16→f16|f32, bf16→f32, f32→f32, f64→f64, tf32→f32,
    fp8→f16|f32, int8/uint8→int32. Batch axes of x and y broadcast.
    """


@mma.rule
def _(ctx, x, y, acc, use_fast_acc):
    fast = const_bool(ctx, use_fast_acc, "use_fast_acc")
    x, y, acc = (_numeric_tile(ctx, v, n) for v, n in ((x, "x"), (y, "y"), (acc, "acc")))
    for name, v in (("x", x), ("y", y)):
        if v.type.ndim < 2:
            raise ctx.type_error(f"Expect shape of `{name}` to be at least 2D, got {v.type.shape}")
    x_shape, y_shape, _, out_shape = matmul_shapes(ctx, x.type.shape, y.type.shape)
    if acc.type.shape != out_shape:
        raise ctx.type_error(f"Expect acc shape to be {out_shape}, got {acc.type.shape}")
    if fast and x.type.dtype not in (D.float8_e4m3fn, D.float8_e5m2):
        raise ctx.type_error(f"use_fast_acc is only supported for fp8 input dtypes "
                             f"(float8_e4m3fn, float8_e5m2), got {x.type.dtype}")
    resolve_acc_dtype(ctx, x.type.dtype, y.type.dtype, acc.type.dtype)
    x = broadcast_to(ctx, x, x_shape)
    y = broadcast_to(ctx, y, y_shape)
    return ctx.emit1("mma", [x, y, acc], acc.type, use_fast_acc=fast)


@surface("matmul", static=True)
def matmul(x, y, /):
    """Matrix product `x @ y` of 1-d, 2-d or 3-d tiles (NumPy rules for 1-d operands).

    Operands are promoted to a common dtype, which is also the result dtype.
    """


@matmul.rule
def _(ctx, x, y):
    x = _numeric_tile(ctx, x, "x")
    y = _numeric_tile(ctx, y, "y")
    x_shape, y_shape, acc_shape, out_shape = matmul_shapes(ctx, x.type.shape, y.type.shape)
    try:
        dtype = D.promote(x.type.dtype, y.type.dtype)
    except D.PromotionError as e:
        raise ctx.type_error(str(e)) from None
    acc_dtype = resolve_acc_dtype(ctx, dtype, dtype, None)
    x = broadcast_to(ctx, convert(ctx, x, dtype), x_shape)
    if y.type.ndim == 1:
        y = reshape(ctx, y, (y.type.shape[0], 1))   # (k,) is a column before batch broadcasting
    y = broadcast_to(ctx, convert(ctx, y, dtype), y_shape)
    zero = broadcast_to(ctx, ctx.constant(0, acc_dtype), acc_shape)
    out = ctx.emit1("mma", [x, y, zero], TileType(acc_dtype, acc_shape), use_fast_acc=False)
    return reshape(ctx, convert(ctx, out, dtype), out_shape)


@surface("matmul")
def mma_scaled(x, x_scale, y, y_scale, /, acc):
    """Block-scaled `x @ y + acc`: `x_scale[..., m, k // B]` scales x, `y_scale[..., k // B, n]` scales y.

    Inputs fp8 (e4m3fn/e5m2, scale e8m0fnu, B=32) or fp4 e2m1fn (scale e8m0fnu B∈{16,32},
    e4m3fn B=16, e5m3fnu B∈{16,32}); the accumulator is f32.
    """


@mma_scaled.rule
def _(ctx, x, x_scale, y, y_scale, acc):
    x, y, acc, xs, ys = (_numeric_tile(ctx, v, n) for v, n in
                         ((x, "x"), (y, "y"), (acc, "acc"), (x_scale, "x_scale"), (y_scale, "y_scale")))
    for name, v in (("x", x), ("y", y), ("acc", acc), ("x_scale", xs), ("y_scale", ys)):
        if v.type.ndim not in (2, 3):
            raise ctx.type_error(f"Expect shape of `{name}` to be 2D or 3D, got {v.type.shape}")
    _check_scaled_dtypes(ctx, x.type.dtype, xs.type.dtype, y.type.dtype, ys.type.dtype, acc.type.dtype)
    _check_scale_shape(ctx, x.type, xs.type, x.type.ndim - 1, "x", "x_scale")
    _check_scale_shape(ctx, y.type, ys.type, y.type.ndim - 2, "y", "y_scale")
    x_shape, y_shape, _, out_shape = matmul_shapes(ctx, x.type.shape, y.type.shape)
    if acc.type.shape != out_shape:
        raise ctx.type_error(f"Expect acc shape to be {out_shape}, got {acc.type.shape}")
    batch = x_shape[:-2]
    x = broadcast_to(ctx, x, x_shape)
    y = broadcast_to(ctx, y, y_shape)
    xs = broadcast_to(ctx, xs, batch + xs.type.shape[-2:])
    ys = broadcast_to(ctx, ys, batch + ys.type.shape[-2:])
    return ctx.emit1("mma_scaled", [x, xs, y, ys, acc], acc.type)


def _check_scaled_dtypes(ctx, x_dt, xs_dt, y_dt, ys_dt, acc_dt) -> None:
    if x_dt is not y_dt:
        raise ctx.type_error(f"x and y must have the same dtype, got {x_dt} and {y_dt}")
    if xs_dt is not ys_dt:
        raise ctx.type_error(f"x_scale and y_scale must have the same dtype, got {xs_dt} and {ys_dt}")
    if x_dt not in MMA_SCALED_DTYPES:
        raise ctx.type_error(f"Unsupported input dtype {x_dt} for mma_scaled, supported input dtypes "
                             f"are {_names(MMA_SCALED_DTYPES)}")
    scales = MMA_SCALED_DTYPES[x_dt]
    if xs_dt not in scales:
        raise ctx.type_error(f"Unsupported scale dtype {xs_dt} for input dtype {x_dt}, supported scale "
                             f"dtypes are {_names(scales)}")
    if acc_dt is not D.float32:
        raise ctx.type_error(f"Unsupported acc dtype {acc_dt} for mma_scaled, expected {D.float32}")


def _check_scale_shape(ctx, t: TileType, s: TileType, k_axis: int, name: str, scale_name: str) -> None:
    shape, sshape = t.shape, s.shape
    if len(shape) != len(sshape) or any(a != b for i, (a, b) in enumerate(zip(shape, sshape)) if i != k_axis):
        raise ctx.type_error(f"{scale_name} shape {sshape} is not compatible with {name} shape {shape}. "
                             f"All dimensions except K axis {k_axis} must match")
    allowed = MMA_SCALED_DTYPES[t.dtype][s.dtype]
    block, rem = divmod(shape[k_axis], sshape[k_axis])
    if rem or block not in allowed:
        raise ctx.type_error(f"For mma_scaled with dtype={t.dtype}, scale_dtype={s.dtype}: "
                             f"{name}.shape[{k_axis}] must be an exact multiple of "
                             f"{scale_name}.shape[{k_axis}] with scaling block size B = K // K_s in "
                             f"{set(allowed)}, got {name}.shape[{k_axis}] = {shape[k_axis]} and "
                             f"{scale_name}.shape[{k_axis}] = {sshape[k_axis]}")


# ---- CPU executor rules ----------------------------------------------------------------
#
# The numerics (where the result is rounded for each accumulator dtype) live in
# semantics/products.py `mma`; operands the executor keeps factored by grid axis
# (backends/numpy/grid.py) have their products joined into large BLAS calls, and a `for`
# loop that only accumulates mma products is run as one product over all of K
# (backends/numpy/fusion.py).

import numpy as np  # noqa: E402


# Operand conversions that give the same array when applied twice (the rule converts a
# loop-invariant operand once; products.mma then converts it again, which changes nothing).
_IDEMPOTENT = frozenset({"float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2"})


@MMA.numpy
def _exec_mma(ex, op, x, y, acc):
    dts = [v.type.dtype for v in op.operands]
    invariant = fusion.invariant_operands(ex.fn)
    width = products.mma_width(dts[2], dts[0])
    x, y = (ex.once(v, a, lambda a, dt=dt: products.mma_operand(a, dt, width))
            if v.id in invariant and dt.name in _IDEMPOTENT and isinstance(a, np.ndarray) else a
            for v, a, dt in zip(op.operands[:2], (x, y), dts))
    return grid.mma(ex.box, x, y, acc, dts[0], dts[1])


@MMA_SCALED.numpy
def _exec_mma_scaled(ex, op, x, x_scale, y, y_scale, acc):
    """Dequantise with the per-block scales (exact in float64), then one f32 rounding."""
    return products.mma_scaled(x, x_scale, y, y_scale, acc, [v.type.dtype for v in op.operands[:4]])


@MMA.transpile
def _(w, op):
    chunks = w.chunked_mma(op)
    if chunks is not None:               # products joined per chunk of iterations (fusion.py)
        w.call(op, f"{chunks}.add", w.args(op.operands))
        return
    w.call(op, "mma", w.args(op.operands), x_dtype=op.operands[0].type.dtype, y_dtype=op.operands[1].type.dtype)


@MMA_SCALED.transpile
def _(w, op):
    w.call(op, "mma_scaled", w.args(op.operands), dtypes=tuple(v.type.dtype for v in op.operands[:4]))


# ---- typing (the verifier's rules) and folding -------------------------------------------

def _accumulated(op):
    """Typing rule: the result has the accumulator's (last operand's) type."""
    x, acc = tile_type(op, 0), tile_type(op, len(op.operands) - 1)
    expect(len(x.shape) == len(acc.shape), f"operands {x} and accumulator {acc} differ in rank")
    return [acc]


MMA.typing(_accumulated)
MMA_SCALED.typing(_accumulated)
no_rule("fold", "tile-shaped (constants fold as scalars only)", MMA, MMA_SCALED)
