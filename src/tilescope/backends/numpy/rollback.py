"""A launch either completes or leaves its arrays as they were.

Before the first block runs, the launcher copies every array argument the kernel can write
(`written_array_args` over plain stores, scatters and atomics; nothing for arrays it only
reads). If the launch ends with an exception -- Ctrl-C, a failed `ct.assert_`, a strict
check, a bug -- the copies are written back before the exception leaves the launcher.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from .tiles import ArrayRef


class Snapshot:
    def __init__(self, values: Sequence, written: Optional[set]):
        self.saved: List[Tuple[np.ndarray, np.ndarray]] = []
        seen = set()
        for i, v in enumerate(values):
            if written is not None and i not in written:
                continue
            for ref in (v if isinstance(v, list) else [v]):
                if isinstance(ref, ArrayRef) and id(ref.array) not in seen:
                    seen.add(id(ref.array))
                    self.saved.append((ref.array, ref.array.copy()))   # a compact copy of the view

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
