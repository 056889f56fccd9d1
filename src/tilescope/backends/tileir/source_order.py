"""Where tilescope's IR and upstream's TileIR make the same values in a different order or form,
told apart by the source a call spans. tileiras writes the TileIR text into the cubin's debug
sections under `--lineinfo` (as upstream's launch runs it), so for the same cubin the text must
follow upstream's order too.

- A `ct.full/zeros/ones` of a constant is one splat constant in upstream's TileIR; tilescope's IR
  makes it a scalar constant, reshaped and broadcast, like a constant operand splat to a tile's
  shape (`t + 1`), which upstream keeps as reshape + broadcast. `is_creation_call` tells the two
  apart: the op spans exactly a call to one of those functions.
- Upstream evaluates a call's arguments in order, so in `ct.store(y, index=(0,), tile=a + b)` the
  index constant comes before the tile's ops; tilescope's front end makes it when the store is
  applied, after them; and in `for i in range(n)` the literal `n` comes before the implicit start
  and step. `literal_order` moves such constants back; likewise a number literal's constant in
  its own type, made by upstream where it evaluates the literal, before the conversions of the
  expression's other operands (`int_tile + 0.5`).
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

from ... import dtypes as D
from ...ir.core import Block, Function

CREATION_CALLS = frozenset({"full", "zeros", "ones"})
STORES = {"store_tile": 1, "tiled_store": 0}      # the position of a store call's index argument
Range = Tuple[int, int, int, int]            # line, col (1-based), end line, end col (exclusive)


def _range(loc) -> Optional[Range]:
    if loc is None or loc.end_col is None or loc.end_line is None:
        return None
    return (loc.line, loc.col, loc.end_line, loc.end_col)


def _node_range(node) -> Range:
    return (node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1)


def _calls_at(loc) -> Dict[Range, ast.AST]:
    return _index_at(loc)[0]


def _expressions_at(loc) -> Dict[Range, ast.AST]:
    return _index_at(loc)[1]


def _index_at(loc):
    if loc is None or not loc.filename:
        return {}, {}
    try:
        stamp = os.stat(loc.filename).st_mtime_ns
    except (OSError, ValueError):
        return {}, {}
    return _index(loc.filename, stamp)


@functools.lru_cache(maxsize=64)
def _index(filename: str, stamp: int) -> Tuple[Dict[Range, ast.AST], Dict[Range, ast.AST]]:
    """A file's calls and `for`/`while`/`if` statements, and its expressions (and augmented
    assignments), each by source range (as of `stamp`)."""
    try:
        with open(filename, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return {}, {}
    nodes = [n for n in ast.walk(tree) if getattr(n, "end_lineno", None) is not None]
    return ({_node_range(n): n for n in nodes if isinstance(n, (ast.Call, ast.For, ast.While, ast.If))},
            {_node_range(n): n for n in nodes if isinstance(n, (ast.expr, ast.AugAssign))})


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


def made_where_evaluated(loc, position: Optional[int], name: str, const_op) -> bool:
    """Whether `const_op` is the constant of a number literal the call `loc` spans exactly passes
    as argument `name` (or at `position`), in the literal's own type: upstream makes that where
    it evaluates the call's arguments (a constant converted to another type is made where the
    call converts it)."""
    r = _range(loc)
    call = _calls_at(loc).get(r) if r is not None else None
    if not isinstance(call, ast.Call):
        return False
    arg = next((k.value for k in call.keywords if k.arg == name), None)
    if arg is None and position is not None and len(call.args) > position:
        arg = call.args[position]
    found = _literal_operands(ast.Call(func=call.func, args=[arg], keywords=[])) if arg is not None else []
    return len(found) == 1 and _natural(const_op, found[0][1])


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


def _literal_operands(node) -> list:
    """(source position, value) of the number literals `node` takes directly as operands."""
    if isinstance(node, ast.BinOp):
        parts = [node.left, node.right]
    elif isinstance(node, ast.Compare):
        parts = [node.left, *node.comparators]
    elif isinstance(node, ast.Call):
        parts = [*node.args, *(k.value for k in node.keywords)]
    elif isinstance(node, ast.AugAssign):
        parts = [node.value]
    else:
        return []
    out = []
    for p in parts:
        sign = 1
        if isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.USub):
            p, sign = p.operand, -1
        if isinstance(p, ast.Constant) and isinstance(p.value, (int, float)) and not isinstance(p.value, bool):
            out.append(((p.lineno, p.col_offset), sign * p.value))
    return out


def _natural(op, value) -> bool:
    """Whether constant op `op` is the literal `value` in the type it takes on its own."""
    c, dt = op.result.const, op.result.type.dtype
    if isinstance(value, float):
        return dt is D.float32 and c == value
    try:
        return dt is D.literal_dtype(value) and c == value
    except ValueError:                   # an int no dtype holds (the front end reports it)
        return False


def _literals_first(block: Block) -> None:
    """Upstream makes a number literal's constant, in the literal's own type, where the literal is
    evaluated: before the conversions and broadcasts its expression then makes of the operands.
    Within the run of ops one expression makes, such constants move to the front, in source order."""
    ops = block.ops
    i = 0
    while i < len(ops):
        r = _range(ops[i].loc)
        j = i + 1
        while r is not None and j < len(ops) and _range(ops[j].loc) == r:
            j += 1
        node = _expressions_at(ops[i].loc).get(r) if r is not None and j - i > 1 else None
        moved: Dict[int, tuple] = {}
        for pos, value in (_literal_operands(node) if node is not None else []):
            hit = next((o for o in ops[i:j] if o.name == "const" and not o.result.type.shape
                        and id(o) not in moved and _natural(o, value)), None)
            if hit is not None:
                moved[id(hit)] = (pos, hit)
        if moved:
            first = [o for _, o in sorted(moved.values(), key=lambda m: m[0])]
            ops[i:j] = first + [o for o in ops[i:j] if id(o) not in moved]
        i = j


def _argument(call: ast.Call, position: int, name: str):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return call.args[position] if len(call.args) > position else None


def _before(a: Range, b: Range) -> bool:
    return a[:2] < b[:2]


def _inside(inner: Range, outer: Range) -> bool:
    return outer[:2] <= inner[:2] and inner[2:] <= outer[2:]


def literal_order(fn: Function) -> Function:
    """Move, in place, the constants a store makes of its literal indices before its tile's ops
    (where the call spells the index before the tile), and the stop of `range(stop)` before the
    implicit start."""
    for block in _blocks(fn.body):
        _literals_first(block)
        _indices_first(block)
        _range_stop_first(block)
    return fn


def _blocks(b: Block):
    yield b
    for op in b.ops:
        for inner in op.blocks:
            yield from _blocks(inner)


def _range_stop_first(block: Block) -> None:
    ops = block.ops
    for op in list(ops):
        r = _range(op.loc)
        node = _calls_at(op.loc).get(r) if op.name == "for" and r is not None else None
        if not (isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and len(node.iter.args) == 1
                and not node.iter.keywords):
            continue
        start, stop = (v.owner for v in op.operands[:2])
        if start is None or stop is None or start.name != "const" or stop.name != "const":
            continue
        if start in ops and stop in ops and ops.index(start) < ops.index(stop):
            ops.remove(stop)
            ops.insert(ops.index(start), stop)


def _caller(loc, site):
    """Where the source at `loc` was reached from in the code inlined at call site `site` (None:
    the kernel's own code): the call of the helper it is in, or `loc` itself."""
    while loc is not None and loc.call_site != site:
        loc = loc.call_site
    return loc


def _indices_first(block: Block) -> None:
    ops = block.ops
    i = 0
    while i < len(ops):
        op = ops[i]
        r = _range(op.loc)
        call = _calls_at(op.loc).get(r) if op.name in STORES and r is not None else None
        is_call = isinstance(call, ast.Call)
        at = STORES.get(op.name, 0)            # ct.store(array, index, tile); view.store(index, tile)
        index, tile = (_argument(call, at, "index"), _argument(call, at + 1, "tile")) if is_call else (None, None)
        if index is None or tile is None or not _before(_node_range(index), _node_range(tile)):
            i += 1
            continue
        # the store's own ops (its literal indices' constants, a conversion of the tile), directly before it
        j = i
        while j > 0 and _range(ops[j - 1].loc) == r:
            j -= 1
        consts = [o for o in ops[j:i] if o.name == "const"]
        # then the ops of the tile argument, directly before those
        t_range = _node_range(tile)
        k = j
        site = op.loc.call_site
        while k > 0 and _range(_caller(ops[k - 1].loc, site)) is not None and \
                _inside(_range(_caller(ops[k - 1].loc, site)), t_range):
            k -= 1
        if consts and k < j:
            ops[k:i] = consts + ops[k:j] + [o for o in ops[j:i] if o.name != "const"]
        i += 1
