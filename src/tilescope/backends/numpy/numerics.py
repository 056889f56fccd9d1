"""Element-wise numerics that must match the GPU bit for bit: conversions, rounding, int wrap."""
from __future__ import annotations

import numpy as np

from ... import dtypes as D


def round_to_tf32(x: np.ndarray) -> np.ndarray:
    """Round float32 values to TF32 (10 explicit mantissa bits), nearest-even, kept in float32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    keep = np.uint32(0xFFFFE000)
    lsb = (bits >> np.uint32(13)) & np.uint32(1)
    rounded = (bits + np.uint32(0x0FFF) + lsb) & keep
    special = (bits & np.uint32(0x7F800000)) == np.uint32(0x7F800000)   # inf / nan unchanged
    return np.where(special, bits, rounded).view(np.float32)


def convert(x: np.ndarray, src: D.DType, dst: D.DType) -> np.ndarray:
    """cuTile `astype`: float→int truncates toward zero (saturating), NaN→0; ints wrap; floats round RNE."""
    if src is dst:
        return x
    target = dst.numpy
    if dst is D.tfloat32:
        return round_to_tf32(np.asarray(x, dtype=np.float32))
    if dst.is_bool:
        return np.asarray(x) != 0
    if dst.is_int and src.is_float:
        f = np.asarray(x, dtype=np.float64)
        f = np.trunc(np.nan_to_num(f, nan=0.0))
        f = np.clip(f, dst.min, dst.max)
        return f.astype(target)
    if dst.is_int:
        return np.asarray(x).astype(target)          # two's complement wrap, as on the GPU
    if src.is_bool or src.is_int:
        return np.asarray(x).astype(np.float64).astype(target) if dst.bitwidth < 64 else np.asarray(x).astype(target)
    return np.asarray(x).astype(target)
