"""A bounded memo for analysis steps whose result depends only on a key (a text, a place):
kept across keystrokes, the least recently used dropped first."""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

R = TypeVar("R")


class RecentResults(Generic[R]):
    """The results for the `size` keys used most recently."""

    def __init__(self, size: int):
        self.size = size
        self._results: "OrderedDict[Hashable, R]" = OrderedDict()

    def get(self, key: Hashable, compute: Callable[[], R]) -> R:
        """The result remembered for `key`, else `compute()`'s (then remembered)."""
        hit = self._results.get(key)
        if hit is None:
            hit = self._results[key] = compute()
            if len(self._results) > self.size:
                self._results.popitem(last=False)
        else:
            self._results.move_to_end(key)
        return hit

    def __len__(self) -> int:
        return len(self._results)
