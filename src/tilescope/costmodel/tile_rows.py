"""How a tile's rows lie in its array's memory, from the metadata: whole rows back to back, or each
a row's stride apart (what the lanes of an element-by-element warp instruction go down), or no
two elements side by side (an array strided along every axis)."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..ir.types import ArrayType


def whole_rows_run(t: ArrayType, shape) -> Optional[int]:
    """Elements of each contiguous run of memory a tile covers when its trailing axes span the
    array's whole trailing extents (row-major strides, as far as the metadata says): those axes and
    the one before them; one run where the tile's leading axes are all 1; None: the last axis is not whole."""
    k = len(shape) - 1
    while k > 0 and shape[k] == t.shape[k]:
        k -= 1
    if k == len(shape) - 1:
        return None
    strides = tuple(t.strides) if t.strides else (None,) * t.ndim
    expect = 1
    for d in range(t.ndim - 1, k - 1, -1):
        if strides[d] is not None and strides[d] != expect:
            return None
        expect *= t.shape[d] if isinstance(t.shape[d], int) else 0
    return int(np.prod(shape[k:]))


def row_pitch(t: ArrayType, shape, order, itemsize: int) -> int:
    """Bytes between a tile's neighbouring rows, where they are the array's rows in its own order
    (version 84): the array's row stride, row-major where the metadata is silent; 0 otherwise."""
    if len(shape) != t.ndim or t.ndim < 2 or shape[-2] <= 1 or tuple(order) != tuple(range(len(shape))):
        return 0
    row = t.strides[-2] if t.strides and isinstance(t.strides[-2], int) else t.shape[-1]
    return row * itemsize if isinstance(row, int) else 0


def isolated_elements(t: ArrayType) -> int:
    """The least distance, in elements, between an array's neighbouring elements along any axis
    of more than one element, where every stride is known and none is 1 (a view of every k-th
    element: `f32[N]:[8]`); 0 otherwise."""
    steps = [s for n, s in zip(t.shape, t.strides) if n != 1]
    if not steps or any(s is None for s in steps) or min(abs(s) for s in steps) <= 1:
        return 0
    return min(abs(s) for s in steps)


def known_bytes(shape, itemsize: int) -> Optional[int]:
    """The bytes of an array of this shape, where every extent is known (None otherwise)."""
    if shape is None or not all(isinstance(d, int) for d in shape):
        return None
    return int(np.prod(shape)) * itemsize if shape else itemsize
