"""Loop bounds the grid's scalars leave open (counts.py): a `while` loop that counts a value it
carries up to a bound, counted as its steps; one that bisects, counted as its halvings; and bounds
read from arrays, named in the report's assumptions."""
from __future__ import annotations

import math
from typing import Callable, Iterable, List, Optional, Tuple

import numpy as np

from ..ir.core import Op, Value

# the ops that read an array's elements into a tile
LOAD_OPS = ("load_tile", "tiled_load", "load_advanced", "gather")


def bisection_trips(op: Op, sc, const_int: Callable[[Value], Optional[int]]) -> Optional[Tuple[int, int]]:
    """(passes, span) of a `while` loop that bisects: its body takes `(x + y) // 2` (or `>> 1`) of
    two values it carries, whose starting values are known and the same in every block (a binary
    search: `while lo + 1 < hi: mid = (lo + hi) // 2; ...`); ceil(log2(span)) passes. None
    otherwise. `sc`: the grid's scalars (scalars.GridScalars); `const_int`: a value's constant integer."""
    if not op.blocks:
        return None
    carried = {a.id: k for k, a in enumerate(op.blocks[0].args)}
    for inner in op.blocks[0].walk():
        halves = inner.name == "binary" and (
            (inner.attrs.get("fn") == "floordiv" and const_int(inner.operands[1]) == 2)
            or (inner.attrs.get("fn") == "rshift" and const_int(inner.operands[1]) == 1))
        total = inner.operands[0].owner if halves else None
        if total is None or total.name != "binary" or total.attrs.get("fn") != "add":
            continue
        ends = [carried.get(v.id) for v in total.operands]
        if None in ends or ends[0] == ends[1] or max(ends) >= len(op.operands):
            continue
        x, y = (sc.value(op.operands[k]) for k in ends)
        if not all(isinstance(e, np.ndarray) and e.size and np.issubdtype(e.dtype, np.integer)
                   and np.all(e == e.flat[0]) for e in (x, y)):
            continue                     # (a start that is unknown, or not the same in every block)
        span = abs(int(y.flat[0]) - int(x.flat[0]))
        return (max(1, math.ceil(math.log2(span))) if span > 1 else 1), span
    return None


# compare fns of a counted loop's test, and whether the bound itself passes it
_UPWARD = {"lt": False, "le": True}
_DOWNWARD = {"gt": False, "ge": True}


def counted_trips(op: Op, sc, const_int: Callable[[Value], Optional[int]]) -> Optional[np.ndarray]:
    """Each block's passes of a `while` loop that steps a value it carries by a constant to a bound
    (`while i < n: ...; i += step`, the hidden size walked in blocks): its body tests the value
    against the bound and continues with value + step, or breaks. The start and the bound are the
    grid's scalars (a constant, a block's position, a launch's value); None where either is unknown
    or the loop is not of this form."""
    body = op.blocks[0] if op.blocks else None
    last = body.ops[-1] if body is not None and body.ops else None
    if last is None or last.name != "if" or len(last.blocks) != 2 or not op.operands:
        return None
    test = last.operands[0].owner
    carried = {a.id: k for k, a in enumerate(body.args)}
    if test is None or test.name != "compare" or test.operands[0].id not in carried:
        return None
    k, fn = carried[test.operands[0].id], test.attrs.get("fn")
    step = _step(last.blocks[0], body.args[k], k, const_int)
    if step is None or not (fn in _UPWARD and step > 0 or fn in _DOWNWARD and step < 0) \
            or not _breaks(last.blocks[1]) or k >= len(op.operands):
        return None
    start, bound = sc.value(op.operands[k]), sc.value(test.operands[1])
    if not all(isinstance(x, np.ndarray) and x.size and np.issubdtype(x.dtype, np.integer) for x in (start, bound)):
        return None
    span = (bound - start) * np.sign(step) + (1 if _UPWARD.get(fn, _DOWNWARD.get(fn)) else 0)
    return np.maximum(0, -(-span // abs(step))).astype(np.float64) * np.ones(sc.blocks)


def _step(block, value: Value, k: int, const_int) -> Optional[int]:
    """The constant a branch adds to `value` (or subtracts) for the `continue` that carries it at k."""
    end = block.ops[-1] if block.ops else None
    if end is None or end.name != "continue" or k >= len(end.operands):
        return None
    nxt = end.operands[k].owner
    if nxt is None or nxt.name != "binary" or nxt.attrs.get("fn") not in ("add", "sub") \
            or nxt.operands[0].id != value.id:
        return None
    step = const_int(nxt.operands[1])
    return None if not step else (step if nxt.attrs.get("fn") == "add" else -step)


def _breaks(block) -> bool:
    return bool(block.ops) and block.ops[-1].name == "break"


def loads_feeding(values: Iterable[Value], load_ops: Tuple[str, ...]) -> List[Op]:
    """The load ops (of `load_ops`) whose results `values` are computed from."""
    loads, seen, todo = [], set(), list(values)
    while todo:
        v = todo.pop()
        if id(v) in seen or v.owner is None:
            continue
        seen.add(id(v))
        if v.owner.name in load_ops:
            loads.append(v.owner)
            continue
        todo.extend(v.owner.operands)
    return loads


def arrays_read_for(values: Iterable[Value], load_ops: Tuple[str, ...], array_name: Callable[[Value], str]) -> str:
    """The arrays whose loaded elements `values` are computed from, as "array 'a'" or "arrays 'a',
    'b'" ('' where none is): bounds that no metadata or runtime scalar can give."""
    names = []
    for load in loads_feeding(values, load_ops):
        name = array_name(load.operands[0])
        if name and name not in names:
            names.append(name)
    if not names:
        return ""
    return ("array " if len(names) == 1 else "arrays ") + ", ".join(f"'{n}'" for n in sorted(names))

