"""Scalar values of a kernel for every block of a grid, from metadata alone.

Loop bounds and tile indices are small integer computations on `bid`, array shapes and
constants. `GridScalars.value(v)` evaluates them for all blocks at once (one NumPy element
per block): a loop's trip count is then exact per block, and a load's tile index tells which
blocks read the same tile. A value that depends on a loop variable is `VARIANT` (it changes
from one iteration to the next); one that depends on loaded data, or on an op not modelled
here, is `None` (unknown). A runtime scalar argument is unknown too, unless its value is given
(`values`: what a launch passes, by parameter name): the IR keeps it a runtime argument, and
only the counting here uses the value.
"""
from __future__ import annotations

import operator
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..ir.core import Function, Value, per_function
from ..ir.types import ArrayType, TiledViewType, TileType
from .loop_bounds import LOAD_OPS


class _Variant:
    def __repr__(self) -> str:
        return "VARIANT"


VARIANT = _Variant()

_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "floordiv": np.floor_divide,
           "mod": np.mod, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
           "xor": np.bitwise_xor, "truediv": np.true_divide,
           "lshift": np.left_shift, "rshift": np.right_shift}   # >> sign-extends, as cuTile's on signed types
_COMPARE = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
            "ne": operator.ne}


_ORDERS = ("gt", "ge", "lt", "le")


def _cdiv(a, b):
    return -np.floor_divide(-a, b)


