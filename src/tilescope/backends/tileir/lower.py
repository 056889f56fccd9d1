"""Lower tilescope's final typed IR (`Compiled.final`) to the TileIR model in `ir.py`.

Calling convention v1: every array parameter becomes a pointer, then its shape (one
index-typed scalar per axis), then its strides in elements; run-time scalars pass as
0-d tiles; compile-time constants are not parameters. One `make_token` orders memory
operations the way upstream's weak loads/stores are ordered (see docs/tileir.md).

The rules live in one mixin per op family (lower_compute, lower_reduce, lower_control,
lower_memory, lower_views); `Lowering` holds the walk over the typed IR and the helpers
every family uses.
"""
from __future__ import annotations

import bisect
import functools
import itertools
from typing import Dict, List, Optional, Sequence

from ... import dtypes as D
from ...errors import TileUnsupportedFeatureError
from ...passes.dce import dce
from ...passes.for_break import is_done_test, lower_for_breaks
from ...passes.loop_slots import prune_loop_slots
from ...passes.loop_split import Splits, split_loops
from ...ir.core import Block, Function, Op, Value, clone_function
from ...ir.primitive import PRIMITIVES
from ...ir.types import ArrayType, ListType, TileType
from ...meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec
from .elements import float_bits, int_bytes, storage_bytes
from .ir import TOKEN, Dense, Hints, Scalar, TBlock, TFunc, Tile, TModule, TOp, TValue
from .lower_common import NARROW_FLOATS, WIDENED_OPS, ttype
from . import lower_compute, lower_control, lower_memory, lower_reduce, lower_views
from .lower_compute import ComputeRules
from .lower_control import jump_branch, ControlRules
from .lower_memory import VIEW_USERS, ArrayInfo, MemoryRules
from .lower_reduce import ReduceRules
from .lower_views import ViewRules
from .divisibility import Divisibility
from .bound_sites import place_bound
from .hoist import hoist_invariants, regroup_splits
from .symbols import leaf_specs, mangle
from .tokens import Analysis, drop_unused, prune_tokens, TokenMap


def specs_of(fn: Function) -> list:
    """Argument metadata matching a function's parameter types, for a function compiled without it
    at hand: every fact at its default (dynamic shapes and strides, non-negative strides)."""

    def of(t):
        if isinstance(t, ArrayType):
            return MetaTensor((None,) * t.ndim, t.dtype, index_dtype=t.index_dtype)
        if isinstance(t, ListType):
            return ListSpec(of(t.item))
        return ScalarSpec(t.dtype)
    out = []
    for p in fn.params:
        if p.is_constant:
            out.append(ConstantSpec(p.constant) if not isinstance(p.constant, tuple) else
                       TupleSpec([ConstantSpec(c) for c in p.constant]))
        elif len(p.values) == 1 and p.name == (p.values[0].name or p.name):
            out.append(of(p.values[0].type))
        else:
            out.append(TupleSpec([of(v.type) for v in p.values]))
    return out


