"""What an analysis produces, as data: diagnostics and what is known of each expression.

Locations are the front end's: 1-based lines, UTF-8 byte columns (plus one), except
syntax errors, whose columns count code points (`Diag.char_cols`).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ...errors import Loc
from ...ir.core import Value
from .describe import describe, documented, short_type

Key = Tuple[int, int, int, int]      # line, col, end_line, end_col (1-based, end exclusive)
KERNEL_COST = "kernel_cost"          # extras key: kernel -> (signature text, cost markdown)


@dataclass
class Diag:
    loc: Loc
    severity: str              # "error", "warning", "information", "hint"
    kind: str                  # upstream's error class name, or "info"
    message: str
    kernel: Optional[str] = None
    related: List[Tuple[Loc, str]] = field(default_factory=list)
    generic: bool = False      # from the metadata-free checks (a compile error at the same spot wins)
    char_cols: bool = False    # columns count code points (a SyntaxError's), not UTF-8 bytes


@dataclass(frozen=True, eq=False)
class Record:
    """What one compilation knew about one expression: text only, so that neither the
    analysis cache nor the summary keeps the typed IR alive. Compared by identity: the
    summary's memo of hover entries keys on the records a cached compilation shares."""
    text: str                      # describe() of the value
    kernel: str
    signature: str
    hint: Optional[str] = None     # the IR type for an inlay hint
    type_class: Optional[str] = None
    doc: Optional[str] = None      # a tilescope function documenting it: key into DOCS


DOCS: Dict[str, str] = {}          # tilescope function name -> its docstring (bounded by the API)


def make_record(value: Any, kernel: str, signature: str) -> Record:
    fn = documented(value)
    doc = None
    if fn is not None:
        doc = fn.name
        if doc not in DOCS:
            DOCS[doc] = inspect.cleandoc(fn.__doc__ or "")
    type_class = type(value.type).__name__ if isinstance(value, Value) else None
    return Record(describe(value), kernel, signature, short_type(value), type_class, doc)


def name_loc(filename: str, lines: List[str], node) -> Loc:
    """The range of a def's name (UTF-8 byte columns, as the AST's)."""
    line = node.lineno
    src = lines[line - 1].encode("utf-8", "surrogatepass") if line - 1 < len(lines) else b""
    col = src.find(node.name.encode(), node.col_offset)
    if col < 0:
        return Loc(filename, line, node.col_offset + 1, line, node.col_offset + 4)
    return Loc(filename, line, col + 1, line, col + 1 + len(node.name.encode()))
