"""PNG pictures of an array's cells (zlib only), in the colours the trace page uses.

Colours (trace.js draws the same): a written cell takes its writer block's hue, full
strength; a cell only read takes its reader's hue, pale; read by several blocks, grey (darker
with more reads); never written (in an array the kernel writes), dark slate; a race, magenta
with a black centre; a read of padding, pale blue-grey stripes; an out-of-bounds attempt, red.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np

from .maps import ATOMIC, OOB, PADDING, RACE, SHARED, UNWRITTEN, ArrayMaps

GOLDEN = 0.6180339887


def block_rgb(blocks: np.ndarray, light: float) -> np.ndarray:
    """Hue by block (golden-ratio steps: neighbours differ), mixed with white by `light`."""
    if blocks.size > 256:                         # a table of every block id up to the largest
        top = int(blocks.max(initial=0)) + 1
        if top <= 4 * blocks.size:
            return _hue_rgb(np.arange(top), light)[blocks]
        ids, inverse = np.unique(blocks, return_inverse=True)
        return _hue_rgb(ids, light)[inverse.reshape(blocks.shape)]
    return _hue_rgb(blocks, light)


def _hue_rgb(blocks: np.ndarray, light: float) -> np.ndarray:
    h = (blocks.astype(np.float64) * GOLDEN) % 1.0
    k = lambda n: (n + h * 6) % 6                                       # noqa: E731
    f = lambda n: 1 - 0.75 * np.maximum(0, np.minimum(np.minimum(k(n), 4 - k(n)), 1))   # noqa: E731
    rgb = np.stack([f(5), f(3), f(1)], axis=-1) * 0.85
    return (255 * (rgb * (1 - light) + light)).astype(np.uint8)


def colours(m: ArrayMaps, s: int) -> np.ndarray:
    """(rows, cols, 3) uint8 colours of slice `s`: each cell gets a code into one palette
    (white, the fixed colours, 256 greys, then the hues of the blocks that occur), so the
    picture costs a few passes over the cells and one lookup."""
    w, r, f = m.wblock[s], m.rblock[s], m.flags[s]
    fixed = np.array([(255, 255, 255), (72, 82, 96), (205, 214, 226), (236, 240, 245), (150, 120, 40),
                      (230, 0, 200), (230, 20, 20)], np.uint8)
    white, unwritten, stripe_a, stripe_b, atomic, race, oob = range(7)
    depth = np.clip(np.log2(1 + np.arange(256, dtype=np.float64)) / 8, 0, 1)
    greys = np.repeat((215 - 110 * depth).astype(np.uint8)[:, None], 3, axis=1)
    ids = np.concatenate([r[r >= 0], w[w >= 0]])
    blocks, where = _distinct(ids)
    nb = len(blocks)
    palette = np.concatenate([fixed, greys, block_rgb(blocks, 0.6), block_rgb(blocks, 0.0)])
    code = np.full(w.shape, white, np.int64)
    nr = int((r >= 0).sum())
    base = len(fixed) + 256
    code[r >= 0] = base + where[:nr]
    shared = (r >= 0) & ((f & SHARED) > 0) & (w < 0)
    code = np.where(shared, len(fixed) + np.minimum(m.rcount[s], 255), code)
    code[w >= 0] = base + nb + where[nr:]
    if f.any():
        code[(f & UNWRITTEN) > 0] = unwritten
        pad = (f & PADDING) > 0
        if pad.any():
            yy, xx = np.indices(w.shape)
            code = np.where(pad, np.where((yy + xx) % 4 < 2, stripe_a, stripe_b), code)
        code[((f & ATOMIC) > 0) & (w < 0)] = atomic
        code[(f & RACE) > 0] = race
        code[(f & OOB) > 0] = oob
    return palette[code]


def _distinct(ids: np.ndarray):
    """(distinct ids in order, each id's position among them), without sorting when the ids
    are dense enough for a table."""
    if not ids.size:
        return ids, ids
    top = int(ids.max()) + 1
    if top > 4 * ids.size + 1024:
        return np.unique(ids, return_inverse=True)
    present = np.bincount(ids, minlength=top) > 0
    return np.flatnonzero(present), (np.cumsum(present) - 1)[ids]


def scale_for(rows: int, cols: int) -> int:
    """Pixels per cell: small arrays are enlarged (up to 8×) to about 256 pixels across."""
    return max(1, min(8, 256 // max(rows, cols, 1)))


def slice_png(m: ArrayMaps, s: int) -> bytes:
    px = colours(m, s)
    k = scale_for(m.rows, m.cols)
    if k > 1:
        h, w, _ = px.shape
        px = np.broadcast_to(px[:, None, :, None, :], (h, k, w, k, 3)).reshape(h * k, w * k, 3).copy()
        if k >= 4:                                   # thin grid lines between cells
            px[::k, :, :] = (px[::k, :, :] * 0.85).astype(np.uint8)
            px[:, ::k, :] = (px[:, ::k, :] * 0.85).astype(np.uint8)
    return encode(px)


def encode(rgb: np.ndarray) -> bytes:
    """A PNG (8-bit RGB, no interlace) of an (h, w, 3) uint8 array."""
    h, w, _ = rgb.shape
    raw = np.zeros((h, w * 3 + 1), np.uint8)          # filter byte 0 (none) per row
    raw[:, 1:] = rgb.reshape(h, w * 3)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw.tobytes(), 1)) + \
        chunk(b"IEND", b"")


def decode(data: bytes) -> np.ndarray:
    """The (h, w, 3) pixels of a PNG written by `encode` (for tests and checks)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, size = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError(f"bad CRC in chunk {kind!r}")
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = size
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, w * 3 + 1)
    if raw[:, 0].any():
        raise ValueError("only unfiltered rows are read here")
    return raw[:, 1:].reshape(h, w, 3)
