"""Exact inter-block race detection: which block wrote and which read each element in one launch.

Arrays accessed only as aligned tiles of one shape (the last ones possibly partial) are
tracked per *tile* (cheap: one entry per tile); any other access switches that array to
per-element tracking. A conflict is two different blocks writing one element, one block
reading an element another block writes, or one block storing plainly to an element another
block updates atomically (atomics among themselves never race).

Arguments that share memory -- views that overlap, the same buffer passed twice in different
shapes, an array whose own elements overlap (a zero stride) -- are tracked together by
memory address instead (an *address space* per group of overlapping arguments), so a
conflict through two different arguments is found too. The same array passed twice is
tracked as one array.

Every race found is kept as a `Race` record (`RaceTracker.races`) and reported once per op
and array.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from math import gcd
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .tiles import in_bounds, tile_coords

NONE, MANY = -1, -2
_READ_WRITE = "access it, one reading what the other writes,"     # (a report's wording)
_STORE_ATOMIC = "access it, one storing plainly and the other atomically"


@dataclass(frozen=True)
class Race:
    """One race found in a launch (the first of each op and array)."""
    kind: str                                   # "write-write", "read-write" or "store-atomic"
    array: str                                  # the argument the detecting access went through
    element: Tuple[int, ...]                    # ... and the element of it
    blocks: Tuple[Tuple[int, ...], ...]         # both blocks (one when the other is not known)
    op: str                                     # the IR op that found it
    loc: object = None                          # its source location
    tile: Optional[Tuple[Tuple[int, ...], Tuple[int, ...]]] = None   # (tile index, tile shape) in tile mode
    shared_with: Tuple[str, ...] = ()           # other arguments sharing this memory


class _State:
    def __init__(self, arr):
        self.arr = arr
        self.pattern: Optional[Tuple] = None       # (tile_shape, order) in tile mode
        self.writers: Optional[np.ndarray] = None
        self.readers: Optional[np.ndarray] = None
        self.atomics: Optional[np.ndarray] = None  # per element, once an atomic touched it
        self.element = False
        self.first_store = None                    # the first op that wrote it (for reports)


class _Space:
    """Owners per memory unit of a group of arguments that share memory."""

    def __init__(self, lo: int, hi: int, unit: int, names: Sequence[str]):
        self.lo, self.unit = lo, unit
        n = max(1, (hi - lo) // unit)
        self.writers = np.full(n, NONE, np.int32)
        self.readers = np.full(n, NONE, np.int32)
        self.atomics: Optional[np.ndarray] = None
        self.names = tuple(names)


class _Addressed:
    """How one argument's elements map to units of its address space."""

    def __init__(self, array: np.ndarray, space: _Space):
        self.space = space
        start = array.__array_interface__["data"][0]
        self.offset = start - space.lo
        self.strides = array.strides
        self.span = max(1, array.itemsize // space.unit)     # units per element

    def units(self, coords, blocks) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(units, blocks, lane) of element coordinates; an element wider than a unit covers several."""
        addr = np.full(np.shape(blocks), self.offset, np.int64)
        for c, s in zip(coords, self.strides):
            addr = addr + np.asarray(c, np.int64) * s
        first = addr // self.space.unit
        lane = np.arange(len(first))
        if self.span == 1:
            return first, np.asarray(blocks), lane
        rep = np.arange(self.span)
        return ((first[:, None] + rep).reshape(-1), np.repeat(blocks, self.span),
                np.repeat(lane, self.span))


def _byte_bounds(a: np.ndarray) -> Tuple[int, int]:
    """[first, past-the-last) byte addresses of an array's elements."""
    lo = hi = a.__array_interface__["data"][0]
    for stride, n in zip(a.strides, a.shape):
        if stride < 0:
            lo += stride * (n - 1)
        else:
            hi += stride * (n - 1)
    return lo, hi + a.itemsize


def _layout(a: np.ndarray) -> Tuple:
    return (a.__array_interface__["data"][0], a.shape, a.strides, a.dtype.str)


def _overlaps_itself(a: np.ndarray) -> bool:
    """Whether two elements of `a` may share memory (a zero stride, or strides that interleave)."""
    extent = a.itemsize
    for stride, n in sorted((abs(s), n) for s, n in zip(a.strides, a.shape) if n > 1):
        if stride < extent:
            return True
        extent = stride * (n - 1) + extent
    return False


def alias_groups(arrays: Sequence[Tuple[str, np.ndarray]]) -> List[List[Tuple[str, np.ndarray]]]:
    """Groups of arguments (name, array) whose memory overlaps and that need tracking by address:
    two or more distinct layouts over common bytes, or one array overlapping itself."""
    spans = []
    seen = {}
    for name, a in arrays:
        if a.size == 0 or a.ndim == 0:
            continue
        key = _layout(a)
        if key in seen:
            continue                       # the same layout twice: tracked as one array
        seen[key] = True
        lo, hi = _byte_bounds(a)
        spans.append((lo, hi, name, a))
    spans.sort(key=lambda s: s[0])
    groups, current, end = [], [], -1
    for lo, hi, name, a in spans:
        if current and lo < end:
            current.append((name, a))
            end = max(end, hi)
        else:
            if current:
                groups.append(current)
            current, end = [(name, a)], hi
    if current:
        groups.append(current)
    return [g for g in groups if len(g) > 1 or _overlaps_itself(g[0][1])]


def _mark(seen, idx, blocks) -> None:
    """Record the blocks that touched elements `idx` (MANY where another block did before)."""
    prev = seen[idx]
    seen[idx] = np.where((prev == NONE) | (prev == blocks), blocks, MANY)


class RaceTracker:
    def __init__(self, watched_reads=None, report_races: bool = True, arrays=()):
        """`arrays`: (name, ndarray) of every array argument, to find the ones sharing memory;
        `watched_reads`: argument positions some op writes (None: all)."""
        self.states: Dict[Tuple, _State] = {}
        self.watched_reads = watched_reads      # array argument indices some op writes (None: all)
        self.report_races = report_races        # False: only record writes (for the uninit check)
        self.reported = set()
        self.races: List[Race] = []
        self.addressed: Dict[Tuple, _Addressed] = {}
        self._keys: Dict[int, Tuple[np.ndarray, Tuple]] = {}
        for group in alias_groups(list(arrays)):
            lo = min(_byte_bounds(a)[0] for _, a in group)
            hi = max(_byte_bounds(a)[1] for _, a in group)
            unit = reduce(gcd, [a.itemsize for _, a in group] +
                          [abs(s) for _, a in group for s in a.strides if s] +
                          [a.__array_interface__["data"][0] - lo for _, a in group])
            space = _Space(lo, hi, max(unit, 1), [name for name, _ in group])
            for _, a in group:
                self.addressed[_layout(a)] = _Addressed(a, space)

    def _key(self, array: np.ndarray) -> Tuple:
        hit = self._keys.get(id(array))
        if hit is None or hit[0] is not array:
            hit = self._keys[id(array)] = (array, _layout(array))
        return hit[1]

    def _space_of(self, array: np.ndarray) -> Optional[_Addressed]:
        return self.addressed.get(self._key(array)) if self.addressed else None

    def _state(self, arr) -> _State:
        key = self._key(arr.array)
        st = self.states.get(key)
        if st is None:
            st = self.states[key] = _State(arr)
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
        """Whether reads of `arr` are recorded (only arrays some op writes -- or that share
        memory with one -- can race a read)."""
        return self.watched_reads is None or arr.index in self.watched_reads or \
            self._space_of(arr.array) is not None

    def record_tile(self, ex, op, arr, index, shape, order, mask, *, write: bool) -> None:
        if not write and not self.watches_reads_of(arr):
            return
        shape, order = tuple(shape), tuple(order)
        blocks = ex.linear_block_ids()[mask].astype(np.int32)
        if not len(blocks):
            return
        addressed = self._space_of(arr.array)
        st = self._state(arr) if addressed is None else None
        if st is not None and shape and not st.element and st.pattern in (None, (shape, order)) and \
                _in_tile_grid(index, shape, order, arr.array.shape):
            if st.pattern is None:
                st.pattern = (shape, order)
                counts = tuple(-(-arr.array.shape[order[k]] // shape[k]) for k in range(len(shape)))
                st.writers = np.full(counts, NONE, np.int32)
                st.readers = np.full(counts, NONE, np.int32)
            idx = tuple(np.broadcast_to(i, blocks.shape).astype(np.intp) for i in index)
            self._check(ex, op, arr, st, idx, blocks, write, tile=(shape, order))
            return
        if not shape:
            coords = tuple(np.zeros(len(blocks), np.intp) for _ in range(max(1, arr.array.ndim)))
            self._record(ex, op, arr, coords, blocks, write)
            return
        coords = tile_coords(index, shape, order)
        full = (len(blocks),) + shape
        inb = np.broadcast_to(in_bounds(coords, arr.array.shape), full)
        cs = tuple(np.broadcast_to(c, full)[inb] for c in coords)
        bl = np.broadcast_to(blocks.reshape((-1,) + (1,) * len(shape)), full)[inb]
        self._record(ex, op, arr, cs, bl, write)

    def record_elements(self, ex, op, arr, coords, blocks, *, write: bool) -> None:
        if not write and not self.watches_reads_of(arr):
            return
        if arr.array.ndim == 0:
            coords = (np.zeros(len(blocks), np.intp),)
        self._record(ex, op, arr, coords, blocks.astype(np.int32), write)

    def record_tile_store(self, ex, op, arr, index, shape, order, mask) -> None:
        self.record_tile(ex, op, arr, index, shape, order, mask, write=True)

    def record_atomic(self, ex, op, arr, coords, blocks) -> None:
        """Atomic updates of elements: they race plain stores of other blocks, not each other."""
        if not self.report_races or not len(blocks):
            return
        blocks = np.asarray(blocks, np.int32)
        addressed = self._space_of(arr.array)
        if addressed is not None:
            units, bl, lane = addressed.units(coords, blocks)
            space = addressed.space
            if space.atomics is None:
                space.atomics = np.full(space.writers.shape, NONE, np.int32)
            self._atomic_check(ex, op, arr, space.writers, space.atomics, units, bl, coords, lane, space)
            return
        if arr.array.ndim == 0:
            coords = (np.zeros(len(blocks), np.intp),)
        st = self._state(arr)
        self._to_element(arr, st)
        if st.atomics is None:
            st.atomics = np.full(arr.array.shape or (1,), NONE, np.int32)
        self._atomic_check(ex, op, arr, st.writers, st.atomics, tuple(coords), blocks, coords,
                           np.arange(len(blocks)), None)

    # ---- bookkeeping ----------------------------------------------------------------

    def _record(self, ex, op, arr, coords, blocks, write) -> None:
        addressed = self._space_of(arr.array)
        if addressed is not None:
            self._check_addressed(ex, op, arr, addressed, coords, blocks, write)
            return
        st = self._state(arr)
        self._to_element(arr, st)
        self._check(ex, op, arr, st, coords, blocks, write)

    def _to_element(self, arr, st: _State) -> None:
        if st.element:
            return
        shape = arr.array.shape or (1,)       # a 0-d array: one element
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
        self._access(ex, op, arr, st, idx, blocks, _Where(idx, tile), write)

    def _check_addressed(self, ex, op, arr, addressed: _Addressed, coords, blocks, write) -> None:
        if not self.report_races:
            return
        space = addressed.space
        units, bl, lane = addressed.units(coords, blocks)
        self._access(ex, op, arr, space, units, bl, _Where(coords, None, lane, space.names), write)

    def _access(self, ex, op, arr, seen, idx, blocks, where, write) -> None:
        """Check and record one access; `seen` (an array's state or an address space) holds the
        writers, readers and atomics of its elements."""
        if write:
            self._write(ex, op, arr, seen.writers, seen.readers, idx, blocks, where)
            if seen.atomics is not None:
                self._against_atomics(ex, op, arr, seen.atomics, idx, blocks, where)
        else:
            self._read(ex, op, arr, seen.writers, seen.readers, idx, blocks, where)

    def _write(self, ex, op, arr, writers, readers, idx, blocks, where) -> None:
        self._clash(ex, op, arr, writers, idx, blocks, where, "both write it", "write-write")
        self._clash(ex, op, arr, readers, idx, blocks, where, _READ_WRITE, "read-write")
        writers[idx] = blocks
        back = writers[idx]            # two blocks writing one element in this op: one lost
        lost = back != blocks
        if lost.any():
            k = int(np.argmax(lost))
            self._report(ex, op, arr, where, k, int(back[k]), int(blocks[k]), "both write it", "write-write")

    def _read(self, ex, op, arr, writers, readers, idx, blocks, where) -> None:
        self._clash(ex, op, arr, writers, idx, blocks, where, _READ_WRITE, "read-write")
        _mark(readers, idx, blocks)

    def _against_atomics(self, ex, op, arr, atomics, idx, blocks, where) -> None:
        self._clash(ex, op, arr, atomics, idx, blocks, where, _STORE_ATOMIC, "store-atomic")

    def _atomic_check(self, ex, op, arr, writers, atomics, idx, blocks, coords, lane, space) -> None:
        where = _Where(coords, None, lane, space.names if space is not None else ())
        if writers is not None:
            self._clash(ex, op, arr, writers, idx, blocks, where, _STORE_ATOMIC, "store-atomic")
        _mark(atomics, idx, blocks)

    def _clash(self, ex, op, arr, seen, idx, blocks, where, what, kind) -> None:
        """Report the first lane whose element another block (MANY: several) already has in `seen`."""
        prev = seen[idx]
        clash = (prev != NONE) & (prev != blocks)
        if clash.any():
            k = int(np.argmax(clash))
            self._report(ex, op, arr, where, k, None if prev[k] == MANY else int(prev[k]), int(blocks[k]),
                         what, kind)

    def _report(self, ex, op, arr, where: "_Where", k, b1, b2, what, kind) -> None:
        key = (id(op), id(arr.array))
        if key in self.reported:
            return
        self.reported.add(key)
        pos = where.position(k)
        tile_info = None
        if where.tile is not None:
            shape, order = where.tile
            elem = [0] * len(shape)
            for t, n in enumerate(shape):
                elem[order[t]] = pos[t] * n
            text = f"element {tuple(elem)} (tile {pos} of shape {shape})"
            tile_info = (pos, tuple(shape))
            element = tuple(elem)
        else:
            text = f"element {pos}"
            element = pos
        others = tuple(n for n in where.names if n != arr.name)
        if others:
            text += f" (memory it shares with {', '.join(repr(n) for n in others)})"
        blocks = [ex.block_of_linear(b) for b in (b1, b2) if b is not None]
        who = " and ".join(str(b) for b in blocks) if len(blocks) == 2 else f"{blocks[0]} and another block"
        self.races.append(Race(kind, arr.name, element, tuple(tuple(b) for b in blocks), op.name,
                               getattr(op, "loc", None), tile_info, others))
        tail = "" if kind == "store-atomic" else " without atomics"
        ex.report(f"race on array '{arr.name}' {text}: blocks {who} {what}{tail}", block=blocks[-1])


class _Where:
    """How to name the k-th access of a check: its element (or tile) coordinates."""

    def __init__(self, coords, tile=None, lane=None, names=()):
        self.coords, self.tile, self.lane, self.names = coords, tile, lane, names

    def position(self, k: int) -> Tuple[int, ...]:
        j = int(self.lane[k]) if self.lane is not None else k
        return tuple(int(np.asarray(i).reshape(-1)[j]) for i in self.coords)


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
