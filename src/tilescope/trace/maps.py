"""Per-array pictures of one launch: which block wrote and read each element.

An array is shown as 2-D grids of cells: 2-D arrays as they are, 1-D arrays wrapped into rows,
higher ranks as labelled 2-D slices over their leading axes. Past a page's budget of cells,
a cell stands for a box of elements (the one at its top-left corner is sampled for tile
accesses; element accesses are counted into the cell they fall in). Tile accesses are folded
per tile first, so recording stays proportional to the number of tiles, not elements.

Per cell: the last block that wrote it and the first that read it, how many writes and reads,
the op of the last access, and flags: a race, a read of padding (cells past the array's edge,
inside the tiles that reached there), an out-of-bounds attempt, never written (in an array
the kernel writes), an atomic update, read by several blocks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import maps_c
from .recorder import ArrayRecord, joined

CELL_BUDGET = 1 << 16            # cells per array, all its slices together
MAX_SLICES = 16
SIDE = 512                       # a slice is at most 8·SIDE cells along either side

RACE, PADDING, OOB, UNWRITTEN, ATOMIC, SHARED = 1, 2, 4, 8, 16, 32


@dataclass
class Slice:
    label: str                   # e.g. "[3, :, :]"
    lead: Tuple[int, ...]        # leading indices (rank > 2)


@dataclass
class ArrayMaps:
    name: str
    shape: Tuple[int, ...]
    dtype: str
    written: bool
    rows: int                    # cells per slice, each way (including the padding margin)
    cols: int
    step: Tuple[int, int]        # elements per cell along rows, columns
    wrap: int                    # elements per row for 1-D arrays (0 otherwise)
    extent: Tuple[int, int]      # elements per slice shown (rows, columns), margin included
    inside: Tuple[int, int]      # elements per slice inside the array
    slices: List[Slice]
    more_slices: int
    wblock: np.ndarray           # (S, rows, cols) int32, -1 none
    rblock: np.ndarray
    wcount: np.ndarray           # uint16 (saturating)
    rcount: np.ndarray
    flags: np.ndarray            # uint8
    op: np.ndarray               # int16: index into the page's op table, -1 none
    notes: List[str] = field(default_factory=list)
    unseen_oob: List[Tuple[int, tuple]] = field(default_factory=list)   # (attempts, one: (block, element))


def build(rec: ArrayRecord, op_index: Dict[int, int], layouts: Optional[dict] = None) -> ArrayMaps:
    """The maps of one array. `layouts`: a store of what follows from an array's layout alone
    (the element each cell shows, which cells lie outside, which tile of a tiling each lies
    in), which arrays laid out alike share, on a page and across a folder's pages."""
    a = rec.array
    shape = tuple(int(d) for d in a.shape)
    nd = len(shape)
    margin = _margins(rec, shape)
    if nd <= 1:
        n = shape[0] if nd else 1
        tile = max([ev.shape[0] for ev in rec.tiles.values() if len(ev.shape) == 1] or [1])
        wrap = _wrap_width(n + margin[-1] if nd else 1, tile)
        inside = (-(-n // wrap), min(n, wrap))
        extent = (-(-(n + (margin[0] if nd else 0)) // wrap), wrap)
        lead_shape: Tuple[int, ...] = ()
    else:
        wrap = 0
        inside = shape[-2:]
        extent = (shape[-2] + margin[-2], shape[-1] + margin[-1])
        lead_shape = shape[:-2]
    n_lead = int(np.prod(lead_shape)) if lead_shape else 1
    shown = min(n_lead, MAX_SLICES)
    fy, fx = _steps(extent, max(1, CELL_BUDGET // shown))
    rows, cols = -(-extent[0] // fy), -(-extent[1] // fx)
    leads = [_lead_index(s, lead_shape) for s in range(shown)]
    slices = [Slice(_label(lead) if lead_shape else "", lead) for lead in leads]
    m = ArrayMaps(rec.name, shape, str(a.dtype), rec.written, rows, cols, (fy, fx), wrap, extent, tuple(inside),
                  slices, n_lead - shown,
                  np.full((shown, rows, cols), -1, np.int32), np.full((shown, rows, cols), -1, np.int32),
                  np.zeros((shown, rows, cols), np.uint16), np.zeros((shown, rows, cols), np.uint16),
                  np.zeros((shown, rows, cols), np.uint8), np.full((shown, rows, cols), -1, np.int16))
    layouts = {} if layouts is None else layouts
    layout = (shape, rows, cols, (fy, fx), wrap, tuple(sl.lead for sl in slices))
    if layout not in layouts:
        coords = _cell_elements(m)              # element coordinates sampled by each cell
        layouts[layout] = coords, np.ascontiguousarray(np.broadcast_to(~_inside(coords, shape), _cells(m)))
    coords, outside = layouts[layout]
    for run in _runs_alike(ev for ev in rec.tiles.values() if len(ev.shape) == len(shape)):
        _fold_tiles(m, run, coords, shape, outside, [op_index.get(id(ev.op), -1) for ev in run], layouts, layout)
    for ev in rec.lanes.values():
        _fold_lanes(m, ev, shape, op_index.get(id(ev.op), -1))
    _finish(m, rec, outside)
    return m


def _steps(extent, per_slice: int) -> Tuple[int, int]:
    """Elements per cell along each side: doubled on the longer side until the slice fits."""
    fy = fx = 1
    while True:
        rows, cols = -(-extent[0] // fy), -(-extent[1] // fx)
        if rows * cols <= per_slice and rows <= SIDE * 8 and cols <= SIDE * 8:
            return fy, fx
        if rows >= cols:
            fy *= 2
        else:
            fx *= 2


def _lead_index(s: int, lead_shape: Tuple[int, ...]) -> Tuple[int, ...]:
    """The leading indices of slice `s` (row-major over `lead_shape`)."""
    out = []
    for d in reversed(lead_shape):
        s, i = divmod(s, d)
        out.append(i)
    return tuple(reversed(out))


def _label(lead) -> str:
    return "[" + ", ".join([str(i) for i in lead] + [":"] * 2) + "]"


def _wrap_width(n: int, tile: int) -> int:
    """Elements per row for a 1-D array: the tile size times or divided by a power of two that
    comes nearest 2·√n (rows of whole tiles, or tiles spanning whole rows)."""
    target = 2 * math.sqrt(max(n, 1))
    options = [tile << k for k in range(24)] + [tile >> k for k in range(1, 24) if tile >> k and (tile >> k) << k == tile]
    width = min(options, key=lambda w: abs(math.log(w / target)))
    return max(1, min(width, n, 1 << 14))


OOB_MARGIN = 64                  # out-of-bounds attempts this close past the end are drawn in the margin


def _margins(rec: ArrayRecord, shape) -> Tuple[int, ...]:
    """Elements past each axis's end that tile accesses reached (padding, at most one tile) or
    out-of-bounds attempts landed (at most OOB_MARGIN)."""
    out = [0] * len(shape)
    for ev in rec.lanes.values():
        if ev.kind != "oob" or not ev.coords:
            continue
        for ax in range(len(shape)):
            hi = max(int(c[ax].max()) for c in ev.coords if len(c) > ax and c[ax].size)
            out[ax] = max(out[ax], min(hi + 1 - shape[ax], OOB_MARGIN))
    for ev in rec.tiles.values():
        if len(ev.shape) != len(shape) or not ev.index:
            continue
        for k, t in enumerate(ev.shape):
            ax = ev.order[k]
            hi = max(int(i[k].max()) for i in ev.index if i[k].size)
            end = min((hi + 1) * t, shape[ax] + t)
            out[ax] = max(out[ax], end - shape[ax])
    return tuple(out)


def _cell_elements(m: ArrayMaps) -> List[np.ndarray]:
    """Array coordinates of the element each cell samples: a list (one per axis), each
    broadcastable to (S, rows, cols) (an axis's coordinate varies along one of them only)."""
    r = (np.arange(m.rows) * m.step[0])[None, :, None]
    c = (np.arange(m.cols) * m.step[1])[None, None, :]
    if m.wrap:
        return [r * m.wrap + c] if m.shape else []
    lead = [np.asarray([sl.lead[k] for sl in m.slices], np.int64)[:, None, None] for k in range(len(m.shape) - 2)]
    return lead + [r, c]


def _cells(m: ArrayMaps) -> Tuple[int, int, int]:
    """The shape of each map: (slices, rows, cols)."""
    return len(m.slices), m.rows, m.cols


def _inside(coords, shape) -> np.ndarray:
    if not shape:
        return np.ones((1, 1, 1), bool)
    ok = np.ones((1, 1, 1), bool)
    for c, n in zip(coords, shape):
        ok = ok & (c >= 0) & (c < n)
    return ok


def _runs_alike(events) -> List[list]:
    """The tile events in runs of neighbours with one tiling and direction (a loop's loads of
    one array, say), each folded at once."""
    runs: List[list] = []
    for ev in events:
        if runs and (runs[-1][0].shape, runs[-1][0].order, runs[-1][0].write) == (ev.shape, ev.order, ev.write):
            runs[-1].append(ev)
        else:
            runs.append([ev])
    return runs


def _fold_tiles(m: ArrayMaps, run, coords, shape, outside, ops: List[int], layouts: dict, layout: tuple) -> None:
    """Add a run of tile events alike (`_runs_alike`; `ops`: their op numbers): per tile (last and
    first block, count, last op), then looked up per cell."""
    ev = run[0]
    blocks = joined([b for e in run for b in e.blocks])
    idx = [joined([i[k] for e in run for i in e.index]) for k in range(len(ev.shape))]
    # each entry's op, where the run has several (the last op at each tile is drawn)
    op_of = np.repeat(np.asarray(ops, np.int16), [sum(len(b) for b in e.blocks) for e in run]) \
        if len(set(ops)) > 1 else None
    counts = tuple(-(-(shape[ev.order[k]] + t) // t) for k, t in enumerate(ev.shape))
    # a tile entirely outside the array is no padding or write: its elements are recorded as
    # out-of-bounds attempts (TraceRecorder.tile_out_of_bounds)
    ok = None
    for k, t in enumerate(ev.shape):
        if idx[k].min() < 0 or int(idx[k].max()) * t >= shape[ev.order[k]]:   # (else all inside along k)
            inside = (idx[k] >= 0) & (idx[k] * t < shape[ev.order[k]])
            ok = inside if ok is None else ok & inside
    if ok is not None:
        if not ok.any():
            return
        blocks, idx = blocks[ok], [i[ok] for i in idx]
        op_of = op_of[ok] if op_of is not None else None
    size = math.prod(counts)
    flat = idx[0].astype(np.int32 if size < 1 << 31 else np.int64)   # the tile's number in the tile grid
    for k in range(1, len(idx)):
        flat = flat * counts[k] + idx[k]
    key = (layout, tuple(ev.shape), tuple(ev.order))
    cell = layouts.get(key)
    if cell is None:
        cell = layouts[key] = _tile_of_cells(m, ev, coords, counts)
    if maps_c.fold_tiles(m, flat, blocks, op_of, ops[0], size, cell, outside, ev.write, RACE if ev.write else SHARED,
                         PADDING):
        return
    last = _last_block(flat, blocks, size + 1)   # (entry `size`: cells whose element lies in no tile)
    cnt = np.bincount(flat, minlength=size + 1).astype(np.int32)
    c = np.take(cnt, cell)
    hit = c > 0
    if not hit.any():
        return
    lb, fb = np.take(last, cell), None
    if cnt.max() > 1 and not any(np.array_equal(i, blocks) for i in idx):
        # tiles accessed more than once, not each a block's own (index (bid, ...)): by one block each?
        first = _first_block(flat, blocks, last)
        fb = None if np.array_equal(first, last) else np.take(first, cell)
    op = ops[0]
    if op_of is not None:                       # the last op of the run at each tile
        per_tile = np.full(size + 1, -1, np.int16)
        per_tile[flat] = op_of                  # (a later entry wins: fancy assignment keeps the last)
        op = np.take(per_tile, cell)
    _add(m, hit, lb, lb if fb is None else fb, c, op, write=ev.write)
    if not ev.write:
        np.bitwise_or(m.flags, PADDING, out=m.flags, where=hit & outside)


def _tile_of_cells(m: ArrayMaps, ev, coords, counts) -> np.ndarray:
    """The tile (flat over the tile grid) of each cell's element; the grid's size where the
    element lies in no tile of the grid. Worked out per axis, then combined."""
    cell, valid = 0, True
    for k, t in enumerate(ev.shape):
        ti = coords[ev.order[k]] // t
        valid = valid & (ti >= 0) & (ti < counts[k])
        cell = cell * counts[k] + np.clip(ti, 0, counts[k] - 1)
    size = math.prod(counts)
    return np.ascontiguousarray(np.broadcast_to(np.where(valid, cell, size).astype(np.int32 if size < 1 << 31 else
                                                                                   np.int64), _cells(m)))


def _add(m: ArrayMaps, hit, last, first, count, op, *, write: bool) -> None:
    """Fold one op's accesses into the maps (whole-array passes, each restricted to `hit`).
    `last` and `first` are -1 and `count` 0 wherever `hit` is false; `first` may be `last`.
    A cell keeps its last writer and first reader as if blocks ran one after another: the
    largest and the least block, whatever order the ops are folded in."""
    block, counts, flag = (m.wblock, m.wcount, RACE) if write else (m.rblock, m.rcount, SHARED)
    mixed = None if first is last else first != last            # several blocks at a cell in this op
    if not counts.any():                                          # the first accesses of their kind
        several = mixed
        np.copyto(block, last if write else first)
        np.copyto(counts, np.minimum(count, 65535), casting="unsafe")
    else:
        prev = block
        several = hit & (prev >= 0) & (prev != (last if write else first))
        if mixed is not None:
            several |= mixed
        if write:
            np.maximum(block, last, out=block)                  # (last: -1 where not hit)
        else:
            np.copyto(block, first, where=hit & ((prev < 0) | (first < prev)))
        np.copyto(counts, np.minimum(65535, counts.astype(np.int64) + count), where=hit, casting="unsafe")
    if several is not None:
        np.bitwise_or(m.flags, flag, out=m.flags, where=several)
    np.copyto(m.op, op, where=hit)


def _fold_lanes(m: ArrayMaps, ev, shape, op: int) -> None:
    """Add one op's element accesses, each counted into the cell its element falls in."""
    if not ev.blocks:
        return
    blocks = joined(ev.blocks)
    coords = [joined([c[k] for c in ev.coords]) for k in range(len(shape))] if shape else []
    s, r, c = _cells_of(m, coords, blocks.size)
    keep = (s >= 0) & (r >= 0) & (r < m.rows) & (c >= 0) & (c < m.cols)
    if ev.kind == "oob" and not keep.all():       # (before the margin, or past it: said in a note)
        k = int(np.argmin(keep))
        m.unseen_oob.append((int((~keep).sum()), (int(blocks[k]), tuple(int(x[k]) for x in coords))))
    s, r, c, blocks = s[keep], r[keep], c[keep], blocks[keep]
    if not len(blocks):
        return
    size = len(m.slices) * m.rows * m.cols
    flat = np.ravel_multi_index((s, r, c), (len(m.slices), m.rows, m.cols))
    last = _last_block(flat, blocks, size)
    first = _first_block(flat, blocks, last)
    cnt = np.bincount(flat, minlength=size).reshape(len(m.slices), m.rows, m.cols)
    hit = cnt > 0
    last, first = last.reshape(hit.shape), first.reshape(hit.shape)
    if ev.kind == "oob":
        np.bitwise_or(m.flags, OOB, out=m.flags, where=hit)
        np.copyto(m.op, op, where=hit)
        return
    if ev.kind == "atomic":
        np.bitwise_or(m.flags, ATOMIC, out=m.flags, where=hit)
    _add(m, hit, last, first, cnt, op, write=ev.kind != "read")
    if ev.kind == "atomic":               # atomics from several blocks are no race
        np.bitwise_and(m.flags, ~RACE & 0xFF, out=m.flags, where=hit)


def _last_block(flat: np.ndarray, blocks: np.ndarray, size: int) -> np.ndarray:
    """Per entry of [0, size) the last block that ran an access there, blocks running one after
    another (the largest; -1: none). Taken by value, not by the order the accesses were
    recorded in: the executor records them by groups of blocks, compiled threads interleave."""
    last = np.full(size, -1, np.int32)
    np.maximum.at(last, flat, blocks.astype(np.int32, copy=False))
    return last


def _first_block(flat: np.ndarray, blocks: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Per entry the first block that ran an access there (the smallest; -1 where `last` is)."""
    first = np.full(len(last), np.iinfo(np.int32).max, np.int32)
    np.minimum.at(first, flat, blocks.astype(np.int32, copy=False))
    return np.where(last < 0, -1, first).astype(np.int32)


def _cells_of(m: ArrayMaps, coords: Sequence[np.ndarray], n: int):
    """(slice, row, column) cell of each element (-1 slice: not shown)."""
    if not m.shape:
        z = np.zeros(n, np.int64)
        return z, z, z
    if m.wrap:
        flat = coords[0]
        return np.where(flat >= 0, 0, -1), np.floor_divide(flat, m.wrap) // m.step[0], \
            np.mod(flat, m.wrap) // m.step[1]
    lead_shape = m.shape[:-2]
    s = np.zeros(n, np.int64)
    if lead_shape:
        ok = np.ones(n, bool)
        for k, d in enumerate(lead_shape):
            ok &= (coords[k] >= 0) & (coords[k] < d)
        s = np.where(ok, np.ravel_multi_index(tuple(np.clip(coords[k], 0, d - 1) for k, d in enumerate(lead_shape)),
                                              lead_shape), -1)
        s = np.where(s < len(m.slices), s, -1)
    return s, np.floor_divide(coords[-2], m.step[0]), np.floor_divide(coords[-1], m.step[1])


def mark_shared_memory_races(built: Sequence[Tuple[ArrayRecord, ArrayMaps]]) -> None:
    """Races through two arguments that share memory (overlapping views of one buffer), which
    each array's own maps cannot see: an element written by one block through one argument and
    read or written by another block through the other. Cells are matched by the address of
    the element they show (where a cell stands for several elements, only when both sample
    the same one)."""
    for i, (ra, ma) in enumerate(built):
        for rb, mb in built[i + 1:]:
            if ra.array.ndim and rb.array.ndim and np.may_share_memory(ra.array, rb.array):
                _mark_cross_races(ma, _cell_addresses(ra.array, ma), mb, _cell_addresses(rb.array, mb))


def _cell_addresses(a: np.ndarray, m: ArrayMaps) -> np.ndarray:
    """Byte address of the element each cell shows (flat over slices), -1 outside the array."""
    coords = _cell_elements(m)
    addr = np.full((1, 1, 1), a.__array_interface__["data"][0], np.int64)
    for c, stride in zip(coords, a.strides):
        addr = addr + c.astype(np.int64) * stride
    return np.broadcast_to(np.where(_inside(coords, m.shape), addr, -1), _cells(m)).reshape(-1)


def _mark_cross_races(ma: ArrayMaps, aa: np.ndarray, mb: ArrayMaps, ab: np.ndarray) -> None:
    ia, ib = np.nonzero(aa >= 0)[0], np.nonzero(ab >= 0)[0]
    if not len(ia) or not len(ib):
        return
    order = np.argsort(ab[ib], kind="stable")
    sb = ab[ib][order]
    pos = np.minimum(np.searchsorted(sb, aa[ia]), len(sb) - 1)
    same = sb[pos] == aa[ia]
    ia, ib = ia[same], ib[order[pos[same]]]          # cells of a and b showing one element
    wa, ra, fa = ma.wblock.reshape(-1)[ia], ma.rblock.reshape(-1)[ia], ma.flags.reshape(-1)[ia]
    wb, rb, fb = mb.wblock.reshape(-1)[ib], mb.rblock.reshape(-1)[ib], mb.flags.reshape(-1)[ib]

    def reads_other_write(r, f, w):                 # read through one argument, written through the other
        return (r >= 0) & (w >= 0) & ((r != w) | ((f & SHARED) > 0))
    race = ((wa >= 0) & (wb >= 0) & (wa != wb)) | reads_other_write(ra, fa, wb) | reads_other_write(rb, fb, wa)
    race &= ((fa & fb & ATOMIC) == 0)                # atomics among themselves never race
    ma.flags.reshape(-1)[ia[race]] |= RACE
    mb.flags.reshape(-1)[ib[race]] |= RACE


def _finish(m: ArrayMaps, rec: ArrayRecord, outside) -> None:
    """Reads of elements another block wrote are races; written arrays' untouched cells flagged."""
    if m.wcount.any() and m.rcount.any():       # (cells both written and read)
        rw = (m.wblock >= 0) & (m.rblock >= 0) & ((m.rblock != m.wblock) | ((m.flags & SHARED) > 0)) & \
            ((m.flags & ATOMIC) == 0) & ~outside
        m.flags[rw] |= RACE
    if rec.written:
        np.bitwise_or(m.flags, UNWRITTEN, out=m.flags, where=(m.wcount == 0) & ~outside & ((m.flags & ATOMIC) == 0))
    if m.step != (1, 1):
        m.notes.append(f"one cell stands for {m.step[0]}×{m.step[1]} elements (the one at its top-left "
                       f"corner is shown for tile accesses)")
    if m.more_slices:
        m.notes.append(f"{m.more_slices} more slice(s) not shown")
    if m.unseen_oob:
        n = sum(k for k, _ in m.unseen_oob)
        block, element = m.unseen_oob[0][1]
        shown = f", and {len(m.slices)} of the slices" if m.more_slices else ""
        m.notes.append(f"{n} out-of-bounds attempt(s) land outside the picture (it shows at most {OOB_MARGIN} "
                       f"elements past an end and none before a start{shown}), e.g. block {block} at element "
                       f"({', '.join(map(str, element))}{',' if len(element) == 1 else ''}): the check reports "
                       f"name them")
