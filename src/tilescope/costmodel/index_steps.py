"""How an index tile steps along its axes, from the ops that compute it: elements per lane when
it is an affine function of `ct.arange` and uniform values (gathers' and scatters' lanes), and the
integer a uniform value holds."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..ir.core import Value
from .lane_offsets import WARP_LANES


def last_axis_stride(v: Value, depth: int = 0, uniform=None, clamps: bool = True) -> Optional[int]:
    """How an index tile changes along its last axis (elements per lane), when it is an
    affine function of `ct.arange` and scalars; None when unknown."""
    return axis_stride(v, -1, depth, uniform, clamps)


def axis_stride(v: Value, axis: int, depth: int = 0, uniform=None, clamps: bool = True) -> Optional[int]:
    """How an index tile changes along its axis `axis` (counted from the end, as broadcasting
    aligns shapes; version 24 for axes other than the last), as `last_axis_stride`. `uniform`:
    the integer a uniform value holds, where known (default `const_int`: constants; the walker's
    also knows runtime scalars whose launch values are given). `clamps`: whether an index clamped
    to uniform bounds keeps its step (for the sectors lanes touch; not for vector widths: the
    compiler cannot prove the clamped lanes contiguous)."""
    uniform = uniform or const_int
    t = v.type
    shape = tuple(getattr(t, "shape", ()) or ())
    if len(shape) < -axis or shape[axis] == 1:
        return 0                                     # a scalar, or one lane along that axis
    op = v.owner
    if op is None or depth > 12:
        return None
    name = op.name
    if name == "arange":
        return 1
    if name == "astype":
        return axis_stride(op.operands[0], axis, depth + 1, uniform, clamps)
    if name == "broadcast":
        src = tuple(getattr(op.operands[0].type, "shape", ()) or ())
        if len(src) < -axis or src[axis] == 1:
            return 0
        return axis_stride(op.operands[0], axis, depth + 1, uniform, clamps) if src[axis] == shape[axis] else None
    if name == "reshape":
        src = tuple(getattr(op.operands[0].type, "shape", ()) or ())
        kept = [k - len(shape) for k, n in enumerate(shape) if n != 1]
        src_kept = [k - len(src) for k, n in enumerate(src) if n != 1]
        if [shape[k] for k in kept] != [src[k] for k in src_kept]:
            return None                              # a reshape that regroups axes: not followed
        return axis_stride(op.operands[0], src_kept[kept.index(axis)], depth + 1, uniform, clamps)
    if name == "binary" and op.attrs.get("fn") in ("add", "sub", "mul"):
        a, b = (axis_stride(o, axis, depth + 1, uniform, clamps) for o in op.operands[:2])
        if a is None or b is None:
            return None
        if op.attrs["fn"] == "add":
            return a + b
        if op.attrs["fn"] == "sub":
            return a - b
        if a == 0 and b == 0:
            return 0
        # a uniform factor that is a known integer scales the other's step (version 24; before, the
        # constant was looked for on the stepping side, so `ct.arange(n) * 2` was not followed)
        for step_of, factor, step in ((a, op.operands[0], b), (b, op.operands[1], a)):
            c = uniform(factor)
            if step_of == 0 and c is not None:
                return step * c
        return None
    if name == "where" and len(op.operands) == 3:
        # lanes take one index or the other: where one is uniform (a safe default such as 0 for
        # masked-off lanes), the lanes that take the other still step along the row (version 11)
        a, b = (axis_stride(o, axis, depth + 1, uniform, clamps) for o in op.operands[1:])
        if a is None or b is None:
            return None
        return a if b in (0, a) else (b if a == 0 else None)
    if name == "binary" and op.attrs.get("fn") in ("min", "max") and clamps:
        # an index clamped to a uniform bound (`max(min(i, n - 1), 0)`, so that masked-off lanes
        # read a valid address): the lanes inside the bounds step as the index does (version 26)
        a, b = (axis_stride(o, axis, depth + 1, uniform, clamps) for o in op.operands[:2])
        return a if b == 0 else (b if a == 0 else None)
    if name == "binary" and op.attrs.get("fn") in ("floordiv", "mod"):
        # a lane index split by a constant into (row, column), as flattened 2-D kernels do: runs
        # of at least a warp's 32 lanes share the quotient and step the remainder like the index
        a, c = axis_stride(op.operands[0], axis, depth + 1, uniform, clamps), uniform(op.operands[1])
        if a is None or c is None:
            return None
        if a == 0:
            return 0
        if abs(c) < WARP_LANES * abs(a):
            return None
        return 0 if op.attrs["fn"] == "floordiv" else a
    return None


def const_int(v: Value, depth: int = 0) -> Optional[int]:
    """The integer a value always holds (a constant, or a constant broadcast), else None."""
    c = v.const if v.const is not None else None
    op = v.owner
    if c is None and op is not None and op.name == "const":
        c = op.attrs.get("value")
    if c is None and op is not None and op.name in ("broadcast", "reshape", "astype") and op.operands and depth < 4:
        return const_int(op.operands[0], depth + 1)
    return int(c) if isinstance(c, (int, np.integer)) and not isinstance(c, bool) else None
