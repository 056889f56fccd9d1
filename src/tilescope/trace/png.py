"""PNG pictures of an array's cells (zlib only), in the colours the trace page uses.

Colours (trace.js draws the same): a written cell takes its writer block's hue, full
strength; a cell only read takes its reader's hue, pale; read by several blocks, grey (darker
with more reads); never written (in an array the kernel writes), dark slate; a race, magenta
with a black centre; a read of padding, pale blue-grey stripes; an out-of-bounds attempt, red.
"""
from __future__ import annotations

import math
import struct
import zlib
from typing import Optional

import numpy as np

from . import png_c
from .maps import ATOMIC, OOB, PADDING, RACE, SHARED, UNWRITTEN, ArrayMaps

GOLDEN = 0.6180339887

_FIXED = np.array([(255, 255, 255), (72, 82, 96), (205, 214, 226), (236, 240, 245), (150, 120, 40),
                   (230, 0, 200), (230, 20, 20)], np.uint8)
WHITE, UNWRITTEN_C, STRIPE_A, STRIPE_B, ATOMIC_C, RACE_C, OOB_C = range(7)
_DEPTH = np.clip(np.log2(1 + np.arange(256, dtype=np.float64)) / 8, 0, 1)
_GREYS = np.repeat((215 - 110 * _DEPTH).astype(np.uint8)[:, None], 3, axis=1)
_BASE = len(_FIXED) + len(_GREYS)                # palette codes of the block hues start here
_DARK = (np.arange(256, dtype=np.uint8) * 0.85).astype(np.uint8)    # a grid line over a channel value


def _hue_rgb(blocks: np.ndarray):
    """(pale, full) colours by block: hue in golden-ratio steps (neighbours differ), mixed with
    white by 0.6 for the pale ones. (x % 1.0 and y % 6 are worked out as the exact differences
    they equal here: x >= 0, 1 <= y < 12.)"""
    x = blocks.astype(np.float64) * GOLDEN
    y = ((x - np.floor(x)) * 6)[..., None] + np.array([5.0, 3.0, 1.0])     # red, green and blue at once
    k = np.where(y >= 6, y - 6, y)
    rgb = (1 - 0.75 * np.maximum(0, np.minimum(np.minimum(k, 4 - k), 1))) * 0.85
    return tuple((255 * (rgb * (1 - light) + light)).astype(np.uint8) for light in (0.6, 0.0))


class Hues:
    """The block hues (pale and full), tabled by id as arrays need them."""

    def __init__(self):
        self._both = (np.zeros((0, 3), np.uint8),) * 2      # (one value: threads see both or neither)

    def table(self, top: int):
        pale, full = self._both
        if top > len(pale):
            more = _hue_rgb(np.arange(len(pale), top))
            pale, full = self._both = np.concatenate([pale, more[0]]), np.concatenate([full, more[1]])
        return pale[:top], full[:top]


HUES = Hues()                    # every page's: a block's hue depends on its id alone


def codes(m: ArrayMaps, iw, ir, pale0: int, full0: int, both: int) -> np.ndarray:
    """The (S, rows, cols) code of each cell of every slice into the array's palette (`_palette`,
    which gives the other arguments: the fixed colours, 256 greys, then white and the pale hues
    of the blocks, white and their full hues: block -1 is white), so the pictures cost a few
    passes over the cells and one lookup."""
    w, r, f = m.wblock, m.rblock, m.flags
    if both == 0:
        code = (ir + pale0).astype(np.int32)
    elif both == 1:
        code = (iw + full0).astype(np.int32)
    else:
        code = np.where(w >= 0, iw + full0, ir + pale0).astype(np.int32)
    present = int(np.bitwise_or.reduce(f, axis=None)) if f.size else 0      # the flags that occur
    if present & SHARED:
        np.copyto(code, len(_FIXED) + np.minimum(m.rcount, 255), where=((f & SHARED) > 0) & (r >= 0) & (w < 0),
                  casting="unsafe")
    if present & UNWRITTEN:
        np.copyto(code, UNWRITTEN_C, where=(f & UNWRITTEN) > 0)
    if present & PADDING:
        yy, xx = np.indices(w.shape[1:])
        np.copyto(code, np.where((yy + xx) % 4 < 2, STRIPE_A, STRIPE_B), where=(f & PADDING) > 0)
    if present & ATOMIC:
        np.copyto(code, ATOMIC_C, where=((f & ATOMIC) > 0) & (w < 0))
    if present & RACE:
        np.copyto(code, RACE_C, where=(f & RACE) > 0)
    if present & OOB:
        np.copyto(code, OOB_C, where=(f & OOB) > 0)
    return code


