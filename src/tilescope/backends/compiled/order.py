"""Which blocks may run concurrently when atomics make results depend on block order.

The executor's results are those of blocks run one after another in block order. Atomics
whose outcome depends on that order (float adds, which round per update; exchanges;
compare-and-swap; any atomic whose returned old value is used) must then see the same order.
A compiled kernel runs such a launch on all threads with a ticket: each block runs freely up
to the top-level op holding its first order-dependent atomic (its head), then waits until
every earlier block has finished, and runs the rest (its tail) in turn. That equals block
order when heads and tails share no memory: no head touches an array that a tail writes, and
no tail touches an array that a head writes. Otherwise the launch runs on one thread.
"""
from __future__ import annotations

from typing import Optional, Set

from ...ir.core import Function, Op, per_function
from ...ir.types import ArrayType

_ATOMIC = ("atomic", "atomic_cas", "raw_atomic", "raw_atomic_cas", "tiled_atomic")
_VIEWS = ("array_slice", "tiled_view", "raw_memory", "list_item")
_WRITES = ("store_tile", "scatter", "tiled_store", "raw_store", "store_advanced") + _ATOMIC


def _order_dependent(op: Op, used: Set[int]) -> bool:
    if op.name not in _ATOMIC:
        return False
    mode = op.attrs.get("mode")
    if op.name in ("atomic_cas", "raw_atomic_cas") or mode == "xchg":
        return True
    if mode == "add" and op.operands[0].type.dtype.is_float:
        return True
    return any(r.id in used for r in op.results)


@per_function
def turn_point(fn: Function) -> Optional[int]:
    """Index of the top-level op where a block's ordered tail begins, or None when the kernel
    has no order-dependent atomics."""
    used = {v.id for op in fn.walk() for v in op.operands}
    for i, top in enumerate(fn.body.ops):
        if any(_order_dependent(o, used) for o in [top, *(x for b in top.blocks for x in b.walk())]):
            return i
    return None


@per_function
def heads_run_freely(fn: Function) -> bool:
    """Whether heads and tails share no memory (see module doc), so heads may run concurrently."""
    at = turn_point(fn)
    if at is None:
        return True
    head, tail = fn.body.ops[:at], fn.body.ops[at:]
    h_all, h_written = _arrays(head)
    t_all, t_written = _arrays(tail)
    return not (h_all & t_written) and not (h_written & t_all)


@per_function
def tails_hold_all_writes(fn: Function) -> bool:
    """Whether every array written by a plain store is written only in tails (which run one
    block after another): then blocks need no proof of disjoint writes to run concurrently."""
    at = turn_point(fn)
    if at is None:
        return False
    _, head_written = _arrays(fn.body.ops[:at])
    return not head_written


def _arrays(ops):
    """(arrays accessed, arrays written) by `ops` and the ops nested in them, as root values."""
    touched, written = set(), set()
    for top in ops:
        for op in [top, *(x for b in top.blocks for x in b.walk())]:
            for k, v in enumerate(op.operands):
                if isinstance(v.type, ArrayType) or (v.owner is not None and v.owner.name in _VIEWS):
                    root = _root(v)
                    touched.add(root)
                    if k == 0 and op.name in _WRITES:
                        written.add(root)
    return touched, written


def _root(v):
    while v.owner is not None and v.owner.name in _VIEWS:
        v = v.owner.operands[0]
    return v.id
