"""Indices that send a tile's lanes to runs of consecutive elements without an affine step (version 71).

A stream compaction or a partition by a mask `m` of zeros and ones computes each lane's place from a
running count: `base + cumsum(m) - m` for the lanes that keep `m`, `base + arange - (cumsum(m) - m)`
for the others (a radix sort's scatter, a filter, an expert dispatch). Along the tile each such index
is non-decreasing by steps of 0 or 1, so the lanes of each kind write consecutive elements and the
sectors they touch are full, as a unit-step index's are; a `where` of two such indices (or of one and
a uniform value, the lanes masked off) sends them to at most two runs. `last_axis_stride` knows
none of this: the running count has no constant step."""
from __future__ import annotations

from ..ir.core import Value
from .index_steps import const_int, last_axis_stride

_DEPTH = 12


def runs_of_lanes(v: Value, uniform=None, depth: int = 0) -> bool:
    """Whether the 1-D index tile `v` sends its lanes to at most two runs of consecutive elements,
    by running counts of a mask (a unit step or a uniform value alone is `last_axis_stride`'s)."""
    op = v.owner
    if op is not None and op.name == "where" and depth < _DEPTH:
        sides = op.operands[1:3]
        return all(_step(o, uniform) == 0 or runs_of_lanes(o, uniform, depth + 1) for o in sides) \
            and any(_step(o, uniform) != 0 for o in sides)
    return _counts_up(v, uniform, depth)


def _step(v: Value, uniform) -> object:
    return last_axis_stride(v, uniform=uniform)


def _counts_up(v: Value, uniform, depth: int) -> bool:
    """Non-decreasing along the tile by steps of 0 or 1."""
    if _step(v, uniform) in (0, 1):
        return True
    op = v.owner
    if op is None or depth > _DEPTH:
        return False
    fn = op.attrs.get("fn")
    if op.name == "scan":         # a running count of zeros and ones
        return fn == "sum" and not op.attrs.get("reverse") and _zero_one(op.operands[0], depth + 1)
    if op.name == "astype":
        return _counts_up(op.operands[0], uniform, depth + 1)
    if op.name != "binary":
        return False
    a, b = op.operands[:2]
    if fn == "add":               # a uniform base and a running count
        return (_step(a, uniform) == 0 and _counts_up(b, uniform, depth + 1)) or \
            (_step(b, uniform) == 0 and _counts_up(a, uniform, depth + 1))
    if fn != "sub":
        return False
    if _step(b, uniform) == 0:
        return _counts_up(a, uniform, depth + 1)
    if a.owner is not None and a.owner.name == "scan" and a.owner.operands[0] is b:
        return _counts_up(a, uniform, depth + 1)         # cumsum(m) - m: the count before the lane
    # the lanes before that the mask left out: arange - (a count that steps by 0 or 1)
    return _step(a, uniform) == 1 and _counts_up(b, uniform, depth + 1)


def _zero_one(v: Value, depth: int = 0) -> bool:
    """Whether a tile's elements are all 0 or 1 (a mask, a bit, a comparison)."""
    if const_int(v) in (0, 1):
        return True
    op = v.owner
    if op is None or depth > _DEPTH:
        return False
    if op.name == "compare":
        return True
    if op.name in ("astype", "broadcast", "reshape"):
        return op.operands[0].type.dtype.name == "bool_" or _zero_one(op.operands[0], depth + 1)
    if op.name == "binary" and op.attrs.get("fn") == "and":
        return any(const_int(o) == 1 or _zero_one(o, depth + 1) for o in op.operands[:2])
    if op.name == "where":
        return _zero_one(op.operands[1], depth + 1) and _zero_one(op.operands[2], depth + 1)
    return False
