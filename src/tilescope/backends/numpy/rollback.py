"""A launch either completes or leaves its arrays as they were.

Before the first block runs, the launcher copies every array argument the kernel can write
(`written_array_args` over plain stores, scatters and atomics; nothing for arrays it only
reads). If the launch ends with an exception -- Ctrl-C, a failed `ct.assert_`, a strict
check, a bug -- the copies are written back before the exception leaves the launcher.

The copies go into buffers kept from one launch to the next (`_Spares`): fresh memory costs a
page fault per page on first touch, which made the copy of a vector add's 64 MiB output take
two thirds of the launch; a reused buffer is copied into at memory speed.
"""
from __future__ import annotations

import threading
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .tiles import ArrayRef

# Spare buffers are kept up to this many bytes in all (larger snapshots are allocated afresh).
SPARE_BYTES = 256 << 20


class _Spares:
    """Byte buffers for snapshots, reused across launches (and threads, under a lock)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.free: List[np.ndarray] = []
        self.lock = threading.Lock()

    def take(self, nbytes: int) -> np.ndarray:
        with self.lock:
            fits = [i for i, b in enumerate(self.free) if b.nbytes >= nbytes]
            if fits:
                best = min(fits, key=lambda i: self.free[i].nbytes)
                return self.free.pop(best)
        return np.empty(max(nbytes, 1), np.uint8)

    def give(self, buffers: Sequence[np.ndarray]) -> None:
        with self.lock:
            self.free.extend(buffers)
            self.free.sort(key=lambda b: -b.nbytes)
            kept, total = [], 0
            for b in self.free:
                if total + b.nbytes <= self.limit:
                    kept.append(b)
                    total += b.nbytes
            self.free = kept


_spares = _Spares(SPARE_BYTES)


class Snapshot:
    def __init__(self, values: Sequence, written: Optional[set]):
        self.saved: List[Tuple[np.ndarray, np.ndarray]] = []
        self._buffers: List[np.ndarray] = []
        seen = set()
        for i, v in enumerate(values):
            if written is not None and i not in written:
                continue
            for ref in (v if isinstance(v, list) else [v]):
                if isinstance(ref, ArrayRef) and id(ref.array) not in seen:
                    seen.add(id(ref.array))
                    self.saved.append((ref.array, self._copy(ref.array)))

    def _copy(self, array: np.ndarray) -> np.ndarray:
        """A compact copy of `array` (a view of a spare buffer)."""
        buffer = _spares.take(array.nbytes)
        self._buffers.append(buffer)
        copy = buffer[:array.nbytes].view(array.dtype).reshape(array.shape)
        np.copyto(copy, array)
        return copy

    @property
    def nbytes(self) -> int:
        return sum(copy.nbytes for _, copy in self.saved)

    def restore(self) -> None:
        """Write the copies back (in reverse order, so overlapping arguments end as they began);
        a second Ctrl-C does not stop it half-way."""
        pending = list(self.saved)
        while pending:
            try:
                while pending:
                    array, copy = pending[-1]
                    np.copyto(array, copy)
                    pending.pop()
            except KeyboardInterrupt:
                continue

    def release(self) -> None:
        """The launch is over: the buffers go back to the spares."""
        self.saved = []
        _spares.give(self._buffers)
        self._buffers = []
