"""Typed IR (final) -> one C translation unit per kernel signature.

The C runs one block per call of `ts_block`; `ts_run` loops over a range of linear block ids
(x fastest), so a thread pool can split the grid. Each block keeps its tile values in a
scratch arena of its thread (offsets fixed at generation time), scalars in C locals.
Structured control flow maps to C: `for`/`loop` to C loops with their carried values in
fixed slots, `if` to if/else with result slots, `break`/`continue` to gotos, `return` to
leaving the block.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import Dict, List, Optional, Sequence, Tuple

from ...ir.core import Block, Function, Op, Value
from ...ir.primitive import PRIMITIVES
from ...ir.types import ArrayType, TileType
from ..numpy.fusion import fused_mmas
from . import (rules_atomic, rules_debug, rules_elementwise, rules_gather, rules_matmul,  # noqa: F401
               rules_memory, rules_misc, rules_reduce, rules_shape)  # noqa: F401  (they fill the table)
from .cgen import CVal, Unsupported, Writer, contiguous_strides, ctype, itemsize, loop_nest, tile_of
from .disjoint import trackable as disjoint_trackable
from .order import turn_point
from .rules import rule, rule_for
from .rules_matmul import gen_fused_for, hoist_operand
from .rules_memory import LogSite
from .runtime_math import GEMM, SOURCE as MATH
from .runtime_types import SOURCE as TYPES

_ALIGN = 64


@dataclass
class ArrayArg:
    """An array in C: a kernel argument's pointer and per-axis shape/stride locals (in
    elements), or a view of one (`Array.slice`: other pointer and extents, as C expressions)."""
    name: str
    dtype: object
    ndim: int
    param_index: int              # position of the argument (or the viewed one) in the launch's values
    unit: Tuple[bool, ...] = ()   # axes whose stride is 1 in this specialisation
    ptr_expr: Optional[str] = None
    dims: Optional[List[str]] = None

    def ptr(self) -> str:
        return self.ptr_expr or self.name

    def dim(self, k: int) -> str:
        return self.dims[k] if self.dims else f"{self.name}_n{k}"

    def stride(self, k: int) -> str:
        return "1" if self.unit and self.unit[k] else f"{self.name}_s{k}"


@dataclass
class ReportSite:
    """A place where a check may report: the op, the kind, and how to read its details."""
    op: Op
    kind: str
    info: dict = field(default_factory=dict)


@dataclass
class _Loop:
    label: str
    carried: List[CVal]               # slots the next iteration reads
    results: Optional[List[CVal]]     # slots `break` writes (None: the loop has no break)


class KernelGen:
    """Generates the C source of one kernel (see module doc)."""

    def __init__(self, fn: Function, options, layout: Tuple[Tuple[bool, ...], ...] = ()):
        self.fn = fn
        self.options = options            # CompileOptions: checks, numerics...
        self.layout = layout              # per parameter: which array axes have stride 1
        self.turn_at = turn_point(fn)     # top-level op where ordered tails begin (or None)
        self.w = Writer()
        self.vals: Dict[int, CVal] = {}
        self.arrays: Dict[int, ArrayArg] = {}
        self.arena = 0
        self.reports: List[ReportSite] = []
        self.loops: List[_Loop] = []
        self._names = 0
        self.params: List[Tuple[str, object]] = []      # (kind, info) per launch value, in order
        self.uses_blas = False
        self.prints = self.asserts = False       # (rules_debug.py)
        self.hoisted: Dict[tuple, CVal] = {}      # (value id, product type) -> converted operand
        self.guard: Optional[str] = None          # C flag under which the current load is skipped
        tracked = disjoint_trackable(fn) if options.track else None
        self.tracked_slots = {p: s for s, p in enumerate(sorted(tracked or {}))}   # array position -> slot
        self._readers = fn.body.readers()
        self._block_of = {id(op): b for b in fn.body.nested() for op in b.ops}
        self.gemm_shapes: set = set()             # (dtype, m, n, k) of the BLAS calls made
        self.log_sites: List[LogSite] = []        # options.log: the accesses ts_log records

    # ---- names, buffers, values ----------------------------------------------------

    def fresh(self, stem: str = "t") -> str:
        self._names += 1
        return f"{stem}{self._names}"

    def buffer(self, dtype, shape: Sequence[int], name: Optional[str] = None) -> CVal:
        """A new contiguous tile buffer in the block's scratch arena."""
        shape = tuple(shape)
        nbytes = max(1, prod(shape)) * itemsize(dtype)
        off = self.arena
        self.arena += (nbytes + _ALIGN - 1) // _ALIGN * _ALIGN
        name = name or self.fresh("t")
        # restrict: buffers never overlap one another (views of one share its name)
        self.w(f"{ctype(dtype)} *const restrict {name} = ({ctype(dtype)} *)(scratch + {off});")
        return CVal(dtype, shape, buf=name, strides=contiguous_strides(shape))

    def val(self, v: Value) -> CVal:
        """The value, computed into a buffer if it was lazy (see val_lazy)."""
        c = self.val_lazy(v)
        if c.lazy:
            out = self.buffer(c.dtype, c.shape, f"v{v.id}")
            loop_nest(self.w, c.shape, [out, c], lambda e: self.w(f"{e[0]} = {e[1]};"))
            self.vals[v.id] = c = out
        return c

    def val_lazy(self, v: Value) -> CVal:
        """The value as it is: possibly a lazy tile, for rules that read it element by element."""
        try:
            return self.vals[v.id]
        except KeyError:
            raise Unsupported(f"internal: value {v!r} used before its definition") from None

    def fusable(self, v: Value) -> bool:
        """Whether `v` may stay lazy: one reader, in the same block, that reads it element-wise."""
        users = self._readers.get(v.id, [])
        if len(users) != 1 or self._block_of.get(id(users[0])) is not self._block_of.get(id(v.owner)):
            return False
        user = users[0]
        if user.name in _FUSING:
            return True
        if user.name == "store_tile":
            return user.operands[-1] is v
        if user.name in ("gather", "scatter"):          # indices, values and masks: per lane
            return user.operands[0] is not v
        if user.name == "reduce":
            return len(user.operands) == 1
        if user.name == "mma":
            return user.operands[2] is not v
        return False

    def array(self, v: Value) -> ArrayArg:
        a = self.arrays.get(v.id)
        if a is None:
            owner = v.owner.name if v.owner is not None else "a parameter"
            raise Unsupported(f"arrays made by '{owner}' (array views) are not supported yet")
        return a

    def define(self, v: Value, c: CVal) -> None:
        self.vals[v.id] = c

    def scalar(self, v: Value, expr: str) -> CVal:
        """Bind a scalar result to a C local holding `expr`."""
        name = f"v{v.id}"
        self.w(f"const {ctype(v.type.dtype)} {name} = {expr};")
        c = CVal(v.type.dtype, (), expr=name)
        self.define(v, c)
        return c

    def report_site(self, op: Op, kind: str, **info) -> int:
        self.reports.append(ReportSite(op, kind, info))
        return len(self.reports) - 1

    # ---- element-wise helper ---------------------------------------------------------

    def elementwise(self, result: Value, operands: Sequence[CVal], expr, dtype=None) -> CVal:
        """result = expr(element expressions of operands), per element (scalar when 0-d); lazy
        (computed where it is read) when its one reader reads it element-wise."""
        t = result.type
        dtype = dtype or t.dtype
        if not t.shape:
            return self.scalar(result, expr([o.scalar_expr() for o in operands]))
        ops = [tile_of(o, t.shape) for o in operands]
        if self.fusable(result):
            leaves, spans = [], []
            for o in ops:
                parts = list(o.leaves) if o.lazy else [o]
                spans.append((len(leaves), len(parts), o))
                leaves.extend(parts)

            def build(e, spans=spans):
                return expr([o.build(e[s:s + n]) if o.lazy else e[s] for s, n, o in spans])
            lazy = CVal(dtype, tuple(t.shape), leaves=tuple(leaves), build=build)
            self.define(result, lazy)
            return lazy
        out = self.buffer(dtype, t.shape, f"v{result.id}")
        loop_nest(self.w, t.shape, [out] + ops, lambda e: self.w(f"{e[0]} = {expr(e[1:])};"))
        self.define(result, out)
        return out

    def copy_into(self, dst: CVal, src: CVal) -> None:
        """Element-wise copy (dst a buffer of src's shape, or a scalar variable)."""
        if not dst.shape:
            self.w(f"{dst.expr} = {src.scalar_expr()};")
            return
        s = tile_of(src, dst.shape)
        if s.buf == dst.buf and s.strides == dst.strides:
            return
        loop_nest(self.w, dst.shape, [dst, s], lambda e: self.w(f"{e[0]} = {e[1]};"))

    def slot(self, t: TileType, stem: str) -> CVal:
        """A mutable place for a loop-carried or branch-result value."""
        if not t.shape:
            name = self.fresh(stem)
            self.w(f"{ctype(t.dtype)} {name};")
            return CVal(t.dtype, (), expr=name)
        return self.buffer(t.dtype, t.shape, self.fresh(stem))

    def assign_slots(self, slots: Sequence[CVal], values: Sequence[Value]) -> None:
        """slots[k] = values[k], safe when a value is a view of some slot (through temporaries)."""
        srcs = [self.val(v) for v in values]
        slot_bufs = {s.buf for s in slots if s.buf is not None}
        staged = []
        for s, v in zip(slots, srcs):
            if v.buf is not None and v.buf in slot_bufs and not (v.buf == s.buf and v.strides == s.strides):
                tmp = self.buffer(v.dtype, v.shape) if v.shape else self._scalar_tmp(v)
                self.copy_into(tmp, v)
                v = tmp
            staged.append((s, v))
        for s, v in staged:
            self.copy_into(s, v)

    def _scalar_tmp(self, v: CVal) -> CVal:
        name = self.fresh("s")
        self.w(f"{ctype(v.dtype)} {name};")
        return CVal(v.dtype, (), expr=name)

    # ---- walking the IR --------------------------------------------------------------

    def block(self, block: Block) -> None:
        for i, op in enumerate(block.ops):
            if block is self.fn.body and i == self.turn_at:
                self.w("if (ts_wait_turn(ctx, lin)) return 0;")
                self.w("turn_ = 1;")
            self.op(op)

    def leave(self) -> None:
        """C that ends the block (passing the turn on, in ordered launches: order.py)."""
        if self.turn_at is not None:
            self.w("if (!turn_ && ts_wait_turn(ctx, lin)) return 0;")
            self.w("ts_pass_turn(ctx, lin);")
        self.w("return 0;")

    def op(self, op: Op) -> None:
        gen, reason = rule_for(op.name)
        if gen is None:
            raise Unsupported(reason)
        if self.options.log and op.name in _UNLOGGED:
            raise Unsupported(f"traces of '{op.name}' are recorded by the NumPy executor")
        gen(self, op)
        if op.name in _CONTROL:
            return
        for r in op.results:
            self._hoist_for_loops(r)

    def _hoist_for_loops(self, v: Value) -> None:
        """An mma operand defined outside the loop holding the mma is converted to the product's
        type once, here, instead of on every iteration (rules_matmul.py looks it up)."""
        here = self._block_of.get(id(v.owner))
        for user in self._readers.get(v.id, []):
            if user.name == "mma" and self._block_of.get(id(user)) is not here and \
                    any(user.operands[k] is v for k in (0, 1)):
                hoist_operand(self, user, v)

    # ---- the translation unit --------------------------------------------------------

    def generate(self) -> str:
        w = self.w
        self._bind_params()
        if self.turn_at is not None:
            w("int turn_ = 0;")
        self.block(self.fn.body)
        self.leave()
        body = w.text()
        head = self._param_reads()
        if self.log_sites:              # each block's count of its accesses per site (ts_log's `occ`)
            head += f"\n    int32_t ts_occ[{len(self.log_sites)}] = {{0}};"
        return "\n".join([
            f"#define TS_LOG_SITES {len(self.log_sites)}" if self.log_sites else "",
            TYPES, MATH, GEMM if any(op.name == "mma" for op in self.fn.walk()) else "",
            "static int64_t ts_block(const int64_t *P, int64_t b0, int64_t b1, int64_t b2, int64_t g0, "
            "int64_t g1, int64_t g2, int64_t lin, ts_ctx *ctx, char *scratch) {",
            "    (void)b0; (void)b1; (void)b2; (void)g0; (void)g1; (void)g2; (void)lin; (void)ctx;",
            head, body, "}",
            _RUN.replace("@ARENA@", str(max(self.arena, _ALIGN))),
        ])

    def owner_function(self, values: Sequence[Value]) -> str:
        """C of `ts_owners`: the given block-only scalars (disjoint.py) for blocks [start, stop),
        one row of int64s per block. Only the ops they depend on are emitted."""
        need = _closure(values)
        self._bind_params()
        self.turn_at = None
        w = self.w
        w.depth = 2
        for op in self.fn.walk():
            if id(op) in need:
                self.op(op)
        for j, v in enumerate(values):
            w(f"out[(lin - start) * {len(values)} + {j}] = (int64_t){self.val(v).scalar_expr()};")
        body = w.text()
        return "\n".join([
            '__attribute__((visibility("default"))) void ts_owners(const int64_t *P, int64_t g0, int64_t g1, '
            "int64_t g2, int64_t start, int64_t stop, int64_t *out) {",
            "    for (int64_t lin = start; lin < stop; lin++) {",
            "    int64_t b0 = lin % g0, b1 = (lin / g0) % g1, b2 = lin / (g0 * g1); (void)b0; (void)b1; (void)b2;",
            self._param_reads(), body, "    }", "}"])

    def _bind_params(self) -> None:
        for i, v in enumerate(self.fn.body.args):
            t = v.type
            if isinstance(t, ArrayType):
                ctype(t.dtype)
                unit = self.layout[i] if i < len(self.layout) else ()
                self.arrays[v.id] = ArrayArg(f"a{i}", t.dtype, t.ndim, i, tuple(unit))
                self.params.append(("array", t))
            elif isinstance(t, TileType) and not t.shape:
                self.params.append(("scalar", t))
                self.define(v, CVal(t.dtype, (), expr=f"p{i}"))
            else:
                raise Unsupported(f"parameters of type {t} are not supported yet")

    def _param_reads(self) -> str:
        lines, off = [], 0
        for i, (kind, t) in enumerate(self.params):
            if kind == "array":
                a = self.arrays[self.fn.body.args[i].id]
                lines.append(f"    {ctype(t.dtype)} *const {a.name} = ({ctype(t.dtype)} *)(intptr_t)P[{off}];")
                for k in range(t.ndim):
                    lines.append(f"    const int64_t {a.dim(k)} = P[{off + 1 + k}], "
                                 f"{a.name}_s{k} = P[{off + 1 + t.ndim + k}];")
                    lines.append(f"    (void){a.dim(k)}; (void){a.name}_s{k};")
                off += 1 + 2 * t.ndim
            else:
                c = ctype(t.dtype)
                lines.append(f"    {c} p{i}; memcpy(&p{i}, &P[{off}], sizeof(p{i}));")
                off += 1
        return "\n".join(lines)