class Lowering(ComputeRules, ReduceRules, ControlRules, MemoryRules, ViewRules):
    """Walks the typed IR and builds a TModule; each op goes to its primitive's `tileir` rule (the
    family mixins' `op_x` methods, registered below)."""

    def __init__(self, fn: Function, *, specs: Optional[Sequence] = None,
                 hints: Optional[Hints] = Hints((("default", ()),))):
        # upstream's code-generation rewrites, on a copy (the CPU executor runs the IR as written)
        self.hir = getattr(fn, "hir", None)
        clone = clone_function(fn)
        self.param_consts = place_bound(clone)   # made among the arrays' views (run)
        self.top_consts = lower_for_breaks(clone)    # a `for` that breaks carries a done flag
        self.splits = Splits()
        self.top_consts.update(id(c) for c in prune_loop_slots(clone))    # made at the top too
        fn = dce(split_loops(clone, self.splits))
        self.fn = fn
        self.specs = list(specs) if specs is not None else specs_of(fn)
        self.hints = hints
        self.vals: Dict[int, TValue] = {}
        self.arrays: Dict[int, ArrayInfo] = {}      # array values (and views of them) by value id
        self.lists: Dict[int, tuple] = {}           # list parameters: (partition view of the items, length)
        self.known: Dict[int, int] = {}             # integer scalar constants, by id of their TValue
        self.splats: Dict[int, object] = {}         # every constant made by const(): its element value
        self.kept: set = set()                      # ids of constants kept even when unused
        self.split_ifs: Dict[int, tuple] = {}       # `if`s written with one branch (jump_branch), by id
        self.deferred: Dict[int, list] = {}         # ops lowered inside another's rule, by its id
        self.deferred_ops: set = set()              # (ids of all of them)
        self.creations: set = set()                 # ids of reshapes/broadcasts that create a splat
        self.exponents: Dict[int, TValue] = {}      # integer exponents made at the top, by id of their pow
        self.elements: Dict[tuple, TValue] = {}     # constant elements of from_scalars made at the top
        self.block: Optional[TBlock] = None
        # the TileIR ops of split loops' IR ops (see regroup_splits), by id of the IR op
        self.split_ops = {id(o) for pre, a, b in self.splits.groups for o in pre + [a, b]} | self.splits.from_branch
        self.made_for: Dict[int, list] = {}
        self.undefs: set = set()                    # the constants standing for undefined values
        self.top_block: Optional[TBlock] = None     # the kernel's body, and the index in it where
        self.top = 0                                # constants made at the top go (top_const)
        self.top_order: list = []                   # (program-order key, op) of the constants there
        self.top_seq = itertools.count()
        self.order: Dict[int, int] = {}             # IR ops by id: their index in program order,
        self.run_starts: Dict[int, int] = {}        # and that of the first op of their expression
        self.run_start = 0
        self.loc = fn.loc
        self.analysis = Analysis(fn)
        self.tm: Optional[TokenMap] = None        # current token of each memory chain
        self.loops: list = []                      # enclosing loops, innermost last
        self.if_keys: Optional[list] = None        # token keys the enclosing `if` returns

    # -- helpers ------------------------------------------------------------------
    def unsupported(self, what: str) -> TileUnsupportedFeatureError:
        return TileUnsupportedFeatureError(f"the TileIR backend does not support {what} yet", self.loc)

    def emit(self, name: str, args, result_types, attrs=None, regions=(), hints=()) -> TOp:
        op = TOp(name, args, result_types, attrs, regions, loc=self.loc, hints=hints)
        self.block.ops.append(op)
        return op

    def emit1(self, name, args, rtype, **attrs) -> TValue:
        return self.emit(name, args, [rtype], attrs).result

    def v(self, x: Value) -> TValue:
        try:
            return self.vals[x.id]
        except KeyError:
            raise TileUnsupportedFeatureError(f"the TileIR backend cannot use a value of type {x.type} "
                                              f"here", self.loc) from None

    def const(self, value, elem: Scalar, shape=()) -> TValue:
        if elem.name in ("f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN"):
            data = float_bits(float(value), elem).to_bytes(storage_bytes(elem), "little")
        else:
            data = int_bytes(int(value), elem)
        c = self.emit1("constant", {}, Tile(tuple(shape), elem), value=Dense(elem, data, True))
        if not shape and elem.name[0] == "i":
            self.known[id(c)] = int(value)
        self.splats[id(c)] = value
        return c

    def top_const(self, value, elem: Scalar, shape=()) -> TValue:
        """A constant made at the top of the kernel (after the parameters' constants), where
        upstream materializes the integer constants its dataflow analysis finds."""
        block, body = self.block, self.top_block
        self.block = TBlock()
        c = self.const(value, elem, shape)
        made, self.block = self.block.ops, block
        # in program order among the constants materialized there: before those of the ops the
        # current op's expression made (upstream computes the op's own operands first)
        key = (self.run_start, 0, next(self.top_seq))
        at = bisect.bisect_right([k for k, _ in self.top_order], key)
        pos = body.ops.index(self.top_order[at][1]) if at < len(self.top_order) else self.top
        body.ops[pos:pos] = made
        self.top_order.insert(at, (key, made[0]))
        self.top += len(made)
        return c

    def materialized(self, op: Op, value, elem: Scalar, shape) -> TValue:
        """A constant materialized at the top for IR op `op` (in program order)."""
        c = self.const(value, elem, shape)
        self.top_order.append(((self.order[id(op)], 1, next(self.top_seq)), self.block.ops[-1]))
        return c

    def splat_like(self, value, t: Tile) -> TValue:
        return self.const(value, t.elem, t.shape)

    def to_shape(self, x: TValue, shape, fold: bool = False) -> TValue:
        """Reshape/broadcast a tile to `shape` (ranks padded on the left); with `fold`, a constant
        becomes a splat constant instead (where upstream folds it: padding values)."""
        t = x.type
        shape = tuple(shape)
        if t.shape == shape:
            return x
        if fold and id(x) in self.splats:         # a constant: one splat constant of the shape
            return self.const(self.splats[id(x)], t.elem, shape)
        if len(t.shape) != len(shape):
            pad = (1,) * (len(shape) - len(t.shape)) + t.shape
            x = self.emit1("reshape", {"source": x}, Tile(pad, t.elem))
            t = x.type
        if t.shape != shape:
            x = self.emit1("broadcast", {"source": x}, Tile(shape, t.elem))
        return x

    # -- entry ----------------------------------------------------------------------
    def run(self) -> TModule:
        fn = self.fn
        params: List[TValue] = []
        body = TBlock()
        self.block = self.top_block = body
        self.tm = TokenMap(self.emit1("make_token", {}, TOKEN))
        # arrays reached only through pointers (gather/scatter/atomics) need no tensor view
        self.viewed = {op.operands[0].id for op in fn.body.walk() if op.name in VIEW_USERS}
        self.facts = Divisibility(fn, leaf_specs(self.specs))
        arrays, array_params = [], []
        for i, p in enumerate(fn.params):
            if p.is_constant:
                continue
            for v in p.values:
                t = v.type
                if isinstance(t, ArrayType):
                    arrays.append((v, self.array_param(v, params)))
                    array_params.append(i)
                elif isinstance(t, ListType):
                    self.list_param(v, params)
                elif isinstance(t, TileType):
                    tv = TValue(ttype(t))
                    params.append(tv)
                    self.vals[v.id] = tv
                else:
                    raise TileUnsupportedFeatureError(f"the TileIR backend does not support kernel "
                                                      f"parameters of type {t} yet", fn.loc)
        # as upstream: what the signature says about the parameters first, then the arrays' views
        pieces = [self.param_facts(v, raw) for v, raw in arrays]
        pieces = [self.param_constants(v, p) for (v, _), p in zip(arrays, pieces)]
        # upstream keeps the constants of a viewed array's static extents even where the view's
        # type makes them unused (its view op reads them)
        for (v, _), (_, shape, strides) in zip(arrays, pieces):
            if v.id in self.viewed:
                self.kept.update(id(x) for x in shape + strides)
        self.find_implicit_accumulators(fn)
        self.order, self.run_starts = program_order(fn)
        self.materialize_constants(fn)
        self.defer_paddings(fn)
        self.top = len(body.ops)                 # where later constants of the kernel's top go
        # the arrays' views and the constant parameters' constants, in parameter order
        consts = list(self.param_consts)
        for (v, _), (ptr, shape, strides), i in zip(arrays, pieces, array_params):
            while consts and consts[0].origin.param < i:
                self.lower_op(consts.pop(0))
            self.make_array(v, ptr, shape, strides, self.facts.array(v))
        for op in consts:
            self.lower_op(op)
        self.lower_block(fn.body)
        if not body.ops or body.ops[-1].name != "return":
            self.loc = None                # a return the source does not spell has no location
            self.emit("return", {"operands": []}, [])
        prune_tokens(body)
        pinned = {id(t) for o in self.splits.from_branch for t in self.made_for.get(id(o), ())}
        hoist_invariants(body, pinned, self.undefs)
        regroup_splits(body, [([t for o in pre for t in self.made_for.get(id(o), ())],
                                self._loop_op(a), self._loop_op(b)) for pre, a, b in self.splits.groups])
        drop_unused(body, self.kept)
        name = mangle(fn.name, self.specs)
        decorators = [d.loc.line for d in getattr(self.hir, "decorators", ()) if getattr(d, "loc", None) is not None]
        first = min(decorators + [fn.loc.line]) if fn.loc is not None else 0
        return TModule("kernels", [TFunc(name, params, body, True, self.hints, fn.loc, fn.name, first)])

    def _loop_op(self, op: Op) -> Optional[TOp]:
        return next((t for t in self.made_for.get(id(op), ()) if t.name in ("for", "loop")), None)

    # -- blocks ---------------------------------------------------------------------
    def lower_block(self, b: Block, ops: Optional[List[Op]] = None) -> None:
        """Lower `b`'s ops (or `ops`, a leading part of them)."""
        ops = b.ops if ops is None else ops
        split = jump_branch(ops[-1], kernel_end=b is self.fn.body) if ops else None
        if ops and is_done_test(b):
            split = (0, False)
        if split is not None:
            self.split_ifs[id(ops[-1])] = split
        for op in ops:
            if id(op) not in self.deferred_ops:
                self.lower_op(op)

    def lower_op(self, op: Op) -> None:
        self.run_start = self.run_starts.get(id(op), self.run_start)
        if op.loc is not None:
            self.loc = op.loc
        prim = PRIMITIVES.get(op.name)
        rule = prim.rule("tileir") if prim is not None else None
        if rule is None:
            raise self.unsupported(f"the '{op.name}' operation")
        handler = functools.partial(rule, self)
        if id(op) in self.split_ops:
            block, start = self.block, len(self.block.ops)
            self._lower(op, handler)
            self.made_for[id(op)] = block.ops[start:]
        else:
            self._lower(op, handler)

    def _lower(self, op: Op, handler) -> None:
        if op.name in WIDENED_OPS and any(isinstance(o.type, TileType) and o.type.dtype.name in NARROW_FLOATS
                                          for o in op.operands):
            self._widened(op, handler)
        else:
            handler(op)

    def lower_deferred(self, op: Op) -> None:
        """Lower the ops deferred to `op`'s rule (see defer_paddings), then go on at `op`."""
        for o in self.deferred.get(id(op), ()):
            self.lower_op(o)
        self.loc = op.loc if op.loc is not None else self.loc

    def _widened(self, op: Op, handler) -> None:
        """TileIR's float math takes f16/bf16/f32/f64 only: compute an fp8 op in f32 (as upstream
        does) and round the result back."""
        f32 = D.float32
        shadow_operands = []
        for o in op.operands:
            if isinstance(o.type, TileType) and o.type.dtype.name in NARROW_FLOATS:
                w = Value(TileType(f32, o.type.shape))
                x = self.v(o)
                self.vals[w.id] = self.emit1("ftof", {"from": x}, Tile(x.type.shape, Scalar("f32")),
                                             rounding_mode="nearest_even")
                shadow_operands.append(w)
            else:
                shadow_operands.append(o)
        rtypes = [TileType(f32, r.type.shape) if r.type.dtype.name in NARROW_FLOATS else r.type for r in op.results]
        shadow = Op(op.name, shadow_operands, rtypes, op.attrs, op.blocks, op.loc)
        handler(shadow)
        for r, w in zip(op.results, shadow.results):
            v = self.vals[w.id]
            if r.type != w.type:
                v = self.emit1("ftof", {"from": v}, ttype(r.type), rounding_mode="nearest_even")
            self.vals[r.id] = v

    def nested(self, b: Block, args: Sequence[TValue]) -> TBlock:
        tb = TBlock(args)
        for x, a in zip(b.args, args):
            self.vals[x.id] = a
        saved = self.block
        self.block = tb
        try:
            self.lower_block(b)
        finally:
            self.block = saved
        return tb

    def bind(self, op: Op, *values: TValue) -> None:
        for r, v in zip(op.results, values):
            self.vals[r.id] = v


