"""A traced launch run compiled: the kernel, built with `CompileOptions(log=True)`, appends
each block's accesses to a log (runtime ts_log: site, block, occurrence, then the tile index
of a tile access or the element of a gather, scatter or atomic lane);
after the launch the log becomes the trace recorder's events (tilescope.trace), the same
events the NumPy executor records access by access, at the compiled backend's speed.
"""
from __future__ import annotations

import ctypes
import threading
from typing import Dict, Optional

import numpy as np

from ...trace.recorder import MAX_LANES
from . import toolchain

LOG_WIDTH = 8                 # int32 per entry: site, block, occurrence, tile index (up to 5 axes)
LOG_CHUNK = 64                # entries of a chunk, each chunk of one site and one thread (TS_LOG_CHUNK)
# Entries kept per launch (256 MiB, touched only as far as used): twice the lanes a recorder
# keeps (MAX_LANES), so that the blocks whose lanes it keeps were logged whole, though threads
# run blocks out of order, and the lanes kept are those of the first blocks, as on the executor.
LOG_ENTRIES = 1 << 23
KEPT_ENTRIES = 1 << 20        # a thread keeps its buffer for the next traced launch up to this use

_buffers = threading.local()


class TraceLog:
    """The buffer a traced launch's kernel appends to (ts_ctx.log), in chunks of LOG_CHUNK
    entries stored column by column, and the count it made. The thread's buffer of its last
    traced launch is reused: its pages are already mapped, where a new one page-faults every
    128 entries (as much time as the kernel takes for small tiles)."""

    def __init__(self):
        shape = (max(1, LOG_ENTRIES // LOG_CHUNK), LOG_WIDTH, LOG_CHUNK)
        buf = getattr(_buffers, "buf", None)
        if buf is None or buf.shape != shape:
            buf = np.empty(shape, np.int32)
        _buffers.buf = None                  # (a launch in the kernel's own callbacks gets another)
        self.buf = buf
        self.handed = 0                      # entries handed out to the threads (ts_ctx.log_n)
        self.lost = 0                        # entries made past the end

    @property
    def capacity(self) -> int:
        """Entries the buffer holds (ts_ctx.log_cap)."""
        return len(self.buf) * LOG_CHUNK

    def release(self) -> None:
        """Done with the entries: keep the buffer for the thread's next traced launch, unless this
        one used more of it than a thread keeps mapped."""
        if self.handed <= KEPT_ENTRIES:
            _buffers.buf = self.buf

    def chunks(self) -> np.ndarray:
        """The chunks handed out, (chunks, LOG_WIDTH, LOG_CHUNK): in each, a site's entries of one
        range of blocks in order, then those its thread left unused (site -1)."""
        return self.buf[:min(self.handed, self.capacity) // LOG_CHUNK]


def deliver(ck, log: TraceLog, values, recorder, bounds: bool) -> None:
    """Hand the logged accesses to `recorder` (a TraceRecorder), site by site in block order
    (threads interleave their blocks' entries; blocks one after another is the order the
    executor records and the pictures read, e.g. for a cell's first reader): tile events, and
    under the bounds check (`bounds`) the tiles entirely outside their array as out-of-bounds
    attempts too, as the executor records them; lanes become lane events, those of the first
    blocks where they exceed the recorder's budget."""
    recorder.log_dropped += log.lost
    recorder.log_capacity = log.capacity
    by_site = site_columns(log.chunks(), [3 + _rank(s, values) for s in ck.log_sites])
    first_blocks = _lane_budget(ck, by_site, recorder)
    for site, cols in by_site.items():
        s = ck.log_sites[site]
        if s.lanes is not None and first_blocks is not None:
            cols = np.compress(cols[1] < first_blocks, cols, axis=1)
        ref = values[s.param_index]
        blocks, occurrence, cols = cols[1], cols[2], list(cols[3:])
        if s.lanes is not None:             # element accesses: the entries hold coordinates
            recorder.record_logged_lanes(s.op, ref, s.lanes, blocks, cols, occurrence)
            continue
        outside = None
        for i, t, n in zip(cols, s.shape, [ref.array.shape[s.order[k]] for k in range(len(s.shape))]):
            if bounds and (i.min() < 0 or int(i.max()) * t >= n):   # (else no tile lies outside along it)
                origin = i.astype(np.int64) * t
                off = (origin >= n) | (origin + t <= 0)
                outside = off if outside is None else outside | off
        recorder.record_logged_tiles(s.op, ref, s.write, s.shape, s.order, blocks, cols, occurrence, outside)


def _rank(site, values) -> int:
    """Axes a site's entries hold: the array's for lanes (coordinates), the tile's for tiles."""
    return values[site.param_index].array.ndim if site.lanes is not None else len(site.shape)


def site_columns(chunks: np.ndarray, widths) -> Dict[int, np.ndarray]:
    """Each site's entries, by site: the first `widths[site]` columns (site, block, occurrence,
    then its index or coordinates), (width, entries), each column contiguous (the recorder and
    the page make many passes over them), in block order, each block's in the order it made
    them; unused entries left out. A chunk holds one site's entries of a range of blocks in
    order (ts_log), so its chunks sorted by their first block are its log in block order (the
    sort is stable: chunks of one block, all of one thread, keep the order they were taken in)."""
    if not len(chunks):
        return {}
    site = chunks[:, 0, 0]
    order = np.lexsort((chunks[:, 1, 0], site))
    counts = np.bincount(site, minlength=len(widths))
    gather = toolchain.helper(_GATHER, "ts_gather_columns", [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                                             ctypes.c_int64, ctypes.c_void_p], ctypes.c_int64) \
        if chunks.dtype == np.int32 and chunks.flags.c_contiguous else None
    out, at = {}, 0
    for s in np.nonzero(counts)[0].tolist():
        ids = order[at:at + counts[s]]
        at += counts[s]
        if gather is not None:
            cols = np.empty((widths[s], len(ids) * LOG_CHUNK), np.int32)
            n = gather(chunks.ctypes.data, ids.ctypes.data, len(ids), widths[s], cols.ctypes.data)
            out[s] = cols[:, :n]
            continue
        mine = np.take(chunks, ids, axis=0)     # (whole chunks: a few times faster)
        cols = mine[:, :widths[s]].transpose(1, 0, 2).reshape(widths[s], -1)
        if (mine[:, 0, -1] < 0).any():       # (chunks left in part unused)
            cols = np.compress(cols[0] >= 0, cols, axis=1)      # (rows stay contiguous, unlike cols[:, ...])
        out[s] = cols
    return out


# site_columns's copy in one pass: the chunks `ids` (in order) of a log (chunks of TS_LOG_CHUNK
# entries, TS_LOG_WIDTH columns each), their first `width` columns into `out` (width rows of
# n * TS_LOG_CHUNK), the entries each chunk used (those before its first of site -1) only;
# returns the entries copied. (NumPy's take, transpose and compress: three copies.)
_GATHER = f"""
#include <stdint.h>
#include <string.h>
__attribute__((visibility("default")))
int64_t ts_gather_columns(const int32_t *chunks, const int64_t *ids, int64_t n, int64_t width, int32_t *out) {{
    int64_t row = n * {LOG_CHUNK}, m = 0;
    for (int64_t c = 0; c < n; c++) {{
        const int32_t *chunk = chunks + ids[c] * {LOG_WIDTH * LOG_CHUNK};
        int64_t used = 0;
        while (used < {LOG_CHUNK} && chunk[used] >= 0) used++;
        for (int64_t col = 0; col < width; col++)
            memcpy(out + col * row + m, chunk + col * {LOG_CHUNK}, used * sizeof(int32_t));
        m += used;
    }}
    return m;
}}
"""


def _lane_budget(ck, by_site: Dict[int, np.ndarray], recorder) -> Optional[int]:
    """Where the lanes exceed what the recorder keeps (MAX_LANES), the block below which they
    are kept (and the rest counted as dropped), as the executor keeps those of its first
    groups of blocks; None when they all fit. `by_site`: site_columns."""
    lanes = [cols[1] for s, cols in by_site.items() if ck.log_sites[s].lanes is not None]
    room = MAX_LANES - recorder.lanes_kept
    if sum(len(b) for b in lanes) <= room:
        return None
    blocks = np.sort(np.concatenate(lanes))
    first = int(blocks[max(room, 0)])
    recorder.lanes_dropped += int((blocks >= first).sum())
    return first
