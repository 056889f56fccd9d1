"""A traced launch run compiled: the kernel, built with `CompileOptions(log=True)`, appends
each block's accesses to a log (runtime ts_log: site, block, occurrence, then the tile index
of a tile access or the element of a gather, scatter or atomic lane);
after the launch the log becomes the trace recorder's events (tilescope.trace), the same
events the NumPy executor records access by access, at the compiled backend's speed.
"""
from __future__ import annotations

import threading
from typing import Optional

import numpy as np

from ...trace.recorder import MAX_LANES

LOG_WIDTH = 8                 # int32 per entry: site, block, occurrence, tile index (up to 5 axes)
LOG_CHUNK = 256               # entries a thread takes at a time (TS_LOG_CHUNK)
# Entries kept per launch (256 MiB, touched only as far as used): twice the lanes a recorder
# keeps (MAX_LANES), so that the blocks whose lanes it keeps were logged whole, though threads
# run blocks out of order, and the lanes kept are those of the first blocks, as on the executor.
LOG_ENTRIES = 1 << 23
KEPT_ENTRIES = 1 << 20        # a thread keeps its buffer for the next traced launch up to this use

_buffers = threading.local()


class TraceLog:
    """The buffer a traced launch's kernel appends to (ts_ctx.log) and the count it made. The
    thread's buffer of its last traced launch is reused: its pages are already mapped, where a
    new one page-faults every 128 entries (as much time as the kernel takes for small tiles)."""

    def __init__(self):
        buf = getattr(_buffers, "buf", None)
        if buf is None or len(buf) != LOG_ENTRIES:
            buf = np.empty((LOG_ENTRIES, LOG_WIDTH), np.int32)
        _buffers.buf = None                  # (a launch in the kernel's own callbacks gets another)
        self.buf = buf
        self.handed = 0                      # entries handed out to the threads (ts_ctx.log_n)
        self.lost = 0                        # entries made past the end

    def release(self) -> None:
        """Done with the entries: keep the buffer for the thread's next traced launch, unless this
        one used more of it than a thread keeps mapped."""
        if self.handed <= KEPT_ENTRIES:
            _buffers.buf = self.buf

    def entries(self) -> np.ndarray:
        """The entries handed out: those made, and those a thread's last chunk left unused
        (site -1, block 0)."""
        return self.buf[:min(self.handed, len(self.buf))]


def deliver(ck, log: TraceLog, values, recorder, bounds: bool) -> None:
    """Hand the logged accesses to `recorder` (a TraceRecorder), site by site in block order
    (threads interleave their blocks' entries; blocks one after another is the order the
    executor records and the pictures read, e.g. for a cell's first reader): tile events, and
    under the bounds check (`bounds`) the tiles entirely outside their array as out-of-bounds
    attempts too, as the executor records them; lanes become lane events, those of the first
    blocks where they exceed the recorder's budget."""
    e = log.entries()
    recorder.log_dropped += log.lost
    recorder.log_capacity = len(log.buf)
    if not len(e):
        return
    order, counts = _site_and_block_order(e, len(ck.log_sites))     # (the unused entries left out)
    sites = np.nonzero(counts)[0].tolist()
    if not sites:
        return
    ranks = {site: _rank(ck.log_sites[site], values) for site in sites}
    # the columns used, each contiguous (the recorder and the page make many passes over them;
    # over a column of the rows, each pass is several times slower)
    e = np.ascontiguousarray(np.take(e, order, axis=0)[:, :3 + max(ranks.values())].T)
    ends = np.cumsum(counts)
    first_blocks = _lane_budget(ck, e, recorder)
    for site in sites:
        s = ck.log_sites[site]
        cols = e[:, ends[site] - counts[site]:ends[site]]
        if s.lanes is not None and first_blocks is not None:
            cols = cols[:, cols[1] < first_blocks]
        ref = values[s.param_index]
        blocks, occurrence, cols = cols[1], cols[2], [cols[3 + k] for k in range(ranks[site])]
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


def _site_and_block_order(e: np.ndarray, nsites: int):
    """(order, counts): the entries made (their rows in `e`) by site, then block, each block's in
    the order it made them, and how many each site made; unused entries (site -1) left out. A
    chunk of LOG_CHUNK entries holds blocks of one range, in order (ts_log), so the chunks sorted
    by their first block put the log in block order; one stable radix sort by site follows."""
    by_block = np.argsort(e[::LOG_CHUNK, 1], kind="stable")
    rows = (by_block.astype(np.int32)[:, None] * LOG_CHUNK + np.arange(LOG_CHUNK, dtype=np.int32)).reshape(-1)
    if len(e) % LOG_CHUNK:                      # (a log cut short by its end: its last chunk in part)
        rows = rows[rows < len(e)]
    narrow = np.uint8 if nsites < 255 else np.uint16                   # (-1, unused, wraps to the largest)
    sites = np.take(e[:, 0], rows).astype(narrow)
    by_site = np.argsort(sites, kind="stable")
    counts = np.bincount(sites, minlength=nsites + 1)[:nsites]
    order = np.take(rows, by_site[:int(counts.sum())])
    return order, counts


def _lane_budget(ck, e: np.ndarray, recorder) -> Optional[int]:
    """Where the lanes exceed what the recorder keeps (MAX_LANES), the block below which they
    are kept (and the rest counted as dropped), as the executor keeps those of its first
    groups of blocks; None when they all fit. `e`: the entries' columns (site, block, ...)."""
    lane_sites = [i for i, s in enumerate(ck.log_sites) if s.lanes is not None]
    if not lane_sites:
        return None
    blocks = e[1, np.isin(e[0], lane_sites)]
    room = MAX_LANES - recorder.lanes_kept
    if len(blocks) <= room:
        return None
    blocks = np.sort(blocks)
    first = int(blocks[max(room, 0)])
    recorder.lanes_dropped += int((blocks >= first).sum())
    return first