def _palette(m: ArrayMaps):
    """(palette, the block numbers of the writers and readers in it, where its pale and full
    hues start, 0 when no cell was written, 1 when none was read, else 2)."""
    w, r = m.wblock, m.rblock
    wtop, rtop = int(w.max(initial=-1)), int(r.max(initial=-1))
    top = max(wtop, rtop) + 1
    if top <= 4 * w.size + 1024:                  # dense ids: a table by id
        pale, full = HUES.table(top)
        iw, ir = w, r
    else:
        ids = np.unique(np.concatenate([r[r >= 0], w[w >= 0]]))
        pale, full = _hue_rgb(ids)
        iw, ir = (np.where(b >= 0, np.searchsorted(ids, b), -1) for b in (w, r))
    palette = np.concatenate([_FIXED, _GREYS, _FIXED[:1], pale, _FIXED[:1], full])
    return palette, iw, ir, _BASE + 1, _BASE + len(pale) + 2, 0 if wtop < 0 else 1 if rtop < 0 else 2


def _sheet_codes(m: ArrayMaps):
    """(codes, palette) of the array's sheet (`_sheet`), with only the colours that occur."""
    palette, iw, ir, pale0, full0, both = _palette(m)
    palette = np.concatenate([palette, np.array([GAP], np.uint8)])
    gap = len(palette) - 1
    if iw is m.wblock:                          # (block ids as they are: C's case)
        made = png_c.cell_codes(m, palette, both, pale0, full0, gap if len(m.slices) > 1 else None, len(_FIXED),
                                (RACE, PADDING, OOB, UNWRITTEN, ATOMIC, SHARED, UNWRITTEN_C, STRIPE_A, STRIPE_B,
                                 ATOMIC_C, RACE_C, OOB_C))
        if made is not None:
            code, palette, gap = made
            return _sheet(code, gap), palette
    return _compact(_sheet(codes(m, iw, ir, pale0, full0, both), gap), palette)


