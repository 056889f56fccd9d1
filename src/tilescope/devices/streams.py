"""What the emulated streams of torch.cuda and CuPy share: work runs synchronously on the CPU,
so waits and queries are immediate; `with stream:` makes a stream its API's current one in
this thread; a stream is its handle (equality and hashing)."""
from __future__ import annotations

import threading


class SyncStream:
    """Each API subclasses it once, with its own `_current` (a thread-local) and the name of
    its handle attribute (`ptr` for CuPy, `cuda_stream` for torch)."""
    _current: threading.local
    _handle_name = "ptr"

    @classmethod
    def current(cls, default):
        """This thread's current stream of the API, else `default`."""
        return getattr(cls._current, "stream", None) or default

    def _make_current(self) -> None:
        type(self)._current.stream = self

    def synchronize(self):
        pass

    def wait_event(self, event):
        pass

    def query(self):
        return True

    def __enter__(self):
        self._previous = getattr(self._current, "stream", None)
        self._make_current()
        return self

    def __exit__(self, *exc):
        type(self)._current.stream = self._previous
        return False

    def __eq__(self, other):
        return isinstance(other, SyncStream) and other._current is self._current and \
            getattr(other, other._handle_name) == getattr(self, self._handle_name)

    def __hash__(self):
        return hash((self._handle_name, getattr(self, self._handle_name)))
