"""Matrix multiply-accumulate with the GPU's accumulation numerics (see the notes below)."""
from __future__ import annotations

import numpy as np

from .. import dtypes as D
from .numerics import _FAST, _NARROW_FLOATS, decode_e5m3fnu, round_to_tf32


# ---- matrix multiply-accumulate --------------------------------------------------------------
# Products of every supported input dtype are exact in float64, so the GPU's numerics reduce
# to where the result is rounded:
#   float32 accumulators: with f32/tf32 inputs float32 BLAS over all of K; with narrow inputs
#   (f16/bf16/fp8, whose products are exact) a float64 sum over all of K rounded once. Both are
#   float32-accurate, as the GPU is (it rounds per tensor-core step, in its own order);
#   float16 accumulators: each step's sum exact in float64, rounded to f16 once per step (the GPU
#   accumulates f16 matmuls in f16); float64: float64 throughout; int8/uint8: exact, wrapped to int32.
# Leading (block and grid) axes are batch axes of np.matmul: every block's product is one BLAS
# call on the same shapes whatever the grouping, so vectorised and one-block runs agree bit for
# bit. (Blocks that share an operand may be joined into one call where a probe shows that to
# be bit-identical on this machine's BLAS: joined.py.)

_MMA_K_STEP = {"float16": 16, "bfloat16": 16, "float8_e4m3fn": 32, "float8_e5m2": 32}


def mma_width(acc_dtype, x_dtype):
    """The float type an mma's products are computed in (see above; fast numerics also sum
    narrow floats in float32)."""
    if acc_dtype is D.float32 and (x_dtype in (D.float32, D.tfloat32) or (_FAST.get() and x_dtype in _NARROW_FLOATS)):
        return np.float32
    return np.float64


def mma_operand(x: np.ndarray, dtype, width) -> np.ndarray:
    """An mma operand of cuTile dtype `dtype` as a contiguous `width` array (its exact values)."""
    if dtype is D.tfloat32:
        x = round_to_tf32(x)
    elif dtype is D.float8_e5m3fnu:
        x = decode_e5m3fnu(x)
    return np.ascontiguousarray(x, dtype=width)


def _mma_steps(x, y, acc, k_step: int, width, matmul=np.matmul) -> np.ndarray:
    out, k = acc, x.shape[-1]
    for start in range(0, k, k_step):
        part = matmul(x[..., start:start + k_step], y[..., start:start + k_step, :])
        # out + part in `width` (out widens exactly); in place when the shapes allow it
        if part.shape == np.broadcast_shapes(part.shape, out.shape):
            part += out
        else:
            part = out.astype(width) + part
        out = part if start + k_step >= k else part.astype(acc.dtype)
    return out.astype(acc.dtype, copy=False)


def mma(x: np.ndarray, y: np.ndarray, acc: np.ndarray, x_dtype, y_dtype, matmul=np.matmul) -> np.ndarray:
    """acc + x @ y as the GPU's mma computes it (see above). `matmul` computes the float
    products: np.matmul or anything bit-identical to it (grid.joined_matmul)."""
    if x_dtype.is_int or x_dtype.is_bool:
        return (np.matmul(x.astype(np.int64), y.astype(np.int64)) + acc.astype(np.int64)).astype(np.int32)
    f32_acc = acc.dtype == np.float32
    # float32 inputs: float32 BLAS. Narrow inputs (f16, bf16, fp8): their products are exact, and a
    # float64 sum rounded once is what the tensor cores approach (measured closer to the H200's
    # results than float32 sums: docs/gpu-validation.md).
    width = mma_width(D.float32 if f32_acc else None, x_dtype)
    k_step = x.shape[-1] if f32_acc else _MMA_K_STEP.get(x_dtype.name, x.shape[-1])
    return _mma_steps(mma_operand(x, x_dtype, width), mma_operand(y, y_dtype, width), acc, max(k_step, 1), width,
                      matmul)


def mma_scaled(x, x_scale, y, y_scale, acc, dtypes) -> np.ndarray:
    """Dequantise with the per-block scales (exact in float64), then one rounding to acc's dtype."""
    x64, xs64, y64, ys64 = (mma_operand(v, dt, np.float64) for v, dt in zip((x, x_scale, y, y_scale), dtypes))
    x64 = x64 * np.repeat(xs64, x64.shape[-1] // xs64.shape[-1], axis=-1)
    y64 = y64 * np.repeat(ys64, y64.shape[-2] // ys64.shape[-2], axis=-2)
    return _mma_steps(np.ascontiguousarray(x64), np.ascontiguousarray(y64), acc, max(x64.shape[-1], 1),
                      np.float64)
