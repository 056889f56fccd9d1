"""Columns in the units an LSP client counts, and in the UTF-8 bytes Python's AST counts.

Inside the server a column is an index into the line's `str` (a code point). The
client counts in its negotiated position encoding: UTF-16 code units unless it asked
for UTF-8 or UTF-32 (LSP 3.17 `general.positionEncodings`). Python's AST gives UTF-8
byte offsets (`col_offset`), and `SyntaxError.offset` counts code points.
"""
from __future__ import annotations

from typing import Iterable, Optional

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
ENCODINGS = (UTF8, UTF16, UTF32)


def choose_encoding(offered: Optional[Iterable[str]]) -> str:
    """The client's first supported choice; UTF-16 when it offers none (the LSP default)."""
    for enc in offered or ():
        if enc in ENCODINGS:
            return enc
    return UTF16


def _char_units(ch: str, encoding: str) -> int:
    o = ord(ch)
    if encoding == UTF16:
        return 2 if o > 0xFFFF else 1
    if encoding == UTF8:
        return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return 1


def units_to_index(line: str, units: int, encoding: str) -> int:
    """The code-point index of a client column in `line` (without its line end).

    Past the end means the end (LSP: 'defaults back to the line length'); a column
    inside a character (half a surrogate pair, a byte inside a UTF-8 sequence) means
    that character."""
    if units <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        count += _char_units(ch, encoding)
        if count > units:
            return i
        if count == units:
            return i + 1
    return len(line)


def index_to_units(line: str, index: int, encoding: str) -> int:
    """The client column of code-point `index` in `line`."""
    index = max(0, min(index, len(line)))
    if encoding == UTF32 or line.isascii():
        return index
    head = line[:index]
    if encoding == UTF8:
        return len(head.encode("utf-8", "surrogatepass"))
    return index + sum(1 for ch in head if ord(ch) > 0xFFFF)


def byte_to_index(line: str, byte_col: int) -> int:
    """The code-point index of a UTF-8 byte offset (an AST `col_offset`) in `line`."""
    if byte_col <= 0:
        return 0
    if line.isascii():
        return min(byte_col, len(line))
    data = line.encode("utf-8", "surrogatepass")
    return len(data[:byte_col].decode("utf-8", "ignore"))