def program_order(fn: Function):
    """Each IR op's index in program order, and that of the first op of the run of ops with its
    source range (the ops one expression makes), by op id."""
    order = {id(op): i for i, op in enumerate(fn.body.walk())}
    starts: Dict[int, int] = {}
    blocks = [fn.body] + [b for op in fn.body.walk() for b in op.blocks]
    for b in blocks:
        prev, start = None, 0
        for op in b.ops:
            r = (op.loc.line, op.loc.col, op.loc.end_line, op.loc.end_col) if op.loc is not None else None
            if r is None or r != prev:
                start = order[id(op)]
            starts[id(op)], prev = start, r
    return order, starts


def lower_function(fn: Function, *, specs: Optional[Sequence] = None,
                   hints: Optional[Hints] = Hints((("default", ()),))) -> TModule:
    """TileIR for one kernel compiled for `specs` (its argument metadata: array facts become
    assumptions and part of the symbol); raises a located TileUnsupportedFeatureError for what
    is not lowered."""
    return Lowering(fn, specs=specs, hints=hints).run()


def _register_rules() -> None:
    """Each family's rules go into their primitives' `tileir` column (the ops must be loaded)."""
    from ...ops import load_all      # deferred: the op families load on first use
    load_all()
    for family in (lower_compute, lower_reduce, lower_control, lower_memory, lower_views):
        for name, rule in family.RULES.items():
            PRIMITIVES[name].tileir(rule)


_register_rules()