def scale_for(rows: int, cols: int) -> int:
    """Pixels per cell: small arrays are enlarged (up to 8×) to about 256 pixels across."""
    return max(1, min(8, 256 // max(rows, cols, 1)))


GAP = (0, 0, 0)                  # the colour between slices in an array's PNG


def sheet_layout(n: int):
    """(rows, columns) of slices in an array's PNG: as many columns as rows or one more."""
    across = max(1, math.ceil(math.sqrt(n)))
    return -(-n // across), across


def array_png(m: ArrayMaps) -> bytes:
    """The array's PNG: its slices (one for ranks 1 and 2) left to right, then top to bottom,
    in the page's order (`sheet_layout`), a black cell apart, the slice labels in the PNG's
    Description. Each cell is k×k pixels (`scale_for` of the whole sheet), with thin grid lines
    between cells from k = 4 (a cell's top pixel row and left pixel column darkened). A sheet
    of at most 256 colours is written with a palette (one byte a pixel: a third of the bytes
    to compress)."""
    code, palette = _sheet_codes(m)             # only the colours that occur (a few, mostly)
    rows, cols = code.shape
    k = scale_for(rows, cols)
    line = _DARK[palette] if k >= 4 else palette
    shades = [palette, line, _DARK[line]] if k >= 4 else [palette]
    text = _description(m)
    if len(palette) * len(shades) <= 256:
        n = len(palette)
        ids = np.arange(n, dtype=np.uint8)[:, None]
        # a pixel's PLTE entry: its colour's number, + n in the grid line's shade, + 2·n in the
        # darker one where two lines cross
        first = ids + n if k >= 4 else ids
        px = _scanlines(code.astype(np.uint8), k, 1, _runs(first, ids, k),
                        _runs(ids + 2 * n, ids + n, k) if k >= 4 else None)
        return _encode_raw(px, cols * k, 3, np.concatenate(shades).tobytes(), text)
    px = _scanlines(code, k, 3, _runs(line, palette, k), _runs(_DARK[line], line, k) if k >= 4 else None)
    return _encode_raw(px, cols * k, 2, text=text)


def _sheet(code: np.ndarray, gap: int) -> np.ndarray:
    """The (S, rows, cols) codes of the slices laid out as one picture (`sheet_layout`), a cell
    of code `gap` between neighbours."""
    n, rows, cols = code.shape
    if n == 1:
        return code[0]
    down, across = sheet_layout(n)
    out = np.full((down * (rows + 1) - 1, across * (cols + 1) - 1), gap, code.dtype)
    for s in range(n):
        y, x = divmod(s, across)
        out[y * (rows + 1):y * (rows + 1) + rows, x * (cols + 1):x * (cols + 1) + cols] = code[s]
    return out


def _description(m: ArrayMaps) -> str:
    """What the PNG shows, for its Description: the array, and where its slices lie."""
    text = f"tilescope trace: array {m.name} {m.dtype}{list(m.shape)}"
    if len(m.slices) > 1:
        down, across = sheet_layout(len(m.slices))
        text += (f"; slices {', '.join(s.label for s in m.slices)} in {down} row(s) of {across}, "
                 f"left to right, top to bottom")
    if m.more_slices:
        text += f"; {m.more_slices} more slice(s) not shown"
    return text


def _compact(code: np.ndarray, palette: np.ndarray):
    used = np.flatnonzero(np.bincount(code.reshape(-1), minlength=len(palette)))
    remap = np.zeros(len(palette), np.int32)
    remap[used] = np.arange(len(used))
    return np.take(remap, code), palette[used]       # (take: several times faster than remap[code])


def _scanlines(code: np.ndarray, k: int, depth: int, body: np.ndarray, top: Optional[np.ndarray]) -> np.ndarray:
    """(rows·k, 1 + cols·k·depth) scanlines: each cell row is k pixel rows, the top one from
    the `top` runs (the grid line; else as the others) and k - 1 alike from `body`; a run is the
    bytes of a cell's k pixels in a row, looked up once per cell."""
    rows, cols = code.shape
    b = np.take(body, code).view(np.uint8)                       # (rows, cols·k·depth)
    raw = np.empty((rows, k, 1 + cols * k * depth), np.uint8)
    raw[..., 0] = 0                                              # filter byte 0 (none) per row
    raw[:, 1:, 1:] = b[:, None, :]
    raw[:, 0, 1:] = np.take(top, code).view(np.uint8) if top is not None else b
    return raw.reshape(rows * k, -1)


def _runs(first: np.ndarray, rest: np.ndarray, k: int) -> np.ndarray:
    """Per entry, the bytes of a cell's k pixels in a row (the first one `first`) as one item."""
    out = np.empty((len(first), k) + first.shape[1:], np.uint8)
    out[:, 0] = first
    out[:, 1:] = rest[:, None]
    return out.reshape(len(first), -1).view(f"V{out[0].size}").reshape(-1)


def encode(rgb: np.ndarray) -> bytes:
    """A PNG (8-bit RGB, no interlace) of an (h, w, 3) uint8 array."""
    h, w, _ = rgb.shape
    raw = np.zeros((h, w * 3 + 1), np.uint8)          # filter byte 0 (none) per row
    raw[:, 1:] = rgb.reshape(h, w * 3)
    return _encode_raw(raw, w)


def _encode_raw(raw: np.ndarray, w: int, kind: int = 2, plte: bytes = b"", text: str = "") -> bytes:
    """A PNG of scanlines `raw` (each row's filter byte, then its pixels): 8-bit RGB (`kind` 2) or
    8-bit indices into `plte` (`kind` 3); `text`, when given, its Description."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", w, len(raw), 8, kind, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + (chunk(b"PLTE", plte) if plte else b"") + \
        (chunk(b"tEXt", b"Description\0" + text.encode("latin-1", "replace")) if text else b"") + \
        chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b"")


def decode(data: bytes) -> np.ndarray:
    """The (h, w, 3) pixels of a PNG written here (for tests and checks)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header, plte = 8, b"", None, None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError(f"bad CRC in chunk {kind!r}")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            plte = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 3):
        raise ValueError("only 8-bit RGB or palette pictures are read here")
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, -1)
    if raw[:, 0].any():
        raise ValueError("only unfiltered rows are read here")
    return raw[:, 1:].reshape(h, w, 3) if colour == 2 else plte[raw[:, 1:]]
