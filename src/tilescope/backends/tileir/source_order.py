"""Where tilescope's IR and upstream's TileIR make the same values in a different order or form,
told apart by the source a call spans. tileiras writes the TileIR text into the cubin's debug
sections under `--lineinfo` (as upstream's launch runs it), so for the same cubin the text must
follow upstream's order too.

- A `ct.full/zeros/ones` of a constant is one splat constant in upstream's TileIR; tilescope's IR
  makes it a scalar constant, reshaped and broadcast, like a constant operand splat to a tile's
  shape (`t + 1`), which upstream keeps as reshape + broadcast. `is_creation_call` tells the two
  apart: the op spans exactly a call to one of those functions.
- Upstream keeps the statement structure of an `if` one branch of which leaves the block (an early
  `return`, `if c: continue`, a `while` test); `statement_kind` and `trailing_return` tell the
  lowering which statement an `if` op came from (lower_control.jump_branch).
"""
from __future__ import annotations

import ast
import functools
import os
from dataclasses import replace
from typing import Dict, Optional, Tuple

CREATION_CALLS = frozenset({"full", "zeros", "ones"})
Range = Tuple[int, int, int, int]            # line, col (1-based), end line, end col (exclusive)


def _range(loc) -> Optional[Range]:
    if loc is None or loc.end_col is None or loc.end_line is None:
        return None
    return (loc.line, loc.col, loc.end_line, loc.end_col)


def _node_range(node) -> Range:
    return (node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1)


def _calls_at(loc) -> Dict[Range, ast.AST]:
    """The calls and `for`/`while`/`if` statements of `loc`'s file, by source range."""
    if loc is None or not loc.filename:
        return {}
    try:
        stamp = os.stat(loc.filename).st_mtime_ns
    except (OSError, ValueError):
        return {}
    return _index(loc.filename, stamp)


@functools.lru_cache(maxsize=64)
def _index(filename: str, stamp: int) -> Dict[Range, ast.AST]:
    """A file's calls and `for`/`while`/`if` statements by source range (as of `stamp`)."""
    try:
        with open(filename, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return {}
    return {_node_range(n): n for n in ast.walk(tree)
            if isinstance(n, (ast.Call, ast.For, ast.While, ast.If)) and getattr(n, "end_lineno", None) is not None}


def _callee(call: ast.Call) -> Optional[str]:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def is_creation_call(op) -> bool:
    """Whether `op` (a reshape/broadcast of a constant) is itself a ct.full/zeros/ones call."""
    c, r = op.result.const, _range(op.loc)
    if c is None or isinstance(c, tuple) or r is None:
        return False
    call = _calls_at(op.loc).get(r)
    return isinstance(call, ast.Call) and _callee(call) in CREATION_CALLS


def statement_kind(loc) -> Optional[str]:
    """"while" or "if" where `loc` spans exactly such a statement, else None."""
    r = _range(loc)
    node = _calls_at(loc).get(r) if r is not None else None
    return "while" if isinstance(node, ast.While) else "if" if isinstance(node, ast.If) else None


def trailing_return(loc):
    """The location of the `return` that ends the body of the `if` statement `loc` spans (None
    if it does not end so)."""
    r = _range(loc)
    node = _calls_at(loc).get(r) if r is not None else None
    if not isinstance(node, ast.If) or not isinstance(node.body[-1], ast.Return):
        return None
    line, col, end_line, end_col = _node_range(node.body[-1])
    return replace(loc, line=line, col=col, end_line=end_line, end_col=end_col)
