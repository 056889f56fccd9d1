"""The server's copy of each open document, kept identical to the client's.

Lines end exactly where LSP (and Python) end them: "\\r\\n", "\\r" or "\\n" (see
`frontend.source.split_lines`). Positions arrive in the negotiated encoding
(`positions`). An incremental change re-splits only the lines it touches, so typing in
a large file costs the size of the edit, not of the file.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ...frontend.source import split_lines
from .positions import UTF16, index_to_units, units_to_index


class UnknownDocument(KeyError):
    def __init__(self, uri: str):
        super().__init__(uri)
        self.uri = uri

    def __str__(self) -> str:
        return f"unknown document {self.uri!r} (not opened with textDocument/didOpen, or closed)"


def _content(line: str) -> str:
    """A line without its line end."""
    if line.endswith("\r\n"):
        return line[:-2]
    if line.endswith(("\n", "\r")):
        return line[:-1]
    return line


class Document:
    def __init__(self, uri: str, text: str, version: Optional[int], encoding: str = UTF16):
        self.uri = uri
        self.version = version
        self.encoding = encoding
        self._lines: List[str] = split_lines(text, keepends=True)
        self._text: Optional[str] = text

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "".join(self._lines)
        return self._text

    def line_count(self) -> int:
        return len(self._lines)

    def line(self, i: int) -> str:
        """Line `i` (0-based) without its line end; "" past the end."""
        return _content(self._lines[i]) if 0 <= i < len(self._lines) else ""

    def lines(self, start: int, stop: int) -> List[str]:
        return [_content(s) for s in self._lines[max(0, start):max(0, stop)]]

    # ---- positions ------------------------------------------------------------

    def to_index(self, line: int, units: int) -> Tuple[int, int]:
        """(line, code-point column) of a client position, clamped into the document."""
        n = len(self._lines)
        if line >= n:
            if n and _content(self._lines[-1]) == self._lines[-1]:
                return n - 1, len(self._lines[-1])      # the end of an unterminated last line
            return n, 0
        return line, units_to_index(_content(self._lines[line]), units, self.encoding)

    def to_units(self, line: int, index: int) -> int:
        return index_to_units(self.line(line), index, self.encoding)

    # ---- edits ------------------------------------------------------------------

    def replace_all(self, text: str) -> None:
        self._lines = split_lines(text, keepends=True)
        self._text = text

    def apply(self, start: Tuple[int, int], end: Tuple[int, int], text: str) -> None:
        """Replace the range between two client positions by `text`."""
        lines = self._lines
        n = len(lines)
        l0, i0 = self.to_index(*start)
        l1, i1 = self.to_index(*end)
        if (l1, i1) < (l0, i0):
            (l0, i0), (l1, i1) = (l1, i1), (l0, i0)
        prefix = lines[l0][:i0] if l0 < n else ""
        suffix = lines[l1][i1:] if l1 < n else ""      # keeps l1's line end
        chunk = prefix + text + suffix
        first, stop = l0, min(l1 + 1, n)
        # "\r" + "\n" across the edit's borders is one line end, not two.
        if first > 0 and chunk.startswith("\n") and lines[first - 1].endswith("\r"):
            first -= 1
            chunk = lines[first] + chunk
        if stop < n and chunk.endswith("\r") and lines[stop].startswith("\n"):
            chunk += lines[stop]
            stop += 1
        lines[first:stop] = split_lines(chunk, keepends=True)
        self._text = None


class DocumentStore:
    def __init__(self):
        self._docs: Dict[str, Document] = {}
        self.encoding = UTF16

    def open(self, uri: str, text: str, version: Optional[int]) -> Document:
        doc = self._docs[uri] = Document(uri, text, version, self.encoding)
        return doc

    def get(self, uri: str) -> Document:
        doc = self._docs.get(uri)
        if doc is None:
            raise UnknownDocument(uri)
        return doc

    def find(self, uri: str) -> Optional[Document]:
        return self._docs.get(uri)

    def close(self, uri: str) -> Optional[Document]:
        return self._docs.pop(uri, None)

    def __len__(self) -> int:
        return len(self._docs)

    def __iter__(self):
        return iter(list(self._docs.values()))
