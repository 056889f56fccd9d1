"""Proof, for one launch, that blocks touch disjoint elements of the arrays they write, from the
ranges their element coordinates take.

Kernels written element by element index through computed offsets (`offs = bid * B +
arange(B)`, `n - 1 - offs`) or store tiles at indices computed from the block id (`2 * bid +
1`). For the launch's grid and scalar arguments, each integer value such an index is made of
is described as `c · bid + r`: linear in the block ids, plus a part `r` that lies, in every
lane of every block (and every iteration of a counted loop), within [lo, hi]. Along one array
axis, block b's accesses then stay within c · b + [lo, hi] (every access to the array must
have the same c there). Blocks that differ only in grid axes G are apart along that axis when,
taking the axes of G by increasing |c|, each |c| exceeds hi - lo plus the span of the smaller
ones (a mixed radix); when every grid axis of more than one block is kept apart along some
array axis, no two blocks touch one element, and blocks may run in any order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...ir.core import Function, Op, per_function
from ...ir.types import ArrayType, TileType
from .disjoint import _ELEMENT, _TILED, arrays_to_cover

_METADATA = ("array_dim", "num_tiles")       # read an array's shape, not its memory


@dataclass(frozen=True)
class Form:
    """Every lane, in block b: c · b + r with lo <= r <= hi."""
    c: Tuple[int, int, int]
    lo: int
    hi: int

    @property
    def fixed(self) -> bool:
        """One value for every lane of every block."""
        return not any(self.c) and self.lo == self.hi


def independent(fn: Function, grid: Sequence[int], values) -> bool:
    """Whether this launch's blocks provably touch disjoint elements of every written array."""
    key = (tuple(grid), _launch_key(fn, values))
    memo = _memo(fn)
    if key not in memo:
        if len(memo) > 64:
            memo.clear()
        memo[key] = _independent(fn, tuple(grid), values)
    return memo[key]


@per_function
def _memo(fn: Function) -> Dict:
    return {}


def _launch_key(fn: Function, values) -> tuple:
    """What the proof depends on besides the grid: integer scalars and array shapes."""
    out = []
    for v, x in zip(fn.body.args, values):
        if isinstance(v.type, ArrayType):
            out.append(tuple(getattr(x, "array", x).shape))
        elif isinstance(v.type, TileType) and v.type.dtype.is_int:
            out.append(int(np.asarray(x).reshape(-1)[0]))
        else:
            out.append(None)
    return tuple(out)


def _independent(fn: Function, grid: Tuple[int, int, int], values) -> bool:
    covered = arrays_to_cover(fn)
    if covered is None:
        return False
    forms = _forms(fn, grid, values)
    for pos, accesses in covered:
        per_axis = _coordinates(accesses, fn.body.args[pos].type.ndim, forms)
        if per_axis is None or not _apart(per_axis, grid):
            return False
    return True


def _coordinates(accesses, ndim: int, forms) -> Optional[List[Optional[Form]]]:
    """Per array axis, the form every access's coordinate there has (None for an axis where
    the accesses' c differ); None when some access is not an element or tile access with
    known forms."""
    axes: List[List[Form]] = [[] for _ in range(ndim)]
    for op, k in accesses:
        if k != 0:
            return None
        if op.name in _METADATA:
            continue
        if op.name in _ELEMENT:
            for a, idx in enumerate(op.operands[1:1 + ndim]):
                f = forms.get(idx.id)
                if f is None:
                    return None
                axes[a].append(f)
        elif op.name in _TILED and "traversal_steps" not in op.attrs:
            shape = op.results[0].type.shape if op.name == "load_tile" else op.operands[-1].type.shape
            if len(shape) != ndim:
                return None
            index = op.operands[1:1 + ndim]
            for t, (idx, s) in enumerate(zip(index, shape)):
                f = forms.get(idx.id)
                if f is None:
                    return None
                axes[op.attrs["order"][t]].append(Form(tuple(x * s for x in f.c), f.lo * s, f.hi * s + s - 1))
        else:
            return None
    out = []
    for fs in axes:
        same = fs and all(f.c == fs[0].c for f in fs)
        out.append(Form(fs[0].c, min(f.lo for f in fs), max(f.hi for f in fs)) if same else None)
    return out


def _apart(per_axis: List[Optional[Form]], grid: Tuple[int, int, int]) -> bool:
    """Whether any two blocks are apart along some array axis (the module's mixed radix)."""
    kept = set()
    for f in per_axis:
        if f is None:
            continue
        axes = sorted((g for g in range(3) if f.c[g] and grid[g] > 1), key=lambda g: abs(f.c[g]))
        span = f.hi - f.lo
        ok = True
        for g in axes:
            if abs(f.c[g]) <= span:
                ok = False
                break
            span += abs(f.c[g]) * (grid[g] - 1)
        if ok:
            kept.update(axes)
    return all(g in kept for g in range(3) if grid[g] > 1)


