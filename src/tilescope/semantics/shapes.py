"""Tiles made and reshaped: constants, arange, broadcasts, permutes, joins and byte views.

Values carry a leading block axis (size B, or 1 when the same for every block). The
executor's rules (ops/creation.py, elementwise.py, shape.py) and transpiled modules both
call these.
"""
from __future__ import annotations

import numpy as np

from .numerics import round_float


def const(value, dtype):
    """A constant as a (1,) storage array (floats rounded once into the dtype)."""
    return literal_tile([value], (), dtype)


def literal_tile(values, shape, dtype):
    """Python constants (already in the dtype's value set) as a (1, *shape) storage array."""
    if dtype.is_bool or dtype.is_int:
        out = np.array(list(values), dtype=dtype.numpy)
    else:
        out = round_float(np.array(list(values), dtype=np.float64), dtype)
    return out.reshape((1,) + tuple(shape))


def undef(shape, dtype):
    return np.zeros((1,) + tuple(shape), dtype=dtype.numpy)


def arange(n, dtype):
    return np.arange(n, dtype=dtype.numpy)[None]


def from_scalars(*scalars, shape, dtype):
    """The tile whose row-major elements are the scalars (each (B,) or (1,))."""
    lead = max(s.shape[0] for s in scalars)
    cols = [np.broadcast_to(s, (lead,)) for s in scalars]
    return np.stack(cols, axis=1).astype(dtype.numpy, copy=False).reshape((lead,) + tuple(shape))


def broadcast(x, shape):
    return np.broadcast_to(x, (x.shape[0],) + tuple(shape))


def reshape(x, shape):
    return x.reshape((x.shape[0],) + tuple(shape))


def permute(x, axes):
    """Result axis i is tile axis `axes[i]`."""
    return np.transpose(x, (0,) + tuple(a + 1 for a in axes))


def expand_lead(x, n):
    """`x` with its block axis at size n (a copy-free broadcast)."""
    return x if x.shape[0] == n else np.broadcast_to(x, (n,) + x.shape[1:])


def cat(x, y, axis):
    n = max(x.shape[0], y.shape[0])
    return np.concatenate([expand_lead(x, n), expand_lead(y, n)], axis=axis + 1)


def bitcast(x, dtype):
    """Same bits, new element type; storage types (bf16, fp8 via ml_dtypes, raw-bit e5m3) view directly."""
    target = dtype.numpy
    src = np.ascontiguousarray(x) if x.dtype.itemsize != target.itemsize else x
    return src.view(target)


def pack_bytes(x, src_dtype):
    """A 1-d tile's bytes as uint8 (the host is little-endian, like the GPU's memory); fp4: element
    2i goes to the low nibble of byte i, element 2i+1 to the high nibble."""
    if src_dtype.bitwidth == 4:
        bits = np.ascontiguousarray(x).view(np.uint8) & np.uint8(0x0F)
        return bits[:, 0::2] | (bits[:, 1::2] << np.uint8(4))
    a = np.ascontiguousarray(x)
    return a.view(np.uint8).reshape(a.shape[0], -1)


def unpack_bytes(x, dtype):
    """A 1-d uint8 tile's bytes as elements of `dtype` (the inverse of pack_bytes)."""
    b = np.ascontiguousarray(x)
    if dtype.bitwidth == 4:
        out = np.empty((b.shape[0], b.shape[1] * 2), dtype=np.uint8)
        out[:, 0::2] = b & np.uint8(0x0F)
        out[:, 1::2] = b >> np.uint8(4)
        return out.view(dtype.numpy)
    return b.view(dtype.numpy)
