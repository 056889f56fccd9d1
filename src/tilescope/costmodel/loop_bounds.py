"""Loop bounds the grid's scalars leave open (counts.py): a `while` loop that bisects, counted as
its halvings, and bounds read from arrays, named in the report's assumptions."""
from __future__ import annotations

import math
from typing import Callable, Iterable, List, Optional, Tuple

import numpy as np

from ..ir.core import Op, Value


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