# element-wise readers a lazy operand may be fused into
_FUSING = frozenset({"binary", "unary", "fma", "compare", "where", "astype"})


def _closure(values: Sequence[Value]) -> set:
    """ids of the ops that compute `values` (scalar, block-only: no control flow in between)."""
    need, todo = set(), [v.owner for v in values if v.owner is not None]
    while todo:
        op = todo.pop()
        if id(op) in need:
            continue
        need.add(id(op))
        todo.extend(v.owner for v in op.operands if v.owner is not None)
    return need


# Element accesses the trace log does not record (traced launches of them run on the executor)
_UNLOGGED = frozenset({"load_advanced", "store_advanced"})

_RUN = r"""
__attribute__((visibility("default"))) int64_t ts_arena_bytes(void) { return @ARENA@; }

/* Run linear blocks [start, stop) of a (g0, g1, g2) grid; returns the first block that stopped
   the launch (a failed assertion...) or -1. */
static int64_t ts_run(const int64_t *P, int64_t g0, int64_t g1, int64_t g2, int64_t start, int64_t stop,
               ts_ctx *ctx, char *scratch) {
    for (int64_t lin = start; lin < stop; lin++) {
        if (ctx->failed) return -1;
        int64_t b0 = lin % g0, b1 = (lin / g0) % g1, b2 = lin / (g0 * g1);
        if (ts_block(P, b0, b1, b2, g0, g1, g2, lin, ctx, scratch)) { ctx->failed = 1; return lin; }
    }
    return -1;
}

/* Threads share the grid: each takes `chunk` blocks at a time from *next. */
__attribute__((visibility("default"))) int64_t ts_run_shared(const int64_t *P, int64_t g0, int64_t g1, int64_t g2, int64_t total, int64_t chunk,
                      int64_t *next, ts_ctx *ctx, char *scratch) {
    int64_t f = -1;
    for (;;) {
        int64_t s = __atomic_fetch_add(next, chunk, __ATOMIC_RELAXED);
        if (s >= total) break;
        int64_t e = s + chunk < total ? s + chunk : total;
        ts_log_close();             /* (a traced launch: this range of blocks starts a chunk of the log) */
        f = ts_run(P, g0, g1, g2, s, e, ctx, scratch);
        if (f >= 0 || ctx->failed) break;
    }
    ts_log_close();                 /* (a traced launch: this thread's part of the log ends here) */
    return f;
}
"""


