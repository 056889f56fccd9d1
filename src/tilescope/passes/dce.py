"""Dead-code elimination: drop ops without side effects whose results are unused."""
from __future__ import annotations

from typing import Set

from ..ir.core import Block, Function, Op
from ..ir.primitive import PRIMITIVES


def has_side_effects(op: Op) -> bool:
    """Whether `op` matters even when its results are unused (writes, prints, control flow)."""
    return PRIMITIVES[op.name].has("side_effects")


def dce(fn: Function) -> Function:
    changed = True
    while changed:
        used: Set[int] = set()
        for op in fn.walk():
            used.update(v.id for v in op.operands)
        changed = _sweep(fn.body, used)
    return fn


def _sweep(block: Block, used: Set[int]) -> bool:
    changed = False
    kept = []
    for op in block.ops:
        for b in op.blocks:
            changed |= _sweep(b, used)
        if not has_side_effects(op) and not any(r.id in used for r in op.results):
            changed = True
            continue
        kept.append(op)
    block.ops = kept
    return changed