# ---- forms of integer values -------------------------------------------------------------------

def _forms(fn: Function, grid: Tuple[int, int, int], values) -> Dict[int, Form]:
    """Value id -> Form, for the integer values whose form is known (the others are absent)."""
    forms: Dict[int, Form] = {}
    params = {v.id: i for i, v in enumerate(fn.body.args)}
    for v, x in zip(fn.body.args, values):
        if isinstance(v.type, TileType) and not v.type.shape and v.type.dtype.is_int:
            n = int(np.asarray(x).reshape(-1)[0])
            forms[v.id] = Form((0, 0, 0), n, n)
    for op in fn.walk():
        if op.name == "for":
            _loop_counter(op, forms)
            continue
        if len(op.results) != 1:
            continue
        r = op.results[0]
        if not isinstance(r.type, TileType) or not r.type.dtype.is_int:
            continue
        f = _form_of(op, forms, grid, params, values)
        if f is not None and _fits(f, r.type.dtype, grid):
            forms[r.id] = f
    return forms


def _loop_counter(op: Op, forms: Dict[int, Form]) -> None:
    """A counted loop's counter: within [start, stop - 1] when start, stop and step are fixed."""
    start, stop, step = (forms.get(v.id) for v in op.operands[:3])
    if not (start and stop and step and start.fixed and stop.fixed and step.fixed) or step.lo <= 0:
        return
    if stop.lo > start.lo:
        forms[op.blocks[0].args[0].id] = Form((0, 0, 0), start.lo, stop.lo - 1)


def _fits(f: Form, dtype, grid) -> bool:
    """Whether every value the form stands for is representable (no wrap-around)."""
    low = f.lo + sum(min(0, c * (n - 1)) for c, n in zip(f.c, grid))
    high = f.hi + sum(max(0, c * (n - 1)) for c, n in zip(f.c, grid))
    info = np.iinfo(dtype.numpy)
    return info.min <= low and high <= info.max


def _form_of(op: Op, forms, grid, params, values) -> Optional[Form]:
    name = op.name
    if name == "const":
        value = op.attrs["value"]
        return Form((0, 0, 0), int(value), int(value)) if isinstance(value, (int, np.integer)) else None
    if name == "bid":
        return Form(tuple(int(a == op.attrs["axis"]) for a in range(3)), 0, 0)
    if name == "num_blocks":
        n = grid[op.attrs["axis"]]
        return Form((0, 0, 0), n, n)
    if name == "arange":
        return Form((0, 0, 0), 0, op.results[0].type.shape[0] - 1)
    if name == "array_dim":
        pos = params.get(op.operands[0].id)
        if pos is None or op.attrs.get("what") != "shape":
            return None
        n = getattr(values[pos], "array", values[pos]).shape[op.attrs["axis"]]
        return Form((0, 0, 0), n, n)
    ins = [forms.get(v.id) for v in op.operands]
    if name in ("reshape", "broadcast", "astype"):
        return ins[0] if op.operands[0].type.dtype.is_int else None
    if name == "where":
        x, y = ins[1], ins[2]
        return Form(x.c, min(x.lo, y.lo), max(x.hi, y.hi)) if x and y and x.c == y.c else None
    if name == "binary" and all(ins):
        return _binary(op.attrs["fn"], *ins)
    return None


def _binary(fn: str, x: Form, y: Form) -> Optional[Form]:
    if fn == "add":
        return Form(tuple(a + b for a, b in zip(x.c, y.c)), x.lo + y.lo, x.hi + y.hi)
    if fn == "sub":
        return Form(tuple(a - b for a, b in zip(x.c, y.c)), x.lo - y.hi, x.hi - y.lo)
    if fn == "mul":
        if x.fixed:
            x, y = y, x
        if y.fixed:
            k = y.lo
            return Form(tuple(a * k for a in x.c), min(x.lo * k, x.hi * k), max(x.lo * k, x.hi * k))
        if not any(x.c) and not any(y.c):
            corners = [a * b for a in (x.lo, x.hi) for b in (y.lo, y.hi)]
            return Form((0, 0, 0), min(corners), max(corners))
        return None
    if fn in ("floordiv", "mod") and y.fixed and y.lo > 0:
        k = y.lo
        if any(a % k for a in x.c):
            return None
        if fn == "floordiv":              # (c · b + r) // k = (c / k) · b + r // k, when k divides c
            return Form(tuple(a // k for a in x.c), x.lo // k, x.hi // k)
        if 0 <= x.lo and x.hi < k:        # (c · b + r) % k = r % k
            return Form((0, 0, 0), x.lo, x.hi)
        return Form((0, 0, 0), 0, k - 1)
    if fn in ("max", "min") and x.c == y.c:
        pick = max if fn == "max" else min
        return Form(x.c, pick(x.lo, y.lo), pick(x.hi, y.hi))
    return None