# ---- control flow ----------------------------------------------------------------------

def _gen_for(g: KernelGen, op: Op) -> None:
    _no_array_results(op)
    chain = fused_mmas(g.fn, op)
    if chain is not None:
        gen_fused_for(g, op, chain)
        return
    w = g.w
    start, stop, step = (g.val(v).scalar_expr() for v in op.operands[:3])
    body = op.blocks[0]
    iv, carried_args = body.args[0], body.args[1:]
    has_break = any(o.name == "break" for o in _own_ops(body))
    carried = [g.slot(a.type, "c") for a in carried_args]
    for s, v in zip(carried, op.operands[3:]):
        g.copy_into(s, g.val(v))
    results = [g.slot(r.type, "r") for r in op.results] if has_break else None
    label = g.fresh("L")
    it = g.fresh("it")
    w.open(f"for (int64_t {it} = (int64_t){start}; {it} < (int64_t){stop}; {it} += (int64_t){step})")
    w(f"const {ctype(iv.type.dtype)} v{iv.id} = ({ctype(iv.type.dtype)}){it};")
    g.define(iv, CVal(iv.type.dtype, (), expr=f"v{iv.id}"))
    _loop_body(g, body, carried_args, _Loop(label, carried, results))
    if results is not None:
        for r, c in zip(results, carried):
            g.copy_into(r, c)
        w(f"{label}_end: ;")
    for r, s in zip(op.results, results if results is not None else carried):
        g.define(r, s)


