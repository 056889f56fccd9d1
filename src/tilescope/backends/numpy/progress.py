"""A progress bar on stderr for launches that take more than a couple of seconds (terminals only)."""
from __future__ import annotations

import sys
import time

DELAY_S = 2.0


class Progress:
    def __init__(self, kernel: str, total: int, stream=None):
        self.kernel, self.total = kernel, total
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.enabled = total > 1 and getattr(self.stream, "isatty", lambda: False)()
        self.shown = False
        self._last = 0.0

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < DELAY_S or now - self._last < 0.1:
            return
        self._last = now
        frac = done / self.total
        bar = "#" * int(frac * 30)
        self.stream.write(f"\r{self.kernel}: [{bar:<30}] {done}/{self.total} blocks {now - self.start:5.1f}s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()
