"""A summary seen from the document's current text, in the client's position encoding.

While the user types, the latest summary describes an older text. Lines before the
first changed line and after the last one are the same lines, moved by the number of
lines inserted or deleted: what the summary says about them still holds. Lines in
between are unknown until the next analysis.
"""
from __future__ import annotations

from typing import Optional, Tuple

from lsprotocol import types as T

from .documents import Document
from .positions import index_to_units
from .summary import Key, Summary


class View:
    def __init__(self, summary: Summary, doc: Document):
        self.summary, self.doc, self.version = summary, doc, doc.version
        self.encoding = doc.encoding
        old = summary.lines
        self.n_old = len(old)
        if summary.text is doc.text or summary.text == doc.text:
            self.prefix, self.suffix, self.delta = self.n_old, 0, 0
            return
        new = doc.lines(0, doc.line_count())
        limit = min(len(old), len(new))
        prefix = 0
        while prefix < limit and old[prefix] == new[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
            suffix += 1
        self.prefix, self.suffix, self.delta = prefix, suffix, len(new) - len(old)

    def is_for(self, summary: Summary, doc: Document) -> bool:
        return self.summary is summary and self.doc is doc and self.version == doc.version

    def summary_line(self, line: int) -> Optional[int]:
        """The 1-based summary line showing current (0-based) `line`, or None if it changed."""
        if line < self.prefix:
            return line + 1
        old = line - self.delta
        if self.n_old - self.suffix <= old < self.n_old:
            return old + 1
        if self.suffix == 0 and self.delta == 0 and self.prefix == self.n_old and old == self.n_old:
            return old + 1            # just past the end of an unchanged text
        return None

    def current_line(self, line: int) -> Optional[int]:
        """The current 0-based line of 1-based summary `line`, or None if it changed."""
        old = line - 1
        if old < self.prefix:
            return old
        if self.n_old - self.suffix <= old < self.n_old:
            return old + self.delta
        if old >= self.n_old and self.prefix == self.n_old and self.suffix == 0 and self.delta == 0:
            return old
        return None

    # ---- positions ------------------------------------------------------------------

    def position_in(self, pos: T.Position) -> Optional[Tuple[int, int]]:
        """Summary (line, col), 1-based code points, of a client position; None on a changed line."""
        line = self.summary_line(pos.line)
        if line is None:
            return None
        _, index = self.doc.to_index(pos.line, pos.character)
        if pos.line >= self.doc.line_count():
            index = 0
        return line, index + 1

    def position_out(self, line: int, col: int) -> Optional[T.Position]:
        current = self.current_line(line)
        if current is None:
            return None
        src = self.summary.lines[line - 1] if 0 < line <= len(self.summary.lines) else ""
        return T.Position(current, index_to_units(src, col - 1, self.encoding))

    def range(self, key: Key) -> Optional[T.Range]:
        l0, c0, l1, c1 = key
        start = self.position_out(l0, c0)
        end = self.position_out(l1, c1)
        if start is None or end is None:
            return None
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return T.Range(start, end)

    def line_text(self, line: int) -> str:
        """Current text of 0-based `line`."""
        return self.doc.line(line)
