"""Run typed IR on NumPy for a whole group of blocks at once.

Every run-time value carries a leading *block axis*: a tile of shape S is an array
of shape (B, *S) for a group of B blocks, or (1, *S) when it is the same for every
block (uniform values stay cheap and NumPy broadcasting does the rest). Control
flow that differs between blocks runs under an *active mask*: both branches of an
`if` execute and their results are selected per block; loops run until every block
has left them. Side effects (stores, atomics, prints) honour the mask.

The meaning of each op lives in its family module as a `numpy` rule on the
primitive (see `tilescope.ops.registry`); this module walks the IR. The speed-ups keep
every result bit-identical to a one-block run: values shared along grid axes stay factored
and blocks sharing matmul operands share BLAS calls (grid.py, joined.py), loops that only
accumulate `mma`s join their products and read their tiles per chunk (fusion.py,
chunk_loads.py), arithmetic read only by the next store is computed into the destination
(forwarding.py), float16 tiles only `mma` reads stay in float32 (widened.py), NaNs are
rewritten only where their bits can be seen (nans.py), and each value is dropped after its
last use (`last_uses`).
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from ...errors import Loc, TileError
from ...ir.core import Block, Function, Op, Value, per_function
from ...ir.primitive import PRIMITIVES
from ...semantics import frames
from . import forwarding, fused_for, fusion
from .grid import FACTORED_OPS, FACTORED_VALUE_OPS, TILE_LOCAL_OPS, Factored, box_of, remember, tile_local
from .nans import canonical_sites
from ...semantics.numerics import canonical_nans
from .tiles import ArrayRef, MultiRef, SliceRef, regular_tiles


@functools.lru_cache(maxsize=None)
def _walks(name: str) -> bool:
    """Whether op `name`'s rule drives the walk itself (control flow) instead of mapping values."""
    p = PRIMITIVES[name]
    return p.has("structured") or p.has("terminator")


class ExecutionError(TileError):
    """A problem found while running a kernel (out-of-bounds access, race, failed assert)."""


class _LoopExit(Exception):
    pass


def np_dtype(t) -> np.dtype:
    return t.dtype.numpy


