"""Exact inter-block race detection: which block wrote and which read each element in one launch.

Arrays accessed only as aligned tiles of one shape (the last ones possibly partial) are
tracked per *tile* (cheap: one entry per tile); any other access switches that array to
per-element tracking. A conflict is two different blocks writing one element, or one block
reading an element another block writes, without atomics.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

from .tiles import in_bounds, tile_coords

NONE, MANY = -1, -2
_READ_WRITE = "access it, one reading what the other writes,"     # (a report's wording)


class _State:
    def __init__(self, arr):
        self.arr = arr
        self.pattern: Optional[Tuple] = None       # (tile_shape, order) in tile mode
        self.writers: Optional[np.ndarray] = None
        self.readers: Optional[np.ndarray] = None
        self.element = False
        self.first_store = None                    # the first op that wrote it (for reports)


class RaceTracker:
    def __init__(self, watched_reads=None, report_races: bool = True):
        self.states: Dict[int, _State] = {}
        self.watched_reads = watched_reads      # array argument indices some op writes (None: all)
        self.report_races = report_races        # False: only record writes (for the uninit check)
        self.reported = set()

    def _state(self, arr) -> _State:
        st = self.states.get(id(arr.array))
        if st is None:
            st = self.states[id(arr.array)] = _State(arr)
        return st

    def report_unwritten(self, kernel: str, checks) -> None:
        """After a launch: for each array some plain store wrote, the elements no block wrote."""
        for st in self.states.values():
            if st.first_store is None:
                continue
            written = st.writers != NONE
            if not st.element:
                written = _expand(written.astype(np.int32), st.pattern, st.arr.array.shape) == 1
            missing = int(written.size - np.count_nonzero(written))
            if missing:
                first = tuple(int(i) for i in np.unravel_index(int(np.argmin(written)), written.shape))
                checks.add(kernel, st.first_store.loc, None,
                           f"{missing} of {written.size} elements of array '{st.arr.name}' were never written "
                           f"by any block (first: element {first}); is the grid large enough?")

    # ---- entry points -------------------------------------------------------------

    def watches_reads_of(self, arr) -> bool:
        """Whether reads of `arr` are recorded (only arrays some op writes can race a read)."""
        return self.watched_reads is None or arr.index in self.watched_reads

    def record_tile(self, ex, op, arr, index, shape, order, mask, *, write: bool) -> None:
        if not write and not self.watches_reads_of(arr):
            return
        shape, order = tuple(shape), tuple(order)
        blocks = ex.linear_block_ids()[mask].astype(np.int32)
        if not len(blocks):
            return
        st = self._state(arr)
        if shape and not st.element and st.pattern in (None, (shape, order)) and \
                _in_tile_grid(index, shape, order, arr.array.shape):
            if st.pattern is None:
                st.pattern = (shape, order)
                counts = tuple(-(-arr.array.shape[order[k]] // shape[k]) for k in range(len(shape)))
                st.writers = np.full(counts, NONE, np.int32)
                st.readers = np.full(counts, NONE, np.int32)
            idx = tuple(np.broadcast_to(i, blocks.shape).astype(np.intp) for i in index)
            self._check(ex, op, arr, st, idx, blocks, write, tile=(shape, order))
            return
        self._to_element(arr, st)
        if not shape:
            coords = tuple(np.zeros(len(blocks), np.intp) for _ in range(arr.array.ndim))
            self._check(ex, op, arr, st, coords, blocks, write)
            return
        coords = tile_coords(index, shape, order)
        full = (len(blocks),) + shape
        inb = np.broadcast_to(in_bounds(coords, arr.array.shape), full)
        cs = tuple(np.broadcast_to(c, full)[inb] for c in coords)
        bl = np.broadcast_to(blocks.reshape((-1,) + (1,) * len(shape)), full)[inb]
        self._check(ex, op, arr, st, cs, bl, write)

    def record_elements(self, ex, op, arr, coords, blocks, *, write: bool) -> None:
        if not write and not self.watches_reads_of(arr):
            return
        st = self._state(arr)
        self._to_element(arr, st)
        self._check(ex, op, arr, st, coords, blocks.astype(np.int32), write)

    def record_tile_store(self, ex, op, arr, index, shape, order, mask) -> None:
        self.record_tile(ex, op, arr, index, shape, order, mask, write=True)

    # ---- bookkeeping ----------------------------------------------------------------

    def _to_element(self, arr, st: _State) -> None:
        if st.element:
            return
        shape = arr.array.shape
        if st.pattern is None:
            st.writers = np.full(shape, NONE, np.int32)
            st.readers = np.full(shape, NONE, np.int32)
        else:
            st.writers = _expand(st.writers, st.pattern, shape)
            st.readers = _expand(st.readers, st.pattern, shape)
        st.element = True
        st.pattern = None

    def _check(self, ex, op, arr, st, idx, blocks, write, tile=None) -> None:
        if write and st.first_store is None:
            st.first_store = op
        if not self.report_races:
            if write:
                st.writers[idx] = blocks
            return
        if write:
            prev = st.writers[idx]
            clash = (prev != NONE) & (prev != blocks)
            if clash.any():
                k = int(np.argmax(clash))
                self._report(ex, op, arr, idx, k, int(prev[k]), int(blocks[k]), "both write it", tile)
            pr = st.readers[idx]
            clash = (pr != NONE) & (pr != blocks)
            if clash.any():
                k = int(np.argmax(clash))
                other = None if pr[k] == MANY else int(pr[k])
                self._report(ex, op, arr, idx, k, other, int(blocks[k]), _READ_WRITE, tile)
            st.writers[idx] = blocks
            back = st.writers[idx]            # two blocks writing one element in this op: one lost
            lost = back != blocks
            if lost.any():
                k = int(np.argmax(lost))
                self._report(ex, op, arr, idx, k, int(back[k]), int(blocks[k]), "both write it", tile)
        else:
            pw = st.writers[idx]
            clash = (pw != NONE) & (pw != blocks)
            if clash.any():
                k = int(np.argmax(clash))
                self._report(ex, op, arr, idx, k, int(pw[k]), int(blocks[k]), _READ_WRITE, tile)
            prev = st.readers[idx]
            st.readers[idx] = np.where((prev == NONE) | (prev == blocks), blocks, MANY)

    def _report(self, ex, op, arr, idx, k, b1, b2, what, tile) -> None:
        key = (id(op), id(arr.array))
        if key in self.reported:
            return
        self.reported.add(key)
        pos = tuple(int(np.asarray(i).reshape(-1)[k]) for i in idx)
        if tile is not None:
            shape, order = tile
            elem = [0] * len(shape)
            for t, n in enumerate(shape):
                elem[order[t]] = pos[t] * n
            where = f"element {tuple(elem)} (tile {pos} of shape {shape})"
        else:
            where = f"element {pos}"
        blocks = [ex.block_of_linear(b) for b in (b1, b2) if b is not None]
        who = " and ".join(str(b) for b in blocks) if len(blocks) == 2 else f"{blocks[0]} and another block"
        ex.report(f"race on array '{arr.name}' {where}: blocks {who} {what} without atomics",
                  block=blocks[-1])


def _in_tile_grid(index, tile_shape, order, shape) -> bool:
    """Whether every tile lies in the array's grid of tiles, the last ones possibly partial (a
    partial tile's elements inside the array are all accessed by the block accessing the tile)."""
    for k, t in enumerate(tile_shape):
        idx = index[k]
        if idx.size and (idx.min() < 0 or int(idx.max()) >= -(-shape[order[k]] // t)):
            return False
    return True


def _expand(tile_map: np.ndarray, pattern, shape) -> np.ndarray:
    """Per-tile owners → per-element owners (partial tiles: their elements inside the array)."""
    tshape, order = pattern
    out = np.full(shape, NONE, np.int32)
    perm = out.transpose(order)
    rep = tile_map
    for ax, t in enumerate(tshape):
        rep = np.repeat(rep, t, axis=ax)
    region = tuple(slice(0, min(c * t, n)) for c, t, n in zip(tile_map.shape, tshape, perm.shape))
    perm[region] = rep[region]
    return out
