"""How the server and its analysis workers talk: length-prefixed pickles.

The server reads a worker's messages with `load_message`, which accepts plain data and
the summary's classes only: whatever a worker sends, unpickling it runs nothing.
"""
from __future__ import annotations

import io
import pickle
import struct
from typing import Any, Optional

from . import summary

_HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 30


def write_frame(f, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=4)
    f.write(_HEADER.pack(len(data)) + data)
    f.flush()


def read_frame(f) -> Optional[Any]:
    """The next message, or None at the end of the stream."""
    head = _read_exactly(f, _HEADER.size)
    if head is None:
        return None
    (n,) = _HEADER.unpack(head)
    if n > MAX_FRAME:
        raise ValueError(f"frame of {n} bytes")
    data = _read_exactly(f, n)
    if data is None:
        return None
    return pickle.loads(data)


def _read_exactly(f, n: int) -> Optional[bytes]:
    chunks, left = [], n
    while left:
        chunk = f.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class SummaryUnpickler(pickle.Unpickler):
    """What the server accepts from a worker: plain data and the summary's classes."""

    def find_class(self, module: str, name: str):
        if module == summary.__name__ and name in summary.PLAIN_CLASSES:
            return getattr(summary, name)
        raise pickle.UnpicklingError(f"a worker sent {module}.{name}")


def load_message(data: bytes) -> Any:
    return SummaryUnpickler(io.BytesIO(data)).load()