def _loop_body(g: KernelGen, body, args, loop: _Loop) -> None:
    """Bind the carried `args` to the loop's slots, emit `body` inside it, then its `_next`
    label, and close the C loop the caller opened."""
    for a, s in zip(args, loop.carried):
        g.define(a, s)
    g.loops.append(loop)
    g.block(body)
    g.loops.pop()
    g.w(f"{loop.label}_next: ;")
    g.w.close()


def _gen_loop(g: KernelGen, op: Op) -> None:
    _no_array_results(op)
    w = g.w
    body = op.blocks[0]
    carried = [g.slot(a.type, "c") for a in body.args]
    for s, v in zip(carried, op.operands):
        g.copy_into(s, g.val(v))
    results = [g.slot(r.type, "r") for r in op.results]
    label = g.fresh("L")
    count = g.fresh("n")
    limit = g.options.max_loop_iterations
    site = g.report_site(op, "loop-limit", limit=limit)
    w(f"int64_t {count} = 0;")
    w.open("for (;;)")
    w(f"if (++{count} > {limit}LL) {{ ts_report(ctx, {site}, lin, 0, 0); return 1; }}")
    _loop_body(g, body, body.args, _Loop(label, carried, results))
    w(f"{label}_end: ;")
    for r, s in zip(op.results, results):
        g.define(r, s)


