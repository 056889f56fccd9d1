"""Recording which block touched which elements during one launch, for the trace pages.

`TraceRecorder` stands where the executor's race tracker stands (`Executor.races`): the memory
ops already report every tile and element access there (backends/numpy/races.py). It records
each access as an event and hands it on to the race tracker it wraps, so race and bounds
checks run as before. Reads of every array are recorded (the race tracker only needs those of
arrays the kernel writes).

Events keep what a page needs to draw a block's footprint: the op (source line), whether it
read or wrote, the blocks, their tile indices (tile accesses) or element coordinates (lanes),
and the occurrence of the op in its block (the loop iteration, for stepping through it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..semantics.tilegeom import tile_coords

MAX_LANES = 1 << 22          # element (lane) records kept for footprints; counts stay exact past it


@dataclass
class TileEvents:
    """Tile accesses of one op to one array with one tile shape."""
    op: Any
    write: bool
    shape: Tuple[int, ...]
    order: Tuple[int, ...]
    blocks: List[np.ndarray] = field(default_factory=list)       # int32 linear block ids
    index: List[List[np.ndarray]] = field(default_factory=list)  # per tile axis
    occurrence: List[np.ndarray] = field(default_factory=list)


@dataclass
class LaneEvents:
    """Element accesses (gathers, scatters, atomics, irregular tiles) of one op to one array."""
    op: Any
    kind: str                                                     # read, write, atomic, oob
    blocks: List[np.ndarray] = field(default_factory=list)
    coords: List[List[np.ndarray]] = field(default_factory=list)  # per array axis
    occurrence: List[np.ndarray] = field(default_factory=list)


@dataclass
class ArrayRecord:
    name: str
    array: np.ndarray
    index: int
    tiles: Dict[tuple, TileEvents] = field(default_factory=dict)
    lanes: Dict[tuple, LaneEvents] = field(default_factory=dict)
    written: bool = False
    also: List[str] = field(default_factory=list)      # other parameters passed the same array


class TraceRecorder:
    """Records accesses of one launch; forwards them to `inner` (a RaceTracker or None)."""

    def __init__(self, inner=None, races_checked: bool = False):
        self.inner = inner
        self.races_checked = races_checked or inner is not None    # (a compiled launch checks its own)
        self.arrays: Dict[int, ArrayRecord] = {}
        self.lanes_kept = 0
        self.lanes_dropped = 0
        self.log_dropped = 0            # accesses a compiled launch made past its trace log's end
        self.log_capacity = 0           # (the entries that log holds)
        self._group = None
        self._calls: Dict[int, int] = {}

    # ---- what the race tracker offers ---------------------------------------------

    def watches_reads_of(self, arr) -> bool:
        return True

    def report_unwritten(self, kernel: str, checks) -> None:
        if self.inner is not None:
            self.inner.report_unwritten(kernel, checks)

    def record_tile(self, ex, op, arr, index, shape, order, mask, *, write: bool) -> None:
        if self.inner is not None and (write or self.inner.watches_reads_of(arr)):
            self.inner.record_tile(ex, op, arr, index, shape, order, mask, write=write)
        blocks = ex.linear_block_ids()[mask].astype(np.int32)
        shape, order = tuple(shape), tuple(order)
        pieces = _chunk_pieces(op, shape) if shape else None
        occ = self._occurrence(ex, op, pieces[1] if pieces else 1)
        if not len(blocks):
            return
        rec = self._array(arr)
        rec.written |= write
        if not shape:                                  # a 0-d array
            self._lanes(rec, op, "write" if write else "read", blocks, [], occ)
            return
        idx = [np.broadcast_to(np.asarray(i), blocks.shape).astype(np.int32) for i in index]
        if pieces is not None:                         # a joined mma loop read several iterations at once
            axis, count = pieces
            small = tuple(s // count if k == axis else s for k, s in enumerate(shape))
            for j in range(count):
                part = [i * count + j if k == axis else i for k, i in enumerate(idx)]
                self._tiles(rec, op, write, small, order, blocks, part, occ + j)
            return
        self._tiles(rec, op, write, shape, order, blocks, idx, occ)

    def record_tile_store(self, ex, op, arr, index, shape, order, mask) -> None:
        self.record_tile(ex, op, arr, index, shape, order, mask, write=True)

    def record_elements(self, ex, op, arr, coords, blocks, *, write: bool) -> None:
        if self.inner is not None and (write or self.inner.watches_reads_of(arr)):
            self.inner.record_elements(ex, op, arr, coords, blocks, write=write)
        occ = self._occurrence(ex, op, 1)
        rec = self._array(arr)
        rec.written |= write
        self._lanes(rec, op, "write" if write else "read", np.asarray(blocks, np.int32), coords, occ)

    # ---- extra hooks (ops/atomics.py, backends/numpy/tiles.py) ---------------------

    def record_atomic(self, ex, op, arr, coords, blocks) -> None:
        if self.inner is not None:
            self.inner.record_atomic(ex, op, arr, coords, blocks)
        occ = self._occurrence(ex, op, 1)
        rec = self._array(arr)
        rec.written = True
        self._lanes(rec, op, "atomic", np.asarray(blocks, np.int32), coords, occ)

    def out_of_bounds(self, ex, op, arr, bad: np.ndarray, coords) -> None:
        """Lanes that reached outside the array (`bad`: (B, *S) mask; `coords`: per axis)."""
        b, *lane = np.nonzero(bad)
        if not len(b):
            return
        rec = self._array(arr)
        blocks = ex.linear_block_ids()[b].astype(np.int32)
        cs = [np.broadcast_to(c, bad.shape)[bad] for c in coords]
        occ = self._calls.get(id(op), 0)
        self._lanes(rec, op, "oob", blocks, cs, occ)

    def tile_out_of_bounds(self, ex, op, ref, index, shape, order, steps, bad: np.ndarray) -> None:
        """Tiles entirely outside the array or view (`bad`: (B,) mask of blocks): every element
        they would cover is an out-of-bounds attempt (not padding, not a write)."""
        rows = np.nonzero(bad)[0]
        pick = lambda a: np.broadcast_to(np.asarray(a).reshape(-1), bad.shape)[rows]        # noqa: E731
        occ = self._calls.get(id(op), 0) if ex is self._group else 0
        self._tiles_outside(op, ref, [pick(i) for i in index], shape, order, steps,
                            ex.linear_block_ids()[rows], occ,
                            [None if o is None else pick(o) for o in getattr(ref, "origin", [None] * len(shape))])

    def _tiles_outside(self, op, ref, index, shape, order, steps, blocks, occ, origin) -> None:
        """Out-of-bounds attempts of whole tiles at `index` (per tile axis, one entry per tile)
        by `blocks`, at occurrence `occ` (one, or one per tile); `origin`: per array axis the
        view's offset in its base (None: none)."""
        size = int(np.prod(shape))
        n = len(blocks) * size
        if self.lanes_kept + n > MAX_LANES:          # (before making the coordinates)
            self.lanes_dropped += n
            return
        coords = tile_coords(index, shape, order, steps)
        lead = (-1,) + (1,) * len(shape)
        cs = [np.broadcast_to(c if o is None else c + np.asarray(o).reshape(lead), (len(blocks),) + tuple(shape))
              for c, o in zip(coords, origin)]       # base coordinates
        occ = np.repeat(occ, size) if np.ndim(occ) else occ
        self._lanes(self._array(ref.base), op, "oob", np.repeat(np.asarray(blocks, np.int32), size), cs, occ)

    # ---- a compiled launch's log (backends/compiled/trace_log.py) ------------------------

    def record_logged_lanes(self, op, ref, kind: str, blocks, coords, occurrence) -> None:
        """Element accesses ('read', 'write', 'atomic', 'oob') of one op as a compiled launch
        logged them: per lane its block, element coordinates (per axis) and occurrence."""
        rec = self._array(ref)
        rec.written |= kind in ("write", "atomic")
        self._lanes(rec, op, kind, np.asarray(blocks, np.int32), coords, occurrence)

    def record_logged_tiles(self, op, ref, write: bool, shape, order, blocks, index, occurrence,
                            outside: Optional[np.ndarray] = None) -> None:
        """Tile accesses of one op as a compiled launch logged them: per access its block,
        tile index (per tile axis) and occurrence; `outside` marks the tiles entirely out of
        bounds (drawn as out-of-bounds attempts, as the executor's bounds check records them)."""
        blocks = np.asarray(blocks, np.int32)
        if outside is not None and outside.any():
            self._tiles_outside(op, ref, [i[outside] for i in index], shape, order, None, blocks[outside],
                                occurrence[outside], [None] * len(shape))
        rec = self._array(ref)
        rec.written |= write
        self._tiles(rec, op, write, tuple(shape), tuple(order), blocks, [np.asarray(i, np.int32) for i in index],
                    occurrence)

    # ---- bookkeeping ------------------------------------------------------------

    def _occurrence(self, ex, op, step: int) -> int:
        """How many times `op` ran before in this group of blocks (the group's blocks run it in
        step, so this is each block's loop iteration for it)."""
        if ex is not self._group:
            self._group, self._calls = ex, {}
        n = self._calls.get(id(op), 0)
        self._calls[id(op)] = n + step
        return n

    def _array(self, arr) -> ArrayRecord:
        key = id(arr.array)
        rec = self.arrays.get(key)
        if rec is None:
            rec = self.arrays[key] = ArrayRecord(arr.name, arr.array, getattr(arr, "index", len(self.arrays)))
        elif arr.name != rec.name and arr.name not in rec.also:
            rec.also.append(arr.name)
        return rec

    def _tiles(self, rec, op, write, shape, order, blocks, idx, occ) -> None:
        """Tile accesses of `blocks` at `idx`, at occurrence `occ` (one, or one per access)."""
        key = (id(op), write, shape, order)
        ev = rec.tiles.get(key)
        if ev is None:
            ev = rec.tiles[key] = TileEvents(op, write, shape, order)
        ev.blocks.append(blocks)
        ev.index.append(idx)
        ev.occurrence.append(_per_access(occ, blocks.shape))

    def _lanes(self, rec, op, kind, blocks, coords, occ) -> None:
        n = int(blocks.size)
        if self.lanes_kept + n > MAX_LANES:
            self.lanes_dropped += n
            return
        self.lanes_kept += n
        key = (id(op), kind)
        ev = rec.lanes.get(key)
        if ev is None:
            ev = rec.lanes[key] = LaneEvents(op, kind)
        ev.blocks.append(blocks.reshape(-1))
        ev.coords.append([np.asarray(c, np.int64).reshape(-1) for c in coords])
        ev.occurrence.append(_per_access(occ, (n,)))


def _per_access(occ, shape) -> np.ndarray:
    """Occurrences one per access: those given, where a compiled launch's log gives one each (a
    column of its delivered entries, not copied again), else the one occurrence repeated."""
    occ = np.asarray(occ, np.int32)
    return occ.reshape(shape) if occ.size == int(np.prod(shape)) and occ.ndim else \
        np.broadcast_to(occ, shape).copy()


def joined(parts: List[np.ndarray]) -> np.ndarray:
    """An event's recorded pieces as one array: the piece itself when there is one (a compiled
    launch hands each op's accesses over at once), saving a copy; never written to."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _chunk_pieces(op, shape) -> Optional[Tuple[int, int]]:
    """(axis, count) when a load's recorded tile is `count` of its own tiles side by side along
    `axis` (backends/numpy/chunk_loads.py), else None."""
    if op.name != "load_tile" or not op.results:
        return None
    own = tuple(op.results[0].type.shape)
    if own == shape or len(own) != len(shape):
        return None
    diff = [k for k, (a, b) in enumerate(zip(own, shape)) if a != b]
    if len(diff) != 1 or shape[diff[0]] % own[diff[0]]:
        return None
    return diff[0], shape[diff[0]] // own[diff[0]]