class GridScalars:
    """Scalar values of `fn` for every block of `grid` (a 3-tuple)."""

    def __init__(self, fn: Function, grid: Sequence[int], values: Optional[Dict[str, Any]] = None):
        self.fn = fn
        self.grid = tuple(grid)
        self.blocks = int(np.prod(self.grid))
        lin = np.arange(self.blocks, dtype=np.int64)
        self.bids = (lin % self.grid[0], (lin // self.grid[0]) % self.grid[1], lin // (self.grid[0] * self.grid[1]))
        self.memo: Dict[int, Any] = {}
        self.bounded = 0                 # values taken as an upper bound (min with an unknown)
        self.offsets = 0                 # min()/max()s evaluated with runtime integer scalars at 0 (v16)
        self.known = {p.values[0].id: np.asarray(values[p.name]) for p in fn.params
                      if values and p.name in values and not p.is_constant and len(p.values) == 1}
        params = {p.name for p in fn.params}
        self.data = {name: vs for name, vs in data_scalars(fn).items() if name not in params}   # (v76)
        self.known.update({v.id: np.asarray(values[name]) for name, vs in self.data.items()
                           if values and name in values for v in vs})
        self.runtime_ints = {v.id: p.name for p in fn.params if not p.is_constant for v in p.values
                             if _scalar_like(v) and getattr(getattr(v.type, "dtype", None), "is_int", False)}
        self.zeroed: Dict[str, None] = {}      # the runtime scalars those took at 0 (since cleared)
        self._zero_offsets = False
        self._offset_at = 0                    # the value the runtime scalars take in that mode
        self._used: Dict[str, None] = {}
        self.loop_vars = {a.id for op in fn.walk() if op.name in ("for", "loop") for a in op.blocks[0].args}

    def unknown_scalars(self, values: Sequence[Value]) -> List[str]:
        """Names of the runtime integer parameters, their values not given, that `values` are
        computed from (through every op, loop variables and loaded values included)."""
        return _names_upstream(values, {i: n for i, n in self.runtime_ints.items() if i not in self.known})

    def unknown_data(self, values: Sequence[Value]) -> List[str]:
        """Names of the values read from memory (`data_scalars`), their values not given, that
        `values` are computed from."""
        return _names_upstream(values, {v.id: name for name, vs in self.data.items() for v in vs
                                        if v.id not in self.known})

    def value(self, v: Value) -> Any:
        """(blocks,) int64/float64 array, VARIANT or None."""
        if v.id in self.memo:
            return self.memo[v.id]
        self.memo[v.id] = None                    # cycles (loop-carried values) stay unknown
        out = self._compute(v)
        if isinstance(out, np.ndarray):
            out = np.broadcast_to(out, (self.blocks,)) if out.ndim == 0 or out.shape == (1,) else out
        self.memo[v.id] = out
        return out

    def as_built(self, v: Value) -> Any:
        """`v` as the build sees it: runtime arguments unknown even where their values are given
        (what tileiras can prove of an index, such as its alignment, cannot use them)."""
        if not self.known:
            return self.value(v)
        saved, known = self.memo, self.known
        self.memo, self.known = {}, {}
        try:
            return self.value(v)
        finally:
            self.memo, self.known = saved, known

    def at_first_iteration(self, v: Value) -> Any:
        """`v` for every block with each loop variable at its loop's first value (version 11):
        which blocks start on the same tile of an index that changes with the loop."""
        saved = self.memo
        try:
            self.memo = {}
            for op in self.fn.walk():                 # outer loops first: inner starts may use their variables
                if op.name not in ("for", "loop") or not op.blocks[0].args:
                    continue
                # a for loop's variable starts at its start, the carried values (both loops) at their
                # initial values (version 39: a counter carried beside the loop variable, a while
                # loop's tile index); a start the blocks do not know leaves its value varying
                firsts = [op.operands[0], *op.operands[3:]] if op.name == "for" else op.operands
                for init, arg in zip(firsts, op.blocks[0].args):
                    x = self.value(init)
                    if isinstance(x, np.ndarray):
                        self.memo[arg.id] = np.broadcast_to(x, (self.blocks,))
            return self.value(v)
        finally:
            self.memo = saved

    def iteration_share(self, cond: Value, loop_op, limit: int = 256) -> Optional[float]:
        """Share of a `for` loop's iterations, over all blocks, in which `cond` holds, for a
        condition on the loop variable (the first `limit` iterations; None when it stays unknown)."""
        bounds = [self.value(v) for v in loop_op.operands[:3]]
        if any(x is None or x is VARIANT for x in bounds) or not loop_op.blocks[0].args:
            return None
        start, stop, step = bounds
        step = np.where(step == 0, 1, step)
        trips = np.maximum(0, _cdiv(stop - start, step))
        var, saved = loop_op.blocks[0].args[0], self.memo
        hits = total = 0
        try:
            for i in range(int(min(trips.max(initial=0), limit))):
                self.memo = {var.id: np.broadcast_to(start + i * step, (self.blocks,))}
                c = self.value(cond)
                if not isinstance(c, np.ndarray):
                    return None
                valid = i < trips
                hits += int(np.count_nonzero(np.broadcast_to(c, (self.blocks,)).astype(bool) & valid))
                total += int(np.count_nonzero(valid))
        finally:
            self.memo = saved
        return hits / total if total else None

    def _compute(self, v: Value) -> Any:
        if v.id in self.loop_vars:
            return VARIANT
        if v.const is not None and isinstance(v.const, (bool, int, float, np.generic)):
            return np.asarray(v.const)
        op = v.owner
        if v.id in self.known:           # a parameter's value, or a read value's (version 76)
            return self.known[v.id]
        if op is None:
            if self._zero_offsets and v.id in self.runtime_ints:
                self._used[self.runtime_ints[v.id]] = None
                return np.asarray(self._offset_at)
            return None
        args = [self.value(o) for o in op.operands] if op.name not in ("array_dim", "num_tiles",
                                                                       "tiled_num_tiles") else []
        if any(a is VARIANT for a in args):
            return VARIANT
        name = op.name
        if name == "const":
            val = op.attrs.get("value")
            return np.asarray(val) if isinstance(val, (bool, int, float)) else None
        if name == "bid":
            return self.bids[op.attrs["axis"]]
        if name == "num_blocks":
            return np.asarray(self.grid[op.attrs["axis"]])
        if name == "array_dim":
            return self._array_dim(op)
        if name in ("num_tiles", "tiled_num_tiles"):
            return self._num_tiles(op)
        if name == "binary" and op.attrs.get("fn") in ("min", "max") and sum(a is None for a in args) == 1:
            return self._min_max(op.attrs["fn"], op.operands, args)
        if name == "if" and len(op.results) == 1 and _scalar_like(v):
            return self._if_value(op, args[0])
        if any(a is None for a in args):
            return None
        if name in ("reshape", "broadcast", "astype") and _scalar_like(op.results[0]):
            x = args[0]
            if name == "astype":
                dt = op.results[0].type.dtype
                return x.astype(np.int64) if dt.is_int else x.astype(np.float64) if dt.is_float else x
            return x
        if name == "binary":
            fn = op.attrs["fn"]
            if fn == "cdiv":
                return _cdiv(*args)
            f = _BINARY.get(fn)
            return f(*args) if f is not None else None
        if name == "compare":
            f = _COMPARE.get(op.attrs["fn"])
            return f(*args) if f is not None else None
        if name == "unary" and op.attrs["fn"] in ("neg", "abs"):
            return -args[0] if op.attrs["fn"] == "neg" else np.abs(args[0])
        if name == "where":
            return np.where(*args)
        if name == "fma":
            return args[0] * args[1] + args[2]
        return None

    def _min_max(self, fn: str, operands: Sequence[Value], args: Sequence[Any]) -> Any:
        """min()/max() of a known and an unknown value."""
        known = args[0] if args[1] is None else args[1]
        # a block's own position past a runtime offset (version 16): a causal stop, a window's start
        unknown = operands[0] if args[0] is None else operands[1]
        offset = self._at_zero_offsets(unknown, fn == "max")
        if offset is not None and fn == "max" and self._falls_with_scalars(unknown, offset):
            # a start past a runtime length subtracted (a window's `max(q - window + 1, 0)`):
            # at 0 the window would be empty; its other operand is the earliest start (version 21)
            self.bounded += 1
            return known
        if offset is not None:
            self.offsets += 1
            return np.minimum(offset, known) if fn == "min" else np.maximum(offset, known)
        if fn == "max":
            return None
        self.bounded += 1               # min(unknown, known) <= known: an upper bound, noted
        return known

    def _if_value(self, op, cond: Any) -> Any:
        """The scalar an `if` yields: per block where its condition is known; else, for a clamp
        written as a branch (`if end > n: end = n`, a min or max of the compared values), that
        min or max (version 22)."""
        yields = [b.terminator.operands[0] if b.terminator is not None and len(b.terminator.operands) == 1
                  else None for b in op.blocks[:2]]
        if len(yields) != 2 or None in yields:
            return None
        if isinstance(cond, np.ndarray):
            then, other = (self.value(y) for y in yields)
            if any(x is None or x is VARIANT for x in (then, other)):
                return None if then is None or other is None else VARIANT
            return np.where(cond, then, other)
        test = op.operands[0].owner
        if cond is not None or test is None or test.name != "compare" or test.attrs.get("fn") not in _ORDERS:
            return None
        a, b = test.operands
        if {yields[0].id, yields[1].id} != {a.id, b.id} or a.id == b.id:
            return None
        greater = test.attrs["fn"] in ("gt", "ge")           # the condition says a > b
        fn = "min" if greater == (yields[0].id == b.id) else "max"
        args = [self.value(a), self.value(b)]
        if any(x is VARIANT for x in args):
            return VARIANT
        if sum(x is None for x in args) != 1:
            return None
        return self._min_max(fn, [a, b], args)

    def _with_scalars_at(self, v: Value, at: int) -> Tuple[Any, Dict[str, None]]:
        """`v` with the kernel's runtime integer scalars at `at`, and the names of those it used."""
        saved, mode, outer, before = self.memo, self._zero_offsets, self._used, self._offset_at
        self.memo, self._zero_offsets, self._used, self._offset_at = {}, True, {}, at
        try:
            return self.value(v), self._used
        finally:
            self.memo, self._zero_offsets, self._used, self._offset_at = saved, mode, outer, before

    def _falls_with_scalars(self, v: Value, at_zero: np.ndarray) -> bool:
        """Whether `v` is smaller with its runtime scalars large than at 0: they are subtracted."""
        out, _ = self._with_scalars_at(v, 1 << 20)
        return isinstance(out, np.ndarray) and bool(np.all(out < at_zero))

    def _at_zero_offsets(self, v: Value, negative_ok: bool = False) -> Optional[np.ndarray]:
        """`v` with the kernel's runtime integer scalars at 0, where it then differs from block to
        block: a causal bound such as `min(input_pos + (bid + 1) * TILE, seqlen)` or a sliding
        window's start `max(input_pos + bid * TILE - WINDOW, 0)`, whose offset is 0 when no prefix
        precedes the blocks (a prefill, a training step); None otherwise (a value that is a runtime
        scalar itself, one that would not depend on the block, or, unless `negative_ok` (under a
        `max`), one negative at 0, such as a runtime length less a block's start)."""
        if not self.runtime_ints:
            return None
        mode = self._zero_offsets
        out, used = self._with_scalars_at(v, 0)
        if not isinstance(out, np.ndarray) or out.ndim != 1 or np.ptp(out) == 0:
            return None
        if not negative_ok and np.any(out < 0):
            return None          # (negative at 0: a length less a position, not a position past an offset)
        if mode:                 # a min() inside another's evaluation: its names are the outer one's too
            self._used.update(used)
        self.zeroed.update(used)
        return out

    def _array_dim(self, op) -> Any:
        t = op.operands[0].type
        if not isinstance(t, ArrayType):
            return None
        axis = op.attrs["axis"]
        known = t.shape[axis] if op.attrs["what"] == "shape" else (t.strides[axis] if t.strides else None)
        return None if known is None else np.asarray(known)

    def _num_tiles(self, op) -> Any:
        """`ct.num_tiles(array, axis, shape)` or a tiled view's `num_tiles(axis)`: the tiles along
        the axis, from the array's shape."""
        t = op.operands[0].type
        if isinstance(t, TiledViewType):
            array, shape, order, steps = t.array, t.tile_shape, t.order, t.traversal_steps
        elif isinstance(t, ArrayType):
            array, shape, order, steps = t, op.attrs["shape"], op.attrs["order"], op.attrs.get("traversal_steps")
        else:
            return None
        axis = op.attrs["axis"]
        n = array.shape[order[axis]]
        step = (steps or shape)[axis]
        return None if n is None else np.asarray(-(-n // step))


def _names_upstream(values: Sequence[Value], names_by_id: Dict[int, str]) -> List[str]:
    """The names (`names_by_id`) of the values `values` are computed from, walking every op's
    operands up to a named value, in the order found."""
    names: Dict[str, None] = {}
    seen, todo = set(), list(values)
    while todo:
        v = todo.pop()
        if v.id in seen:
            continue
        seen.add(v.id)
        if v.id in names_by_id:
            names[names_by_id[v.id]] = None
        elif v.owner is not None:
            todo.extend(v.owner.operands)
    return list(names)


def _scalar_like(v: Value) -> bool:
    """A scalar parameter's value (an array of one element is an array)."""
    shape = getattr(v.type, "shape", None)
    return shape is not None and not isinstance(v.type, ArrayType) and all(d == 1 for d in shape)


def trip_counts(scalars: GridScalars, loop_op) -> Optional[np.ndarray]:
    """Per-block trip count of a `for` op, or None when a bound is unknown or varies per iteration
    (unless the stop is the start plus a known span: `range(s, s + n)` from a varying `s`)."""
    start_v, stop_v, step_v = loop_op.operands[:3]
    start, stop, step = (scalars.value(v) for v in (start_v, stop_v, step_v))
    if step is None or step is VARIANT:
        return None
    step = np.where(step == 0, 1, step)
    known = not any(x is None or x is VARIANT for x in (start, stop))
    span = stop - start if known else _span(scalars, start_v, stop_v)
    return None if span is None else np.maximum(0, _cdiv(span, step)).astype(np.int64)


def _span(scalars: GridScalars, start: Value, stop: Value) -> Optional[np.ndarray]:
    """`stop - start` where `stop` is computed as `start` plus a value known for every block (a
    split-K loop's `range(start_k, start_k + k_tiles)` from a start that varies with the tile a
    persistent loop is at); None otherwise."""
    op = stop.owner
    if op is None or op.name != "binary" or op.attrs.get("fn") != "add" or len(op.operands) != 2:
        return None
    a, b = op.operands
    other = b if a is start else a if b is start else None
    span = scalars.value(other) if other is not None else None
    return None if span is None or span is VARIANT else span


def checked_values(fn: Function, values: Any) -> Dict[str, Any]:
    """`values` (a mapping of runtime scalar parameters' names, or of values the kernel reads from
    memory (`data_scalars`), to numbers) as the counting takes it; a ValueError naming the kernel's
    runtime scalars for a name that is neither, or for a value that is not a number."""
    if values is None:
        return {}
    if not hasattr(values, "items"):
        raise ValueError(f"values: expected a mapping of parameter names to numbers, got {type(values).__name__}")
    runtime = {p.name: p.values[0] for p in fn.params
               if not p.is_constant and len(p.values) == 1 and _scalar_like(p.values[0])}
    constant = {p.name: p.constant for p in fn.params if p.is_constant}
    data = {name: vs[0] for name, vs in data_scalars(fn).items() if name not in runtime and name not in constant}
    out: Dict[str, Any] = {}
    for name, v in values.items():
        if name in constant:
            raise ValueError(f"values: '{name}' is compiled into kernel '{fn.name}' as the constant "
                             f"{constant[name]!r}; values are for runtime scalar parameters")
        if name not in runtime and name not in data:
            known = ", ".join(f"'{n}'" for n in runtime) or "none"
            read = f"; the values it reads from memory: {', '.join(repr(n) for n in data)}" if data else ""
            raise ValueError(f"values: kernel '{fn.name}' has no runtime scalar parameter '{name}' "
                             f"(its runtime scalars: {known}{read})")
        if isinstance(v, np.generic):
            v = v.item()
        if not isinstance(v, (bool, int, float)):
            raise ValueError(f"values: '{name}' must be a number, got {v!r}")
        dtype = getattr((runtime.get(name) or data[name]).type, "dtype", None)
        if isinstance(v, float) and dtype is not None and dtype.is_int:
            if not v.is_integer():      # the launch would pass an integer: the count needs one
                raise ValueError(f"values: '{name}' is an integer ({dtype.name}) scalar of kernel '{fn.name}', "
                                 f"got {v!r}")
            v = int(v)
        if isinstance(v, int) and not isinstance(v, bool) and dtype is not None and dtype.is_int:
            info = np.iinfo(dtype.numpy)      # a launch could not pass it: the count would be of nothing real
            if not info.min <= v <= info.max:
                raise ValueError(f"values: '{name}' of kernel '{fn.name}' is {dtype.name}; {v} is outside its "
                                 f"range [{info.min}, {info.max}]")
        out[name] = v
    return out


@per_function
def data_scalars(fn: Function) -> Dict[str, List[Value]]:
    """The one-element values a kernel computes from what it reads from memory, by the name the
    source binds them to (`n_routed = ct.gather(row_id_map, i)`: a count each token reads), every
    version of the name: what `values` may give besides the runtime scalars (version 76), so that
    the loops and branches they decide are counted at that value instead of both ways."""
    read: set = set()
    out: Dict[str, List[Value]] = {}
    for op in fn.walk():
        if op.name in LOAD_OPS or any(o.id in read for o in op.operands):
            for r in op.results:
                read.add(r.id)
                shape = r.type.shape if isinstance(r.type, TileType) else None
                if r.name and shape is not None and all(isinstance(n, int) for n in shape) \
                        and int(np.prod(shape or (1,))) == 1:
                    out.setdefault(r.name.split(".")[0], []).append(r)
    return out