def _no_array_results(op: Op) -> None:
    if any(not isinstance(v.type, TileType) for v in list(op.results) + [a for b in op.blocks for a in b.args]):
        raise Unsupported("arrays chosen at run time (results of if or loops) run on the NumPy executor")


def _own_ops(block: Block):
    """Ops of `block` and of nested ifs (not of nested loops, whose break/continue are their own)."""
    for o in block.ops:
        yield o
        if o.name == "if":
            for b in o.blocks:
                yield from _own_ops(b)


def _gen_continue(g: KernelGen, op: Op) -> None:
    loop = g.loops[-1]
    g.assign_slots(loop.carried, op.operands)
    g.w(f"goto {loop.label}_next;")


def _gen_break(g: KernelGen, op: Op) -> None:
    loop = g.loops[-1]
    g.assign_slots(loop.results, op.operands)
    g.w(f"goto {loop.label}_end;")


def _gen_return(g: KernelGen, op: Op) -> None:
    g.leave()


def _gen_if(g: KernelGen, op: Op) -> None:
    _no_array_results(op)
    w = g.w
    cond = g.val(op.operands[0]).scalar_expr()
    results = [g.slot(r.type, "r") for r in op.results]
    for k, b in enumerate(op.blocks):
        w.open(f"if ({cond})" if k == 0 else "else")
        for o in b.ops:
            if o.name == "yield":
                g.assign_slots(results, o.operands)
            else:
                g.op(o)
        w.close()
    for r, s in zip(op.results, results):
        g.define(r, s)