class Executor:
    """Executes one kernel for one group of blocks.

    `block_ids` is an int64 array (B, 3) of the blocks in this group; `grid` the
    full grid size. `launch` (tilescope.run) splits the grid into groups.
    """

    def __init__(self, fn: Function, grid: Sequence[int], block_ids: np.ndarray, args: List[Any],
                 checks: "Checks", sink: "Sink"):
        self.fn = fn
        self.grid = tuple(grid)
        self.block_ids = block_ids
        self.nb = len(block_ids)
        self.args = args
        self.checks = checks
        self.sink = sink
        self.races = None                  # a RaceTracker shared by the groups of one launch
        self.env: Dict[int, Any] = {}
        self.loops: List["_Frame"] = []
        self.returned = np.zeros(self.nb, dtype=bool)
        # Blocks still running the current region (None: all of them).
        self.active: Optional[np.ndarray] = None
        self.op: Optional[Op] = None
        self.index_axes_seen: dict = {}
        self.components_seen: dict = {}      # tiles.regular_tiles's analyses, per index array
        self.nan_sites = canonical_sites(fn)
        self.forwarded: dict = {}            # store op id -> the view its tile was computed into
        self.kept: dict = {}                 # value id -> (array, what `once` computed from it)
        self.memo: dict = {}                 # see `remembered`
        self.bids: dict = {}                 # axis -> `bid`
        self.last_uses = last_uses(fn)

    # ---- blocks and reports ---------------------------------------------------

    @functools.cached_property
    def box(self) -> Optional[tuple]:
        """(nz, ny, nx) when the group is a box of the grid: values may then be kept factored
        (grid.py). Worked out on first use."""
        return box_of(self.block_ids) if self.nb > 1 else None

    def bid(self, axis: int) -> np.ndarray:
        """The blocks' ids along `axis`: one array per group (every `ct.bid` reads the same one,
        so analyses of it are shared), a single value when the group lies in one slice."""
        ids = self.bids.get(axis)
        if ids is None:
            ids = self.block_ids[:, axis].astype(np.int32)
            if (ids == ids[0]).all():
                ids = ids[:1].copy()
            self.bids[axis] = ids
        return ids

    def linear_block_ids(self) -> np.ndarray:
        g = self.grid
        b = self.block_ids
        return (b[:, 0] + g[0] * (b[:, 1] + g[1] * b[:, 2])).astype(np.int64)

    def block_of_linear(self, linear: int) -> tuple:
        g = self.grid
        return (linear % g[0], (linear // g[0]) % g[1], linear // (g[0] * g[1]))

    def report(self, message: str, block: tuple, once: Any = None) -> None:
        """Report a problem at the current op; with `once`, only the first report of that key."""
        self.checks.add(self.fn.name, self._loc(), block, message, once)

    # ---- values ---------------------------------------------------------------

    def get(self, v: Value) -> Any:
        x = self.get_raw(v)
        if isinstance(x, Factored):          # expanded once, on first use by a rule that needs (B, *tile)
            x = self.env[v.id] = x.materialize()
        return x

    def get_raw(self, v: Value) -> Any:
        """The value as stored: possibly a `Factored` (only for rules that know it)."""
        try:
            return self.env[v.id]
        except KeyError:
            raise ExecutionError(f"internal: value {v!r} used before definition", self._loc()) from None

    def remembered(self, arrays: Sequence[np.ndarray], what: Any, compute: Callable[[], Any]) -> Any:
        """compute(), remembered for this group per set of index arrays and `what` (a load and
        the store after it usually share their indices)."""
        key = (tuple(id(a) for a in arrays), what)
        hit = self.memo.get(key)
        if hit is None or any(a is not b for a, b in zip(hit[0], arrays)):
            hit = (list(arrays), compute())
            remember(self.memo, key, hit)
        return hit[1]

    def regular_tiles(self, index: List[np.ndarray]):
        """tiles.regular_tiles of per-block tile indices (remembered)."""
        return self.remembered(index, "regular", lambda: regular_tiles(index, self.nb, self.components_seen))

    def once(self, v: Value, x: Any, fn: Callable[[Any], Any]) -> Any:
        """fn(x), computed again only when `v` holds another array than last time (an operand
        defined outside a loop: converted once, not every iteration)."""
        hit = self.kept.get(v.id)
        if hit is None or hit[0] is not x:
            hit = self.kept[v.id] = (x, fn(x))
        return hit[1]

    def set(self, v: Value, x: Any) -> None:
        self.env[v.id] = x

    def _loc(self) -> Optional[Loc]:
        return self.op.loc if self.op is not None else None

    def error(self, message: str) -> ExecutionError:
        return ExecutionError(message, self._loc())

    def uniform(self, x: np.ndarray) -> bool:
        return x.shape[0] == 1

    def active_mask(self) -> np.ndarray:
        """(B,) bool mask of blocks executing the current op."""
        if self.active is None:
            return np.ones(self.nb, dtype=bool)
        return self.active

    def expand(self, x: np.ndarray) -> np.ndarray:
        """A value with its block axis at full size B (copy-free broadcast)."""
        if x.shape[0] == self.nb:
            return x
        return np.broadcast_to(x, (self.nb,) + x.shape[1:])

    # ---- running --------------------------------------------------------------

    def run(self) -> None:
        for p, arg in zip(self.fn.body.args, self.args):
            self.set(p, arg)
        with np.errstate(all="ignore"):
            try:
                self.block(self.fn.body)
            except _LoopExit:
                pass

    def block(self, block: Block) -> None:
        for op in block.ops:
            self.exec_op(op)
            self.drop_after(op)

    def drop_after(self, op: Op) -> None:
        """Forget the values `op` read last (memory goes back for reuse while the group runs)."""
        for vid in self.last_uses.get(id(op), ()):
            self.env.pop(vid, None)

    def exec_op(self, op: Op) -> None:
        self.op = op
        rule = self.rule_of(op)
        if _walks(op.name):
            rule(self, op)                   # runs its blocks / leaves them, binding results itself
            return
        if op.name in ("binary", "fma"):
            store = forwarding.store_of(self.fn, op)
            if store is not None and forwarding.compute_into_store(self, op, store,
                                                                   *[self.get(v) for v in op.operands]):
                return
        if op.name in FACTORED_OPS:
            out = rule(self, op, *[self.get_raw(v) for v in op.operands])
        elif op.name in FACTORED_VALUE_OPS:
            out = rule(self, op, *[self.get(v) for v in op.operands[:-1]], self.get_raw(op.operands[-1]))
        elif op.name in TILE_LOCAL_OPS and isinstance(self.env.get(op.operands[0].id), Factored):
            out = tile_local(self.get_raw(op.operands[0]), op, lambda x: rule(self, op, x))
        else:
            out = rule(self, op, *[self.get(v) for v in op.operands])
        out = self.rule_output(op, out)
        if len(op.results) == 1:
            self.set(op.results[0], out)
        elif op.results:
            for r, x in zip(op.results, out):
                self.set(r, x)

    def rule_of(self, op: Op) -> Callable:
        """The op's NumPy rule from the primitive table."""
        prim = PRIMITIVES.get(op.name)
        rule = prim.rule("numpy") if prim is not None else None
        if rule is None:
            why = prim.status("numpy") if prim is not None else "missing"
            raise self.error(f"the CPU executor has no rule for op '{op.name}' yet"
                             + ("" if why == "missing" else f" ({why})"))
        return rule

    def rule_output(self, op: Op, out: Any) -> Any:
        """A rule's result as the GPU would hold it (NaNs from arithmetic made canonical)."""
        if not self.checks.poison and id(op) in self.nan_sites:   # poison tracking needs NaN payloads
            out = _canonical(out) if len(op.results) == 1 else [_canonical(o) for o in out]
        return out

    def call_region(self, block: Block, *args: Any) -> List[Any]:
        """Run a pure nested block (a reduce/scan combiner) on whole arrays; returns its yield values.

        The block's ops are element-wise, so the arguments may have any (common) shape.
        """
        saved = self.op
        for a, v in zip(block.args, args):
            self.set(a, v)
        try:
            return _run_region(self, block)
        finally:
            self.op = saved

    # ---- control flow (the control family's rules call these) ------------------------

    def run_if(self, op: Op) -> None:
        _exec_if(self, op)

    def run_for(self, op: Op) -> None:
        _exec_for(self, op)

    def run_loop(self, op: Op) -> None:
        _exec_loop(self, op)

    def read_yield(self, op: Op) -> None:
        # Regions read their `yield` themselves (_run_region); run as an op, it is a bug.
        raise self.error("internal: `yield` outside a region")

    def leave_loop(self, op: Op) -> None:
        _loop_exit(self, op)

    def return_(self, op: Op) -> None:
        _exec_return(self, op)

    def with_mask(self, mask: np.ndarray, body: Callable[[], Any]) -> Any:
        saved = self.active
        self.active = mask if saved is None else (saved & mask)
        try:
            return body()
        finally:
            self.active = saved


def _canonical(x):
    return Factored(canonical_nans(x.data), x.box) if isinstance(x, Factored) else canonical_nans(x)


def select(cond: np.ndarray, a: Any, b: Any) -> Any:
    """Per-block choice between two values (or array references); cond has shape (B,) or (1,)."""
    if isinstance(a, _REFS) or isinstance(b, _REFS):
        return _select_refs(cond, a, b)
    return frames.select(cond, a, b)


_REFS = (ArrayRef, SliceRef, MultiRef)


def _select_refs(cond: np.ndarray, a, b):
    """Per-block choice between array references (`a = x if bid == 0 else y`): a MultiRef
    whose items are both sides' arrays, each block pointing at the one it chose."""
    if a is b:
        return a

    def parts(r):
        if isinstance(r, MultiRef):
            return list(r.items), np.asarray(r.which, dtype=np.int64)
        return [r], np.zeros(1, dtype=np.int64)
    items_a, which_a = parts(a)
    items_b, which_b = parts(b)
    which = np.where(cond.reshape(-1), which_a, which_b + len(items_a))
    return MultiRef(items_a + items_b, which.astype(np.int64))


# ---- structured ops ----------------------------------------------------------

class _Frame:
    """Loop bookkeeping: which blocks left the loop and with which values."""

    def __init__(self, carried: List[np.ndarray], nb: int, nresults: Optional[int] = None):
        self.carried = carried          # values for the next iteration
        # values at loop exit: the carried ones, then values only `break` provides (None until set)
        self.results = list(carried) + [None] * max(0, (nresults or 0) - len(carried))
        self.broken = np.zeros(nb, dtype=bool)
        self.continued = np.zeros(nb, dtype=bool)


def _exec_if(ex: Executor, op: Op) -> None:
    cond = ex.get(op.operands[0]).reshape(-1).astype(bool)
    then_b, else_b = op.blocks
    if cond.shape[0] == 1 or cond.all() or not cond.any():
        # Every block takes the same branch.
        taken = then_b if bool(cond[0]) else else_b
        vals = _run_region(ex, taken)
        for r, v in zip(op.results, vals):
            ex.set(r, v)
        return
    active = ex.active_mask()
    vals_t = ex.with_mask(cond, lambda: _run_region(ex, then_b)) if (cond & active).any() else None
    vals_e = ex.with_mask(~cond, lambda: _run_region(ex, else_b)) if (~cond & active).any() else None
    for i, r in enumerate(op.results):
        if vals_t is None:
            ex.set(r, vals_e[i])
        elif vals_e is None:
            ex.set(r, vals_t[i])
        else:
            ex.set(r, select(cond, vals_t[i], vals_e[i]))


def _run_region(ex: Executor, block: Block) -> List[np.ndarray]:
    """Run a nested block; returns its `yield` values (loop exits are recorded on the loop frame)."""
    for op in block.ops:
        if op.name == "yield":
            return [ex.get(v) for v in op.operands]
        ex.exec_op(op)
        ex.drop_after(op)
    return []


@per_function
def last_uses(fn: Function) -> Dict[int, List[int]]:
    """op id -> ids of the values that op reads last, in the block that defines them (a read
    inside a nested block counts as a read by the op holding it). Empty for kernels with a
    breakpoint, whose debugger shows every value in scope."""
    if any(op.name == "breakpoint" for op in fn.walk()):
        return {}
    out: Dict[int, List[int]] = {}

    def visit(block: Block) -> None:
        defined = {a.id for a in block.args} | {r.id for op in block.ops for r in op.results}
        last: Dict[int, Op] = {}
        for op in block.ops:
            for o in [op, *(inner for b in op.blocks for inner in b.walk())]:
                for v in o.operands:
                    if v.id in defined:
                        last[v.id] = op
            for b in op.blocks:
                visit(b)
        for vid, op in last.items():
            out.setdefault(id(op), []).append(vid)
    visit(fn.body)
    return out


def _loop_exit(ex: Executor, op: Op) -> None:
    frame: _Frame = ex.loops[-1]
    mask = ex.active_mask()
    vals = [ex.get(v) for v in op.operands]
    target = frame.results if op.name == "break" else frame.carried
    for i, v in enumerate(vals):
        target[i] = _merge_values(mask, v, target[i])
    if op.name == "break":
        frame.broken |= mask
    else:
        frame.continued |= mask
    ex.active = np.zeros(ex.nb, dtype=bool)


def _merge_values(mask: np.ndarray, new: Any, old: Any) -> Any:
    """frames.merge, for values that may be array references (then chosen by `select`)."""
    if isinstance(new, _REFS) or isinstance(old, _REFS):
        return new if mask.all() else (old if not mask.any() else select(mask, new, old))
    return frames.merge(mask, new, old)


def _exec_for(ex: Executor, op: Op) -> None:
    chain = fusion.fused_mmas(ex.fn, op)
    if chain is not None and fused_for.run_fused_for(ex, op, chain):
        return
    start, stop, step = (ex.get(v).reshape(-1) for v in op.operands[:3])
    carried = [ex.get(v) for v in op.operands[3:]]
    body = op.blocks[0]
    iv_arg, carried_args = body.args[0], body.args[1:]
    frame = _Frame(carried, ex.nb)
    ex.loops.append(frame)
    outer = ex.active
    try:
        i = start.astype(np.int64)
        idt = np_dtype(iv_arg.type)
        while True:
            running = np.broadcast_to(i < stop, (ex.nb,))
            live = running & ~frame.broken
            if outer is not None:
                live = live & outer
            if not live.any():
                break
            ex.active = None if (live.all() and outer is None) else live
            ex.set(iv_arg, i.astype(idt))
            for a, v in zip(carried_args, frame.carried):
                ex.set(a, v)
            frame.continued = np.zeros(ex.nb, dtype=bool)
            _run_loop_body(ex, body)
            i = i + step
    finally:
        ex.loops.pop()
        ex.active = outer
    done = ~frame.broken
    for k, r in enumerate(op.results):
        ex.set(r, _merge_values(done, frame.carried[k], frame.results[k]))


def _run_loop_body(ex: Executor, body: Block) -> None:
    for op in body.ops:
        if ex.active is not None and not ex.active.any():
            return
        ex.exec_op(op)
        ex.drop_after(op)


def _exec_loop(ex: Executor, op: Op) -> None:
    carried = [ex.get(v) for v in op.operands]
    body = op.blocks[0]
    frame = _Frame(carried, ex.nb, len(op.results))
    ex.loops.append(frame)
    outer = ex.active
    limit = ex.checks.max_loop_iterations
    try:
        for iteration in itertools.count(1):
            live = ~frame.broken if outer is None else (~frame.broken & outer)
            if not live.any():
                break
            if iteration > limit:
                raise ex.error(f"a while loop ran more than {limit} iterations")
            ex.active = None if (live.all() and outer is None) else live
            for a, v in zip(body.args, frame.carried):
                ex.set(a, v)
            frame.continued = np.zeros(ex.nb, dtype=bool)
            _run_loop_body(ex, body)
    finally:
        ex.loops.pop()
        ex.active = outer
    for k, r in enumerate(op.results):
        ex.set(r, frame.results[k])


def _exec_return(ex: Executor, op: Op) -> None:
    mask = ex.active_mask()
    ex.returned |= mask
    ex.active = np.zeros(ex.nb, dtype=bool)


class Checks:
    """Which run-time checks are on (bounds, races, poison, uninit) and the reports they produced."""

    def __init__(self, *, bounds: bool = True, races: bool = True, strict: bool = False, poison: bool = False,
                 uninit: bool = False, max_loop_iterations: int = 10_000_000):
        # max_loop_iterations: iterations one `while` loop may run (per entry, per group)
        # poison: UNDETERMINED padding becomes a tagged NaN, reported when it reaches a store
        # (off by default: on the GPU such padding reads as 0 in practice).
        self.poison = poison
        # uninit: after the launch, report elements of written arrays that no block wrote
        self.uninit = uninit
        self.strict = strict
        self.bounds = bounds
        self.races = races
        self.max_loop_iterations = max_loop_iterations
        self.reports: List[str] = []
        self._once: set = set()

    def add(self, kernel: str, loc: Optional[Loc], block: Optional[tuple], message: str, once: Any = None) -> None:
        if once is not None:
            if once in self._once:
                return
            self._once.add(once)
        where = f"{loc.filename}:{loc.line}" if loc is not None else "?"
        who = f"kernel '{kernel}'" + (f", block {tuple(block)}" if block is not None else "")
        text = f"{where}: {who}: {message}"
        if text not in self.reports:
            self.reports.append(text)
        if self.strict:
            raise ExecutionError(f"{who}: {message}", loc)


class Sink:
    """Collects printed text per block so a launch can emit it in block order."""

    def __init__(self):
        self.by_block: Dict[tuple, List[str]] = {}

    def write(self, block: tuple, text: str) -> None:
        self.by_block.setdefault(block, []).append(text)

    def flush(self, stream) -> None:
        # Linear block order, x fastest (as CUDA numbers blocks).
        for block in sorted(self.by_block, key=lambda b: tuple(reversed(b))):
            stream.write("".join(self.by_block[block]))
        self.by_block.clear()