_CONTROL = {"for": _gen_for, "loop": _gen_loop, "if": _gen_if, "continue": _gen_continue,
            "break": _gen_break, "return": _gen_return}
for _name, _gen in _CONTROL.items():
    rule(_name)(_gen)

# Primitives whose kernels run on the NumPy executor, and why (shown by `tilescope ops`).
_EXECUTOR_ONLY = {
    "yield": "written by the rule of its enclosing for/if/loop",
    "breakpoint": "a stop in the CPU debugger: the launch runs on the NumPy executor",
    "list_item": "lists of arrays run on the NumPy executor",
    "list_len": "lists of arrays run on the NumPy executor",
    "mma_scaled": "runs on the NumPy executor (not compiled yet)",
    "pack_bytes": "runs on the NumPy executor (not compiled yet)",
    "unpack_bytes": "runs on the NumPy executor (not compiled yet)",
    "tiled_atomic": "runs on the NumPy executor (not compiled yet)",
}
for _name in ("raw_memory", "raw_load", "raw_store", "raw_atomic", "raw_atomic_cas"):
    _EXECUTOR_ONLY[_name] = "raw memory runs on the NumPy executor"
for _name, _why in _EXECUTOR_ONLY.items():
    PRIMITIVES[_name].unsupported("compiled", _why)
