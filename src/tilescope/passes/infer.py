"""HIR → typed IR by abstract interpretation.

The kernel's HIR is interpreted once with abstract values: compile-time Python
objects stay Python objects (constant folding, inlining, static control flow
happen for free), run-time values are IR `Value`s and every operation on them
appends typed ops through the op registry's typing rules. Dynamic `if`, `for`
and `while` become structured ops whose results are the variables they change.
"""
from __future__ import annotations

import builtins
import dataclasses
import enum
import inspect
import operator
import types
from contextlib import contextmanager
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .. import dtypes as D
from ..errors import (Loc, TileError, TileInternalError, TileRecursionError, TileStaticAssertionError,
                      TileStaticEvalError, TileSyntaxError, TileTypeError, TileUnsupportedFeatureError,
                      TileValueError, StaticException)
from ..frontend import hir as H
from ..frontend.ast2hir import assigned_names
from ..frontend.exits import RETVAL
from ..frontend.source import SourceFunction, function_hir, node_hir
from ..frontend.static_module import UnknownValue, unknown_value_error
from ..ir.core import Block, Builder, Function, Op, Param, Value
from ..ir.types import ArrayType, ListType, TileType, Type
from ..ops.registry import ATTRIBUTES, METHODS, SURFACE, SurfaceFunction
from ..pyeval import annotation_value
from ..pyeval.functions import PyFunction
from .values import UNDEFINED, Closure, flatten, make_dataclass_instance, same_leaf, unflatten

MAX_INLINE_DEPTH = 1000  # as upstream cuTile

# Python operators → the cuTile surface function that implements them on tiles.
BINARY_SURFACE = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "truediv",
                  "floordiv": "floordiv", "mod": "mod", "pow": "pow", "matmul": "matmul",
                  "lshift": "bitwise_lshift", "rshift": "bitwise_rshift", "and_": "bitwise_and",
                  "or_": "bitwise_or", "xor": "bitwise_xor"}
COMPARE_SURFACE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                   "gt": "greater", "ge": "greater_equal"}
PY_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
             "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
             "matmul": operator.matmul, "lshift": operator.lshift, "rshift": operator.rshift,
             "and_": operator.and_, "or_": operator.or_, "xor": operator.xor}


class BoundMethod:
    """`value.method` before it is called."""

    def __init__(self, target: Any, self_value: Any):
        self.target, self.self_value = target, self_value


class RangeValue:
    """`range(start, stop, step)` with abstract bounds; only iterable by `for`."""

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step


class ContextManagerCall:
    """A call of a `@contextmanager` function, entered by `with`."""

    def __init__(self, fn, args, kwargs):
        self.fn, self.args, self.kwargs = fn, args, kwargs


@dataclasses.dataclass
class LoopInfo:
    names: List[str]          # loop-carried variable names
    trees: List[Any]          # their aggregate structure
    leaf_types: List[Any]     # Type for IR leaves, or the constant for constant leaves
    exits: List[Tuple[str, Dict[str, Any], Any, Any]] = dataclasses.field(default_factory=list)
    init_locs: Dict[str, Loc] = dataclasses.field(default_factory=dict)


class Env(dict):
    """Variable bindings plus where each was last assigned (for path-dependent type errors)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.locs: Dict[str, Loc] = dict(getattr(args[0], "locs", {})) if args else {}

    def copy(self) -> "Env":
        return Env(self)


class MaybeUndefined:
    """A name assigned on only some paths of a dynamic `if`, merged at `loc`."""

    def __init__(self, loc: Optional[Loc]):
        self.loc = loc


class Conflict:
    """A name whose type differs between the paths that meet here; an error only if it is used."""

    def __init__(self, error: TileError):
        self.error = error


class Frame:
    """Variables of one (inlined) function activation."""

    def __init__(self, name: str, globals_: Dict[str, Any], closure: Optional[Callable[[str], Any]],
                 hir_fn: Optional[H.FunctionDef], parent: Optional["Frame"] = None,
                 is_entry: bool = False):
        self.name = name
        self.vars: Env = Env()
        self.globals = globals_
        self.closure = closure
        self.hir_fn = hir_fn
        self.parent = parent           # defining frame, for closures
        self.is_entry = is_entry
        self.loops: List[LoopInfo] = []
        self.loop_assigned: List[frozenset] = []   # names assigned by each enclosing loop's body
        self.loop_maybe: set = set()              # names a finished loop may or may not have assigned
        self.retval: Any = None
        self.retloc: Optional[Loc] = None   # where the returned value was made, for type errors
        self.call_site: Optional[Loc] = None


class _Exit(Exception):
    """Internal: a branch ended with break/continue/return (the terminator is already emitted)."""


class Inference:
    """Interprets HIR and builds typed IR. Op typing rules receive this object as `ctx`."""

    def __init__(self, *, bindings: Optional[list] = None, expressions: Optional[list] = None,
                 target_version: Optional[Tuple[int, int]] = None):
        self.builder: Optional[Builder] = None
        self.target_version = target_version       # tileiras version features are gated on
        # (loc, abstract value) of every evaluated expression, only when asked (the editor's hovers).
        self.expressions = expressions
        self.loc: Optional[Loc] = None
        self.depth = 0
        self.frame: Optional[Frame] = None
        # (loc, name, abstract value) for every assignment: hover / inlay hints.
        self.bindings = bindings if bindings is not None else []
        # The cuTile functions whose typing rules are running, innermost last (for argument_prefix).
        self._surface_calls: List[SurfaceFunction] = []

    # ---- services for typing rules ------------------------------------------

    def emit(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
             **attrs) -> Op:
        return self.builder.add(name, operands, result_types, attrs, loc=self.loc)

    def emit1(self, name: str, operands: Sequence[Value], result_type: Type, **attrs) -> Value:
        return self.emit(name, operands, [result_type], **attrs).result

    def error(self, cls, message: str, loc: Optional[Loc] = None) -> TileError:
        loc = loc or self.loc
        if loc is not None and self.frame is not None and self.frame.call_site is not None \
                and loc.call_site is None:
            loc = loc.with_call_site(self.frame.call_site)
        return cls(message, loc)

    def type_error(self, message: str) -> TileError:
        return self.error(TileTypeError, message)

    def value_error(self, message: str) -> TileError:
        return self.error(TileValueError, message)

    def syntax_error(self, message: str) -> TileError:
        return self.error(TileSyntaxError, message)

    def unsupported(self, message: str) -> TileError:
        return self.error(TileUnsupportedFeatureError, message)

    def constant(self, value: Any, dtype: D.DType) -> Value:
        """A strict (typed) scalar constant."""
        value = D.cast_python_scalar(value, dtype)
        v = self.emit1("const", (), TileType(dtype, ()), value=value)
        v.const = value
        return v

    def to_value(self, x: Any, dtype: Optional[D.DType] = None, what: str = "value") -> Value:
        """Materialise a loose Python scalar as a typed scalar Value."""
        if isinstance(x, Value):
            return x
        if isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum):
            dt = dtype or D.literal_dtype(x)
            if dtype is not None and isinstance(x, (int, float)) and not isinstance(x, bool):
                try:
                    D.check_literal_fits(x, dtype)
                except ValueError as e:
                    raise self.value_error(str(e)) from None
            return self.constant(x, dt)
        raise self.type_error(f"expected a tile or a number for {what}, got {describe(x)}")

    def const_value(self, x: Any) -> Any:
        """The compile-time Python value of `x`, or raise if it is only known at run time."""
        if isinstance(x, Value):
            if x.const is None:
                raise NotConstant()
            return x.const
        if isinstance(x, tuple):
            return tuple(self.const_value(i) for i in x)
        return x

    def require_constant(self, x: Any, what: str) -> Any:
        try:
            return self.const_value(x)
        except NotConstant:
            raise self.type_error(f"{what} must be a compile-time constant, got a run-time value "
                                  f"of type {x.type if isinstance(x, Value) else describe(x)}") from None

    def is_constant(self, x: Any) -> bool:
        try:
            self.const_value(x)
            return True
        except NotConstant:
            return False

    def to_bool(self, x: Any) -> Any:
        """Python truth value of a constant, or a bool scalar Value."""
        if not isinstance(x, Value):
            from ..lang.static import host_truth
            return host_truth(self, x)
        if x.const is not None:
            return bool(x.const)
        t = x.type
        if not isinstance(t, TileType):
            raise self.type_error(f"cannot use a value of type {t} as a condition")
        if t.shape:
            raise self.type_error(f"Expected a scalar value, but given value has type {t}")
        if t.dtype is D.bool_:
            return x
        return self.call_surface("not_equal", [x, 0], {})

    def call(self, fn: Any, args: Sequence[Any], kwargs: Optional[Dict[str, Any]] = None) -> Any:
        """Call any callable reachable from tile code (used by reduce/scan combiners)."""
        return self._call(fn, list(args), dict(kwargs or {}))

    def call_surface(self, name: str, args: Sequence[Any], kwargs: Dict[str, Any]) -> Any:
        return self._call_surface(SURFACE[name], list(args), dict(kwargs))

    def region(self, arg_types: Sequence[Type], body: Callable[..., Any]) -> Tuple[Block, Any]:
        """Build a nested block with typed arguments; `body(*args)` emits into it."""
        block = Block([Value(t) for t in arg_types])
        with self.builder.into(block):
            result = body(*block.args)
        return block, result

    @contextmanager
    def at(self, loc: Optional[Loc]):
        saved = self.loc
        if loc is not None:
            self.loc = loc
        try:
            yield
        finally:
            self.loc = saved

    # ---- entry point --------------------------------------------------------

    def infer_kernel(self, pyfunc, arg_specs: Sequence[Any], name: Optional[str] = None) -> Function:
        from ..lang.bridge import translate
        hir_fn = function_hir(pyfunc, is_entry=True)
        self.loc = hir_fn.loc
        body = Block()
        self.builder = Builder(body)
        frame = Frame(hir_fn.name, pyfunc.__globals__, _closure_lookup(pyfunc), hir_fn, is_entry=True)
        self.frame = frame
        params = self._bind_kernel_params(pyfunc, hir_fn, arg_specs, frame, translate)
        import sys
        saved_limit = sys.getrecursionlimit()
        # Inlining nests the interpreter ~40 Python frames per call level; leave room for
        # upstream's inlining depth (MAX_INLINE_DEPTH) before Python's own limit is hit.
        sys.setrecursionlimit(max(saved_limit, 40 * MAX_INLINE_DEPTH))
        try:
            self._exec_body(hir_fn.body)
        except _Exit:
            pass
        except RecursionError:
            raise self.error(TileRecursionError, "maximum recursion depth exceeded while compiling") from None
        finally:
            sys.setrecursionlimit(saved_limit)
        fn = Function(name or hir_fn.name, body, params, hir_fn.loc)
        fn.hir = hir_fn
        return fn

    def _bind_kernel_params(self, pyfunc, hir_fn, arg_specs, frame, translate) -> List[Param]:
        from ..meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec
        from ..lang.annotations import is_constant_annotation
        params = [p for p in hir_fn.params]
        if len(arg_specs) != len(params):
            raise self.error(TileTypeError, f"kernel '{hir_fn.name}' takes {len(params)} argument(s) "
                                            f"but {len(arg_specs)} were given", hir_fn.loc)
        hints = _annotations(pyfunc)
        out: List[Param] = []
        for p, spec in zip(params, arg_specs):
            ann = translate(hints.get(p.name))
            wants_const = is_constant_annotation(ann)
            with self.at(p.loc):
                if isinstance(spec, ConstantSpec) or not _is_spec(spec):
                    value = spec.value if isinstance(spec, ConstantSpec) else spec
                    frame.vars[p.name] = translate(value)
                    out.append(Param(p.name, [], constant=value, is_constant=True))
                    self.bindings.append((p.loc, p.name, frame.vars[p.name]))
                    continue
                if wants_const and _constant_tuple(spec) is not None:
                    value = _constant_tuple(spec)
                    frame.vars[p.name] = value
                    out.append(Param(p.name, [], constant=value, is_constant=True))
                    self.bindings.append((p.loc, p.name, value))
                    continue
                if wants_const:
                    raise self.type_error(f"parameter '{p.name}' is annotated as a compile-time constant "
                                          f"but the argument is a run-time {spec!r}")
                value, leaves = self._param_value(p.name, spec)
                frame.vars[p.name] = value
                out.append(Param(p.name, leaves))
                self.bindings.append((p.loc, p.name, value))
        self.builder.block.args.extend(v for prm in out for v in prm.values)
        return out

    def _param_value(self, name: str, spec) -> Tuple[Any, List[Value]]:
        from ..meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec
        from ..lang.bridge import translate
        if isinstance(spec, ConstantSpec) or not _is_spec(spec):
            # a compile-time item of a tuple argument (e.g. a tuple of ints): no run-time leaf
            return translate(spec.value if isinstance(spec, ConstantSpec) else spec), []
        if isinstance(spec, MetaTensor):
            v = Value(array_type_of(spec), name=name)
            return v, [v]
        if isinstance(spec, ScalarSpec):
            v = Value(TileType(spec.dtype, ()), name=name)
            return v, [v]
        if isinstance(spec, ListSpec):
            v = Value(ListType(array_type_of(spec.item)), name=name)
            return v, [v]
        if isinstance(spec, TupleSpec):
            items, leaves = [], []
            for i, s in enumerate(spec.items):
                v, ls = self._param_value(f"{name}.{i}", s)
                items.append(v)
                leaves.extend(ls)
            cls = getattr(spec, "cls", None)      # a DataclassSpec: fields in declaration order
            if cls is not None:
                names = [f.name for f in dataclasses.fields(cls)]
                return make_dataclass_instance(cls, dict(zip(names, items))), leaves
            return tuple(items), leaves
        raise self.type_error(f"unsupported argument description {spec!r} for parameter '{name}'")

    # ---- statements ---------------------------------------------------------

    def _exec_body(self, stmts: List[H.Stmt]) -> None:
        """Run statements; raises _Exit if they end with break/continue/return."""
        for s in stmts:
            self.loc = s.loc
            self._exec(s)

    def _exec(self, s: H.Stmt) -> None:
        m = getattr(self, "_stmt_" + type(s).__name__)
        m(s)

    def _stmt_Assign(self, s: H.Assign) -> None:
        value = self.eval(s.value)
        for t in s.targets:
            self.assign(t, value)

    def _stmt_ExprStmt(self, s: H.ExprStmt) -> None:
        self.eval(s.value)

    def _stmt_FunctionDef(self, s: H.FunctionDef) -> None:
        self.frame.vars[s.name] = self._make_closure(s)

    def _stmt_Raise(self, s: H.Raise) -> None:
        exc = self.eval(s.exc)
        from ..lang.static import raise_static_exception
        raise_static_exception(self, exc)

    def _stmt_Yield(self, s: H.Yield) -> None:
        raise self.syntax_error("Unsupported syntax: yield outside a @contextmanager function")

    def _stmt_Break(self, s: H.Break) -> None:
        self._loop_exit("break")

    def _stmt_Continue(self, s: H.Continue) -> None:
        self._loop_exit("continue")

    def _stmt_Return(self, s: H.Return) -> None:
        value = None if s.value is None else self.eval(s.value)
        frame = self.frame
        if frame.is_entry:
            if value is not None:
                raise self.type_error("a kernel cannot return a value")
            if self.builder.block is not self._entry_block():
                self.emit("return")
        else:
            frame.retval = value
            frame.retloc = frame.vars.locs.get(s.value.id, s.loc) if isinstance(s.value, H.Name) else s.loc
        raise _Exit("return")

    def _entry_block(self) -> Block:
        f = self.frame
        while f.parent is not None:
            f = f.parent
        return getattr(self, "_root_block", None) or self.builder.block

    def _stmt_WithEnter(self, s: H.WithEnter) -> None:
        finishers = []
        for ctx_expr, target in s.items:
            mgr = self.eval(ctx_expr)
            if not isinstance(mgr, ContextManagerCall):
                raise self.type_error(f"'with' needs a @contextlib.contextmanager function call, "
                                      f"got {describe(mgr)}")
            value, finish = self._enter_context(mgr)
            if target is not None:
                self.assign(target, value)
            finishers.append(finish)
        # A tuple in the variables: every path (branch copy) then leaves the `with` on its own.
        self.frame.vars[s.key] = tuple(finishers)

    def _stmt_WithExit(self, s: H.WithExit) -> None:
        finishers = self.frame.vars.pop(s.key, ())
        for finish in reversed(finishers):
            finish()

    def _stmt_If(self, s: H.If) -> None:
        with self.at(s.test.loc):
            cond = self.to_bool(self.eval(s.test))
        if not isinstance(cond, Value):
            self._exec_body(s.body if cond else s.orelse)
            return
        self._dynamic_if(cond, lambda: self._exec_body(s.body), lambda: self._exec_body(s.orelse), s.loc)

    def _dynamic_if(self, cond: Value, then_fn, else_fn, loc: Loc) -> None:
        frame = self.frame
        before = frame.vars
        outcomes = []
        for fn in (then_fn, else_fn):
            block = Block()
            frame.vars = before.copy()
            frame.retval = None
            frame.retloc = None
            exited = False
            with self.builder.into(block):
                try:
                    fn()
                except _Exit as e:
                    exited = e.args[0]
            outcomes.append((exited, frame.vars, (frame.retval, frame.retloc or loc), block))
        frame.vars = before
        self.loc = loc
        (ex_t, vars_t, ret_t, b_t), (ex_e, vars_e, ret_e, b_e) = outcomes
        if ex_t == "return" and ex_e == "return" and not frame.is_entry:
            # Both branches return from an inlined helper: merge their return values.
            ifop = self.emit("if", [cond], [])
            merged = self._merge_into(ifop, [b_t, b_e], [("return value", ret_t[0], ret_e[0], ret_t[1], ret_e[1])])
            frame.retval, frame.retloc = merged[0], loc
            raise _Exit("return")
        if ex_t and ex_e:
            self.emit("if", [cond], []).blocks.extend([b_t, b_e])
            raise _Exit(ex_t)
        if ex_t or ex_e:
            # exits.py guarantees both branches exit or neither does.
            raise self.error(TileInternalError, "control flow: one branch of 'if' exits and the other does not")
        names = sorted(n for n in set(vars_t) | set(vars_e)
                       if not _same_binding(vars_t.get(n, UNDEFINED), vars_e.get(n, UNDEFINED)))
        for n in set(vars_t) & set(vars_e):
            # The same binding on both paths (e.g. one constant) needs no merge, but it
            # may be new here: keep it after the `if`.
            if n not in names and n not in frame.vars and vars_t[n] is not UNDEFINED:
                frame.vars[n] = vars_t[n]
                frame.vars.locs[n] = vars_t.locs.get(n, loc)
        merged_names = []
        for n in names:
            a, b = vars_t.get(n, UNDEFINED), vars_e.get(n, UNDEFINED)
            if isinstance(a, Conflict) or isinstance(b, Conflict):
                frame.vars[n] = a if isinstance(a, Conflict) else b
            elif a is UNDEFINED or b is UNDEFINED or isinstance(a, MaybeUndefined) or isinstance(b, MaybeUndefined):
                frame.vars[n] = MaybeUndefined(loc)
            else:
                try:   # a type that differs between the branches is an error only where it is used
                    self._check_mergeable(n, [(a, vars_t.locs.get(n, loc)), (b, vars_e.locs.get(n, loc))])
                except TileTypeError as err:
                    frame.vars[n] = Conflict(err)
                    continue
                merged_names.append(n)
        items = [(n, vars_t[n], vars_e[n], vars_t.locs.get(n, loc), vars_e.locs.get(n, loc))
                 for n in merged_names]
        ifop = self.emit("if", [cond], [])
        results = self._merge_into(ifop, [b_t, b_e], items)
        for n, v in zip(merged_names, results):
            frame.vars[n] = v
            frame.vars.locs[n] = loc
            self._name_values(v, n)

    def _check_mergeable(self, name: str, versions) -> None:
        """Raise the path-dependent type error `_merge_into` would raise for these (value, loc) versions."""
        (first, loc0) = versions[0]
        l0, t0 = flatten(first)
        for other, loc1 in versions[1:]:
            l1, t1 = flatten(other)
            if t1 != t0:
                raise self.error(TileTypeError, f"Type of {_subject(name)} depends on path taken: "
                                                f"{describe(other)} (line {loc1.line}) vs. {describe(first)} "
                                                f"(line {loc0.line})", loc1)
            for x, y in zip(l0, l1):
                if not same_leaf(x, y):
                    self._unify_leaf(name, x, y, loc0, loc1)

    def _merge_into(self, ifop: Op, blocks: List[Block], items) -> List[Any]:
        """Make `ifop` yield each (name, then value, else value) pair; returns the merged values."""
        yields: List[List[Value]] = [[], []]
        types_: List[Type] = []
        plans = []
        for name, a, b, loc_a, loc_b in items:
            (la, ta), (lb, tb) = flatten(a), flatten(b)
            if ta != tb:
                raise self.error(TileTypeError, f"Type of {_subject(name)} depends on path taken: {describe(b)} "
                                                f"(line {loc_b.line}) vs. {describe(a)} (line {loc_a.line})", loc_b)
            slots = []
            for x, y in zip(la, lb):
                if same_leaf(x, y):
                    slots.append(("same", x))
                    continue
                ty = self._unify_leaf(name, x, y, loc_a, loc_b)
                with self.builder.into(blocks[0]):
                    yields[0].append(self._coerce_leaf(x, ty))
                with self.builder.into(blocks[1]):
                    yields[1].append(self._coerce_leaf(y, ty))
                slots.append(("result", len(types_)))
                types_.append(ty)
            plans.append((ta, slots))
        for block, vals in zip(blocks, yields):
            with self.builder.into(block):
                self.emit("yield", vals)
        ifop.blocks.extend(blocks)
        ifop.results = [Value(t, owner=ifop) for t in types_]
        out = []
        for tree, slots in plans:
            leaves = [v if kind == "same" else ifop.results[v] for kind, v in slots]
            out.append(unflatten(tree, leaves))
        return out

    def _unify_leaf(self, name: str, a: Any, b: Any, loc_a: Loc, loc_b: Loc) -> Type:
        """The common type of one leaf that differs between two paths (loose numbers adapt)."""
        ta, tb = _leaf_type(a), _leaf_type(b)
        if ta is None and tb is None and _is_number(a) and _is_number(b):
            da, db = D.literal_dtype(a), D.literal_dtype(b)
            if da is db:
                return TileType(da, ())
            ta, tb = TileType(da, ()), TileType(db, ())
        elif ta is None and _is_number(a) and isinstance(tb, TileType) and tb.shape == ():
            return tb
        elif tb is None and _is_number(b) and isinstance(ta, TileType) and ta.shape == ():
            return ta
        if ta is not None and ta == tb:
            return ta
        raise self.error(TileTypeError, f"Type of {_subject(name)} depends on path taken: {_short(b)} (line {loc_b.line}) "
                                        f"vs. {_short(a)} (line {loc_a.line})", loc_b)

    def _coerce_leaf(self, x: Any, ty: Type) -> Value:
        if isinstance(x, Value):
            return x
        return self.to_value(x, ty.dtype)

    # ---- loops --------------------------------------------------------------

    def _loop_exit(self, kind: str) -> None:
        loop = self.frame.loops[-1]
        values = []
        env = self.frame.vars
        for n, tree, types_ in zip(loop.names, loop.trees, loop.leaf_types):
            v = env.get(n, UNDEFINED)
            if isinstance(v, Conflict):
                raise v.error
            leaves, t = flatten(v)
            here = env.locs.get(n, self.loc)
            init_loc = loop.init_locs.get(n, here)
            if t != tree:
                raise self.error(TileTypeError, f"Type of `{n}` depends on path taken: {describe(v)} "
                                                f"(line {here.line}) vs. the value before the loop "
                                                f"(line {init_loc.line})", here)
            for leaf, ty in zip(leaves, types_):
                if isinstance(ty, Type):
                    if leaf is UNDEFINED or isinstance(leaf, MaybeUndefined):
                        raise self.type_error(f"Use of potentially undefined variable `{n}`")
                    lt = _leaf_type(leaf)
                    if lt is None and _is_number(leaf) and isinstance(ty, TileType) and ty.shape == ():
                        leaf = self._coerce_leaf(leaf, ty)
                    elif lt != ty:
                        raise self.error(TileTypeError, f"Type of `{n}` depends on path taken: {_short(leaf)} "
                                                        f"(line {here.line}) vs. {ty} (line {init_loc.line})", here)
                    values.append(leaf)
                elif ty is not _ANY and not same_leaf(leaf, ty):
                    raise self.error(TileTypeError, f"Type of `{n}` depends on path taken: {_short(leaf)} "
                                                    f"(line {here.line}) vs. {_short(ty)} (line {init_loc.line})", here)
        op = self.emit(kind, values)
        loop.exits.append((kind, env.copy(), op, self.builder.block))
        raise _Exit(kind)

    def _carried(self, body: List[H.Stmt], exclude=()) -> List[str]:
        names = assigned_names(body) - set(exclude)
        return sorted(n for n in names if n in self.frame.vars)

    def _loop_setup(self, names: List[str], speculate: Callable[[LoopInfo], List[Any]]):
        """Materialise carried variables; returns (LoopInfo, init leaves, block arg types)."""
        trees, leaf_types, inits = [], [], []
        for n in names:
            leaves, tree = flatten(self.frame.vars[n])
            trees.append(tree)
            types_ = []
            for leaf in leaves:
                if isinstance(leaf, Value):
                    types_.append(leaf.type)
                    inits.append(leaf)
                elif _is_number(leaf):
                    ty = TileType(D.literal_dtype(leaf), ())
                    types_.append(ty)
                    inits.append(self.to_value(leaf, ty.dtype))
                else:
                    types_.append(leaf)     # compile-time leaf: must stay the same
            leaf_types.append(types_)
        locs = self.frame.vars.locs
        info = LoopInfo(names, trees, leaf_types, init_locs={n: locs[n] for n in names if n in locs})
        if any(t is None or t is UNDEFINED for ts in leaf_types for t in ts):
            info, inits = self._refine_none_leaves(info, speculate)
        return info, inits

    def _refine_none_leaves(self, info: LoopInfo, speculate):
        """Carried leaves that start as None take the type they get inside the loop."""
        found = speculate(info)
        inits = []
        new_types = []
        for n, types_, tree in zip(info.names, info.leaf_types, info.trees):
            leaves, _ = flatten(self.frame.vars[n])
            row = []
            for leaf, ty in zip(leaves, types_):
                if ty is None or ty is UNDEFINED:
                    ty = found.get(n)
                    if ty is None:
                        row.append(leaf)
                        continue
                    row.append(ty)
                    inits.append(self.emit1("undef", [], ty))
                elif isinstance(ty, Type):
                    row.append(ty)
                    inits.append(leaf if isinstance(leaf, Value) else self.to_value(leaf, ty.dtype))
                else:
                    row.append(ty)
            new_types.append(row)
        return LoopInfo(info.names, info.trees, new_types, init_locs=info.init_locs), inits

    def _speculate_body(self, run_body: Callable[[LoopInfo], None]) -> Callable[[LoopInfo], Dict[str, Type]]:
        def speculate(info: LoopInfo) -> Dict[str, Type]:
            saved_vars, saved_bindings = self.frame.vars.copy(), len(self.bindings)
            probe = LoopInfo(info.names, info.trees, [[_ANY if (t is None or t is UNDEFINED) else t for t in ts]
                                                        for ts in info.leaf_types], init_locs=info.init_locs)
            found: Dict[str, Type] = {}
            with self.builder.into(Block()):
                self.frame.loops.append(probe)
                try:
                    run_body(probe)
                except _Exit:
                    pass
                except TileError:
                    pass
                finally:
                    self.frame.loops.pop()
            for _, env, _, _ in probe.exits:
                for n in info.names:
                    v = env.get(n)
                    if isinstance(v, Value):
                        found.setdefault(n, v.type)
            self.frame.vars = saved_vars
            del self.bindings[saved_bindings:]
            return found
        return speculate

    def _run_loop(self, opname: str, operands: List[Value], names: List[str], iv_types: List[Type],
                  body_fn: Callable[[List[Value]], None], loc: Loc) -> None:
        """Emit a structured loop op carrying `names`; `body_fn(induction values)` runs the body."""
        def probe_body(info):
            ivs = [Value(t) for t in iv_types]
            self._bind_carried(info, None)
            body_fn(ivs)

        info, inits = self._loop_setup(names, self._speculate_body(probe_body))
        flat_types = [t for ts in info.leaf_types for t in ts if isinstance(t, Type)]
        block = Block([Value(t) for t in iv_types] + [Value(t) for t in flat_types])
        ivs = block.args[:len(iv_types)]
        op = self.emit(opname, list(operands) + inits, flat_types)
        outer_vars = self.frame.vars.copy()
        self.frame.loops.append(info)
        with self.builder.into(block):
            self._bind_carried(info, block.args[len(iv_types):])
            try:
                body_fn(ivs)
            except _Exit as e:
                if e.args[0] == "return" and not self.frame.is_entry:
                    raise self.error(TileInternalError, "return inside a loop was not lowered")
            else:
                if not self.builder.terminated:
                    self._loop_exit_quiet("continue")
        self.frame.loops.pop()
        op.blocks.append(block)
        self.frame.vars = outer_vars
        self.loc = loc
        self._bind_carried(info, op.results)
        if opname == "loop":
            self._bind_break_values(op, info)

    def _bind_break_values(self, op: Op, info: LoopInfo) -> None:
        """A `loop` is left only through `break`: what every break agrees on is known after it.

        A carried leaf with the same constant at every break stays that constant, and names first
        assigned inside the loop but bound at every break become extra results of the loop.
        """
        breaks = [(env, brk, blk) for kind, env, brk, blk in info.exits if kind == "break"]
        if not breaks:
            return
        frame = self.frame
        for n in info.names:
            versions = [flatten(env.get(n, UNDEFINED)) for env, _, _ in breaks]
            if len({repr(t) for _, t in versions}) != 1:
                continue
            current, tree = flatten(frame.vars[n])
            leaves = list(current)
            for i in range(len(leaves)):
                firsts = [v[0][i] for v in versions]
                if not isinstance(firsts[0], Value) and all(same_leaf(firsts[0], x) for x in firsts[1:]):
                    leaves[i] = firsts[0]
            frame.vars[n] = unflatten(tree, leaves)
        common = set.intersection(*(set(env) for env, _, _ in breaks)) - set(info.names) - set(frame.vars)
        for n in sorted(common):
            values = [env[n] for env, _, _ in breaks]
            if any(v is UNDEFINED or isinstance(v, (MaybeUndefined, Conflict)) for v in values):
                continue
            locs = [env.locs.get(n, self.loc) for env, _, _ in breaks]
            try:
                self._check_mergeable(n, list(zip(values, locs)))
            except TileTypeError as err:
                frame.vars[n] = Conflict(err)
                continue
            frame.vars[n] = self._merge_break_values(op, breaks, n, values, locs)
            frame.vars.locs[n] = self.loc

    def _merge_break_values(self, op: Op, breaks, name: str, values, locs) -> Any:
        """Extra loop results for `name`, fed by every break; constants that agree need none."""
        flat = [flatten(v) for v in values]
        tree = flat[0][1]
        out = []
        for i in range(len(flat[0][0])):
            leaves = [f[0][i] for f in flat]
            # Agreeing constants need no result; values made inside the loop always do.
            if not isinstance(leaves[0], Value) and all(same_leaf(leaves[0], x) for x in leaves[1:]):
                out.append(leaves[0])
                continue
            ty = leaves[0].type if isinstance(leaves[0], Value) else None
            for x, l in zip(leaves, locs):
                if isinstance(x, Value):
                    ty = x.type
            if ty is None:
                ty = self._unify_leaf(name, leaves[0], leaves[1], locs[0], locs[1])
            for (env, brk, blk), leaf in zip(breaks, leaves):
                staging = Block()
                with self.builder.into(staging):
                    v = self._coerce_leaf(leaf, ty)
                at = blk.ops.index(brk)
                blk.ops[at:at] = staging.ops
                brk.operands.append(v)
            result = Value(ty, name=name, owner=op)
            op.results.append(result)
            out.append(result)
        return unflatten(tree, out)

    def _loop_exit_quiet(self, kind: str) -> None:
        try:
            self._loop_exit(kind)
        except _Exit:
            pass

    def _bind_carried(self, info: LoopInfo, values: Optional[List[Value]]) -> None:
        it = iter(values or [])
        for n, tree, types_ in zip(info.names, info.trees, info.leaf_types):
            leaves = []
            for ty in types_:
                if isinstance(ty, Type):
                    leaves.append(next(it) if values is not None else Value(ty, name=n))
                elif ty is _ANY:
                    leaves.append(None)
                else:
                    leaves.append(ty)
            v = unflatten(tree, leaves)
            self.frame.vars[n] = v
            self._name_values(v, n)

    def _stmt_For(self, s: H.For) -> None:
        frame = self.frame
        frame.loop_assigned.append(frozenset(assigned_names(s.body)))
        try:
            self._for(s)
        finally:
            frame.loop_maybe |= frame.loop_assigned.pop()

    def _for(self, s: H.For) -> None:
        if s.static:
            return self._static_for(s)
        it = self.eval(s.iter)
        if not isinstance(it, RangeValue):
            hint = "; use ct.static_iter() to unroll a loop over a tuple" if isinstance(it, tuple) else ""
            raise self.error(TileTypeError, f"a 'for' loop needs a range object, but the iterable is "
                                            f"{describe(it)}{hint}", s.iter.loc)
        bounds = [it.start, it.stop, it.step]
        idt = D.int32
        for b in bounds:
            if isinstance(b, Value):
                if not (isinstance(b.type, TileType) and b.type.shape == () and D.is_integral(b.type.dtype)):
                    raise self.type_error(f"range() bounds must be integer scalars, got {b.type}")
                if b.type.dtype.bitwidth > 32:
                    idt = D.int64
        step = it.step
        if not isinstance(step, Value) and step <= 0:
            raise self.value_error("range() step must be positive in a cuTile 'for' loop")
        operands = [self.to_value(b, idt) if not isinstance(b, Value) else self._as_index(b, idt) for b in bounds]
        target_names = assigned_names([H.Assign([s.target], H.Const(None, s.loc), s.loc)])
        # The loop variable keeps its last value after the loop when it was bound before it.
        names = sorted(set(self._carried(s.body, exclude=target_names)) |
                       {n for n in target_names if n in self.frame.vars})

        def body(ivs):
            self.assign(s.target, ivs[0])
            self._exec_body(s.body)

        self._run_loop("for", operands, names, [TileType(idt, ())], body, s.loc)

    def _as_index(self, v: Value, idt: D.DType) -> Value:
        return v if v.type.dtype is idt else self.call_surface("astype", [v, idt], {})

    def _stmt_While(self, s: H.While) -> None:
        frame = self.frame
        frame.loop_assigned.append(frozenset(assigned_names(s.body)))
        try:
            self._while(s)
        finally:
            frame.loop_maybe |= frame.loop_assigned.pop()

    def _while(self, s: H.While) -> None:
        names = self._carried(s.body + [H.ExprStmt(s.test, s.loc)])

        def body(_ivs):
            with self.at(s.test.loc):
                cond = self.to_bool(self.eval(s.test))
            if not isinstance(cond, Value):
                if cond:
                    self._exec_body(s.body)
                else:
                    self._loop_exit("break")
                return
            self._dynamic_if(cond, lambda: self._exec_body(s.body), lambda: self._loop_exit("break"), s.loc)

        self._run_loop("loop", [], names, [], body, s.loc)

    def _static_for(self, s: H.For) -> None:
        from ..lang.static import static_iter_items
        items = static_iter_items(self, s.iter)
        # the front end ends every loop body with an explicit `continue`; unrolled, it is a no-op
        body = s.body[:-1] if s.body and isinstance(s.body[-1], H.Continue) else s.body
        for item in items:
            self.assign(s.target, item)
            self._exec_body(body)

    # ---- assignment ---------------------------------------------------------

    def assign(self, target: H.Expr, value: Any) -> None:
        if isinstance(target, H.Name):
            self.frame.vars[target.id] = value
            self.frame.vars.locs[target.id] = target.loc
            self._name_values(value, target.id)
            self.bindings.append((target.loc, target.id, value))
            return
        if isinstance(target, H.TupleExpr):
            items = self._unpack(value, target)
            for t, v in zip(target.elts, items):
                self.assign(t, v)
            return
        if isinstance(target, H.Subscript):
            obj = self.eval(target.value)
            setter = _dataclass_dunder(obj, "__setitem__")
            if setter is not None:
                self._call(setter, [obj, self.eval(target.index), value], {})
                return
            raise self.error(TileTypeError, _item_assignment_error(obj), target.loc)
        if isinstance(target, H.Attribute):
            raise self.error(TileTypeError, "attribute assignment is not supported in tile code", target.loc)
        raise self.error(TileSyntaxError, "Unsupported syntax", target.loc)

    def _unpack(self, value: Any, target: H.TupleExpr) -> List[Any]:
        if isinstance(value, Value) or not isinstance(value, tuple):
            raise self.error(TileTypeError, f"cannot unpack {describe(value)}", target.loc)
        n = len(target.elts)
        if len(value) != n:
            few_many = "few" if len(value) < n else "many"
            raise self.error(TileValueError, f"Too {few_many} values to unpack (expected {n}, got {len(value)})",
                             target.loc)
        return list(value)

    def _name_values(self, value: Any, name: str) -> None:
        if isinstance(value, Value) and value.name is None:
            value.name = name

    # ---- expressions --------------------------------------------------------

    def eval(self, e: H.Expr) -> Any:
        saved = self.loc
        self.loc = e.loc
        try:
            result = getattr(self, "_expr_" + type(e).__name__)(e)
            if self.expressions is not None:
                self.expressions.append((e.loc, result))
            return result
        finally:
            self.loc = saved

    def _expr_Const(self, e: H.Const) -> Any:
        return self._check_int_range(e.value)

    def _check_int_range(self, v: Any) -> Any:
        """Integer constants must fit some cuTile integer dtype (int64 or uint64), wherever they appear."""
        if isinstance(v, int) and not isinstance(v, bool) and not -(1 << 63) <= v < (1 << 64):
            raise self.value_error(f"Integer constant {v} is out of range of any supported integer type")
        return v

    def _expr_Name(self, e: H.Name) -> Any:
        return self.lookup(e.id)

    def lookup(self, name: str) -> Any:
        from ..lang.bridge import translate
        f = self.frame
        while f is not None:
            if name in f.vars:
                v = f.vars[name]
                if isinstance(v, MaybeUndefined):
                    raise self.error(TileTypeError, f"Use of potentially undefined variable `{name}`", v.loc)
                if isinstance(v, Conflict):
                    raise v.error
                if v is UNDEFINED:
                    raise self.error(TileTypeError, f"Use of potentially undefined variable `{name}`")
                if type(v) is UnknownValue:   # a default known only by running the module
                    raise unknown_value_error(self, name, v)
                return v
            if f.hir_fn is not None and name in f.hir_fn.local_names and f.parent is None \
                    and f is self.frame:
                if name in f.loop_maybe or any(name in names for names in f.loop_assigned):
                    raise self.error(TileTypeError, f"Use of potentially undefined variable `{name}`")
                raise self.error(TileSyntaxError, f"Undefined variable {name} used")
            if f.closure is not None:
                found, v = f.closure(name)
                if found:
                    return self._host_object(translate(v))
            if f.parent is None:
                if name in f.globals:
                    v = f.globals[name]
                    if type(v) is UnknownValue:   # editor: a global not evaluated statically
                        raise unknown_value_error(self, name, v)
                    return self._host_object(translate(v))
                if hasattr(builtins, name):
                    return getattr(builtins, name)
                break
            f = f.parent
        raise self.error(TileSyntaxError, f"Undefined variable {name} used")

    def _host_object(self, v: Any) -> Any:
        """A NumPy scalar captured from Python is a typed constant of its dtype (`np.int16(4)`);
        a captured array (a global tensor) is not a constant: arrays are passed as arguments."""
        cls = type(v)
        if (cls.__module__, cls.__qualname__) in (("torch", "Tensor"), ("numpy", "ndarray")):
            raise self.type_error(f"Cannot create constant from value of type {cls.__module__}.{cls.__qualname__}. "
                                  f"Pass the array to the kernel as an argument instead.")
        if type(v).__module__ == "numpy" and hasattr(v, "dtype") and getattr(v, "shape", None) == ():
            try:
                dt = D.as_dtype(v.dtype)
            except (TypeError, ValueError):
                return v
            return self.constant(v.item(), dt)
        return v

    def _expr_Attribute(self, e: H.Attribute) -> Any:
        obj = self.eval(e.value)
        return self.getattr(obj, e.attr)

    def getattr(self, obj: Any, attr: str) -> Any:
        from ..lang.bridge import translate
        if isinstance(obj, Value):
            ty = type(obj.type)
            getter = ATTRIBUTES.get((ty, attr))
            if getter is not None:
                return getter(self, obj)
            target = METHODS.get((ty, attr))
            if target is not None:
                return BoundMethod(target, obj)
            raise self.type_error(f"{str(obj.type)} has no attribute '{attr}'")
        if isinstance(obj, RangeValue) and attr in ("start", "stop", "step"):
            return getattr(obj, attr)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            if attr in {f.name for f in dataclasses.fields(obj)}:
                return object.__getattribute__(obj, attr)
            member = _class_member(type(obj), attr)
            if isinstance(member, (types.FunctionType, SourceFunction, property)):
                if isinstance(member, property):
                    return self._call(member.fget, [obj], {})
                return BoundMethod(member, obj)
        if _is_number(obj):
            # A loose number has the methods and attributes of a 0-d tile (`8.astype(...)`).
            getter = ATTRIBUTES.get((TileType, attr))
            if getter is not None:
                return getter(self, self.to_value(obj))
            target = METHODS.get((TileType, attr))
            if target is not None:
                return BoundMethod(target, obj)
        if isinstance(obj, D.DType):
            if attr in ("bitwidth", "name"):
                return getattr(obj, attr)
        from ..lang.static import host_getattr
        try:
            value = host_getattr(self, obj, attr)
        except AttributeError:
            raise self.type_error(f"{describe(obj)} has no attribute '{attr}'") from None
        except TileError:
            raise
        except Exception as ex:  # a property of a user object failed
            raise self.error(TileStaticEvalError, f"reading attribute '{attr}' raised "
                                                  f"{type(ex).__name__}: {ex}") from None
        return translate(value)

    def _expr_Subscript(self, e: H.Subscript) -> Any:
        obj = self.eval(e.value)
        index = self.eval(e.index)
        return self.getitem(obj, index)

    def getitem(self, obj: Any, index: Any) -> Any:
        from ..lang.bridge import translate
        dunder = _dataclass_dunder(obj, "__getitem__")
        if dunder is not None:
            return self._call(dunder, [obj, index], {})
        if isinstance(obj, Value):
            getter = METHODS.get((type(obj.type), "__getitem__"))
            if getter is None:
                if isinstance(obj.type, ArrayType):
                    raise self.type_error(f"Arrays are not directly subscriptable; use load() on "
                                          f"{obj.type}")
                raise self.type_error(f"{str(obj.type)} does not support indexing")
            return self._call(getter, [obj, index], {})
        if isinstance(obj, tuple):
            if isinstance(index, Value):
                if isinstance(index.type, TileType) and index.type.shape == () \
                        and D.is_integral(index.type.dtype):
                    raise self.type_error("Tuple indices must be constant, but the index is a run-time value")
                raise self.type_error(f"Tuple indices must be integers or slices, not {describe(index)}")
            if isinstance(index, slice) or isinstance(index, int):
                try:
                    return obj[index]
                except IndexError:
                    raise self.type_error(f"Index {index} is out of range for a tuple of length {len(obj)}") from None
            raise self.type_error(f"Tuple indices must be integers or slices, not {describe(index)}")
        try:
            return translate(obj[index])
        except KeyError:
            if isinstance(obj, dict):
                raise self.type_error(f"Key {index!r} not found in dictionary") from None
            raise self.type_error(f"cannot index {describe(obj)} with {describe(index)}") from None
        except Exception as ex:
            raise self.type_error(f"cannot index {describe(obj)} with {describe(index)}") from None

    def _expr_SliceExpr(self, e: H.SliceExpr) -> Any:
        parts = [None if p is None else self.require_constant(self.eval(p), "a slice bound")
                 for p in (e.lower, e.upper, e.step)]
        return slice(*parts)

    def _expr_TupleExpr(self, e: H.TupleExpr) -> Any:
        out = []
        for x in e.elts:
            if isinstance(x, H.Starred):
                v = self.eval(x.value)
                if not isinstance(v, tuple):
                    raise self.error(TileTypeError, f"Expected a tuple after *, got {describe(v)}", x.loc)
                out.extend(v)
            else:
                out.append(self.eval(x))
        return tuple(out)

    def _expr_Starred(self, e: H.Starred) -> Any:
        raise self.syntax_error("Unsupported syntax: starred expression here")

    def _expr_JoinedStr(self, e: H.JoinedStr) -> Any:
        from ..lang.static import format_fstring
        return format_fstring(self, e)

    def _expr_Lambda(self, e: H.Lambda) -> Any:
        return self._make_closure(e.func)

    def _expr_GeneratorExp(self, e: H.GeneratorExp) -> Any:
        from ..lang.static import tuple_comprehension
        return tuple_comprehension(self, e)

    def _expr_BinOp(self, e: H.BinOp) -> Any:
        left = self.eval(e.left)
        right = self.eval(e.right)
        return self.binary(e.op, left, right)

    def binary(self, op: str, left: Any, right: Any) -> Any:
        if isinstance(left, Value) or isinstance(right, Value):
            if isinstance(left, tuple) or isinstance(right, tuple):
                raise self.type_error(f"unsupported operand types for {op}: {describe(left)} and {describe(right)}")
            return self.call_surface(BINARY_SURFACE[op], [left, right], {})
        if isinstance(left, tuple) and isinstance(right, tuple) and op == "add":
            return left + right
        # An IntEnum member is an int in arithmetic (tuple repetition is not cuTile).
        left = int(left) if isinstance(left, enum.IntEnum) else left
        right = int(right) if isinstance(right, enum.IntEnum) else right
        if _is_number(left) and _is_number(right):
            return self._fold_python(op, left, right)
        if op == "or_" and _is_type_like(left) and _is_type_like(right):
            return left | right
        raise self.type_error(f"unsupported operand types for {op}: {describe(left)} and {describe(right)}")

    def _fold_python(self, op: str, left, right):
        if op in ("pow", "lshift") and isinstance(left, int) and isinstance(right, int) and right > 256 \
                and abs(left) > 1:
            raise self.value_error(f"Integer constant {left} {'**' if op == 'pow' else '<<'} {right} is out of "
                                   f"range of any supported integer type")
        try:
            return self._check_int_range(PY_BINARY[op](left, right))
        except ZeroDivisionError:
            raise self.value_error("division by zero in a compile-time constant expression") from None
        except (OverflowError, ValueError, TypeError) as ex:
            raise self.value_error(f"cannot evaluate constant expression: {ex}") from None

    def _expr_UnaryOp(self, e: H.UnaryOp) -> Any:
        v = self.eval(e.operand)
        return self.unary(e.op, v)

    def unary(self, op: str, v: Any) -> Any:
        if (isinstance(v, Value) and isinstance(v.type, TileType)) or (op == "invert" and isinstance(v, bool)):
            from ..ops import math as tile_math    # element-wise rules, as upstream's operator overloads
            rule = {"not_": tile_math.logical_not, "pos": tile_math.unary_plus,
                    "invert": tile_math.invert}.get(op)
            return rule(self, v) if rule else self.call_surface("negative", [v], {})
        if op == "not_":
            b = self.to_bool(v)
            if isinstance(b, Value):
                return self.call_surface("equal", [b, False], {})
            return not b
        if isinstance(v, Value):
            if op == "pos":
                return v
            return self.call_surface({"neg": "negative", "invert": "bitwise_not"}[op], [v], {})
        if _is_number(v):
            return {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert}[op](v)
        raise self.type_error(f"bad operand type for unary {op}: {describe(v)}")

    def _expr_Compare(self, e: H.Compare) -> Any:
        left = self.eval(e.left)
        right = self.eval(e.right)
        return self.compare(e.op, left, right)

    def compare(self, op: str, left: Any, right: Any) -> Any:
        if op in ("in_", "not_in"):
            from ..lang.static import contains
            r = contains(self, left, right)
            return self.unary("not_", r) if op == "not_in" else r
        if op in ("is_", "is_not"):
            if isinstance(left, Value) or isinstance(right, Value):
                if left is not None and right is not None:
                    word = "is" if op == "is_" else "is not"
                    raise self.type_error(f"Operator '{word}' expects one of the operands to be None")
                same = left is right
            else:
                same = left is right or (left is None and right is None)
            return same if op == "is_" else not same
        if isinstance(left, tuple) or isinstance(right, tuple):
            from ..lang.static import compare_tuples
            return compare_tuples(self, op, left, right)
        if isinstance(left, Value) or isinstance(right, Value):
            return self.call_surface(COMPARE_SURFACE[op], [left, right], {})
        from ..lang.static import host_compare
        try:
            return host_compare(self, op, left, right)
        except TypeError:
            raise self.type_error(f"cannot compare {describe(left)} and {describe(right)}") from None

    def _expr_BoolOp(self, e: H.BoolOp) -> Any:
        # Python short-circuit semantics on constants; dynamic operands become `if` ops.
        result = self.eval(e.values[0])
        for nxt in e.values[1:]:
            b = self.to_bool(result)
            if not isinstance(b, Value):
                if (e.op == "and" and not b) or (e.op == "or" and b):
                    return result
                result = self.eval(nxt)
                continue
            rhs_holder = {}

            def rhs():
                rhs_holder["v"] = self.to_bool(self.eval(nxt))
                return rhs_holder["v"]
            if e.op == "and":
                result = self._select_bool(b, rhs, lambda: False)
            else:
                result = self._select_bool(b, lambda: True, rhs)
        return result

    def _select_bool(self, cond: Value, then_fn, else_fn) -> Any:
        vals = []
        blocks = []
        for fn in (then_fn, else_fn):
            block = Block()
            with self.builder.into(block):
                vals.append(fn())
            blocks.append(block)
        if not isinstance(vals[0], Value) and not isinstance(vals[1], Value) and vals[0] == vals[1]:
            return vals[0]
        ifop = self.emit("if", [cond], [])
        return self._merge_into(ifop, blocks, [("condition", vals[0], vals[1], self.loc, self.loc)])[0]

    def _expr_IfExp(self, e: H.IfExp) -> Any:
        cond = self.to_bool(self.eval(e.test))
        if not isinstance(cond, Value):
            return self.eval(e.body if cond else e.orelse)
        vals, blocks = [], []
        for sub in (e.body, e.orelse):
            block = Block()
            with self.builder.into(block):
                vals.append(self.eval(sub))
            blocks.append(block)
        ifop = self.emit("if", [cond], [])
        return self._merge_into(ifop, blocks, [("conditional expression", vals[0], vals[1], e.body.loc,
                                                e.orelse.loc)])[0]

    # ---- calls --------------------------------------------------------------

    def _expr_Call(self, e: H.Call) -> Any:
        fn = self.eval(e.func)
        from ..lang.static import STATIC_SURFACE, call_static
        if isinstance(fn, SurfaceFunction) and fn.name in STATIC_SURFACE:
            return call_static(self, fn, e)
        args: List[Any] = []
        for a in e.args:
            if isinstance(a, H.Starred):
                v = self.eval(a.value)
                if not isinstance(v, tuple):
                    raise self.error(TileTypeError, f"Expected a tuple after *, got {describe(v)}", a.loc)
                args.extend(v)
            else:
                args.append(self.eval(a))
        kwargs: Dict[str, Any] = {}
        for k in e.keywords:
            v = self.eval(k.value)
            if k.name is None:
                if not isinstance(v, dict):
                    raise self.type_error(f"'**' needs a mapping, got {describe(v)}")
                kwargs.update(v)
            else:
                kwargs[k.name] = v
        return self._call(fn, args, kwargs)

    def _call(self, fn: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        from ..lang import builtins_rules
        from ..lang.bridge import translate
        fn = translate(fn)
        if isinstance(fn, BoundMethod):
            return self._call(fn.target, [fn.self_value] + args, kwargs)
        if isinstance(fn, SurfaceFunction):
            return self._call_surface(fn, args, kwargs)
        if fn is dataclasses.replace:
            return self._replace_dataclass(args, kwargs)
        if isinstance(fn, Closure):
            scope = Frame(fn.fn.name, fn.frame.globals, None, None, parent=fn.frame)
            scope.vars = Env(fn.captured)
            return self._inline(fn.fn, fn.frame.globals, None, scope, args, kwargs, defaults=fn.defaults)
        rule = builtins_rules.lookup(fn)
        if rule is not None:
            return rule(self, *args, **kwargs)
        from ..lang.kernel import unwrap_tile_function
        inner = unwrap_tile_function(fn)
        if inner is not None:
            fn = inner
        if isinstance(fn, SourceFunction):
            if fn.is_contextmanager:
                return ContextManagerCall(fn, args, kwargs)
            return self._inline(function_hir(fn, is_entry=False), fn.__globals__, None, None, args, kwargs,
                                pyfunc=fn)
        if _is_contextmanager_factory(fn):
            return ContextManagerCall(fn.__wrapped__, args, kwargs)
        if isinstance(fn, types.FunctionType):
            hir_fn = function_hir(fn, is_entry=False)
            return self._inline(hir_fn, fn.__globals__, _closure_lookup(fn), None, args, kwargs,
                                pyfunc=fn)
        if isinstance(fn, PyFunction):       # a function made by compile-time Python (a decorator, a lambda)
            return self._inline(node_hir(fn.node, fn.filename, is_entry=False), fn.globals,
                                _evaluated_closure(fn), None, args, kwargs, defaults=fn.defaults)
        if isinstance(fn, type) and dataclasses.is_dataclass(fn):
            return self._construct_dataclass(fn, args, kwargs)
        if dataclasses.is_dataclass(fn):
            call = _dataclass_dunder(fn, "__call__")
            if call is None:
                raise self.type_error(f"Cannot call an object of type {type(fn).__name__}")
            return self._call(call, [fn] + list(args), kwargs)

        if isinstance(fn, D.DType):
            return self._call_dtype(fn, args, kwargs)
        op_name = _OPERATOR_FUNCTIONS.get(fn) if _hashable(fn) else None
        if op_name is not None and any(isinstance(a, Value) for a in args):
            # `operator.add(x, y)` (e.g. a reduce combiner) is `x + y`
            kind, name = op_name
            if kind == "binary" and len(args) == 2 and not kwargs:
                return self.binary(name, *args)
            if kind == "compare" and len(args) == 2 and not kwargs:
                return self.compare(name, *args)
            if kind == "unary" and len(args) == 1 and not kwargs:
                return self.unary(name, *args)
        if isinstance(fn, types.BuiltinMethodType) and isinstance(fn.__self__, dict) \
                and fn.__name__ in ("get", "keys", "values", "items"):
            # reading a dict (e.g. **kwargs) of compile-time keys; its values may be run-time
            try:
                return fn(*args, **kwargs)
            except TypeError as ex:
                raise self.type_error(f"dict.{fn.__name__}(): {ex}") from None
        from ..ops.common import foreign_dtype
        if foreign_dtype(fn) is not None:      # `np.float16(x)`, `torch.float32(x)`: as ct.float16(x)
            return self._call_dtype(foreign_dtype(fn), args, kwargs)
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, (types.FunctionType, SourceFunction)):
            return self._call(fn.__func__, [fn.__self__] + args, kwargs)
        return self._call_python(fn, args, kwargs)

    def _call_dtype(self, dt: D.DType, args, kwargs):
        """`ct.float16(x)`: convert a scalar; sub-byte dtypes have no constructor."""
        if dt.bitwidth < 8:
            raise self.type_error(f"Cannot call an object of type DTypeSpec(dtype=<DType '{dt.name}'>)")
        if len(args) > 1 or kwargs:
            self._bad_call(dt)
        x = args[0] if args else 0       # `ct.int32()` is 0, as Python's int()
        if isinstance(x, Value) and isinstance(x.type, TileType) and x.type.shape:
            raise self.type_error(f"Expected a scalar value, but given value has type {x.type}")
        if not isinstance(x, Value) or (x.const is not None and isinstance(x.type, TileType)):
            # A constant converts at compile time through the dtype's Python type (int(1.5) == 1).
            const = x.const if isinstance(x, Value) else x
            pytype = bool if dt.is_bool else int if D.is_integral(dt) else float
            try:
                x = pytype(const)
            except (ValueError, TypeError, OverflowError):
                raise self.type_error(f"Invalid argument type for {dt.name}: {describe(const)}") from None
        if dt.is_float and dt.name.endswith("fnu") and _is_number(x) and not isinstance(x, bool):
            # A literal is rounded straight into the unsigned format (no run-time rounding mode).
            if x < 0:
                raise self.value_error("Negative values cannot be represented in an unsigned float format")
            return self.constant(float(x), dt)
        return self.call_surface("astype", [x, dt], {})

    def _bad_call(self, fn):
        raise self.type_error(f"cannot call {describe(fn)} with these arguments")

    def _call_python(self, fn: Any, args, kwargs) -> Any:
        """Other Python callables run at compile time when every argument is a constant."""
        if isinstance(fn, type) and issubclass(fn, BaseException):
            return _PendingException(fn, args, kwargs)
        if not callable(fn):
            raise self.type_error(f"{describe(fn)} is not callable")
        try:
            cargs = [self.const_value(a) for a in args]
            ckw = {k: self.const_value(v) for k, v in kwargs.items()}
        except NotConstant:
            raise self.type_error(f"function {_callable_name(fn)} is not supported in tile code "
                                  f"(only cuda.tile functions and Python functions can be called "
                                  f"on run-time values)") from None
        if isinstance(fn, type) and issubclass(fn, enum.Enum):
            pass
        elif isinstance(fn, type) and not _is_pure_callable(fn):
            raise self.error(TileError, f'Creating instances of type "{fn.__name__}" is not supported '
                                        f'in device code')
        elif not _is_pure_callable(fn):
            raise self.error(TileError, f"{_callable_name(fn)}() is not supported in device code")
        from ..lang.static import host_call
        try:
            return host_call(self, fn, cargs, ckw)
        except TileError:
            raise
        except ValueError as ex:
            if isinstance(fn, type) and issubclass(fn, enum.Enum):
                raise self.value_error(str(ex)) from None   # `Color(99)`: no such member
            raise self.error(TileStaticEvalError, f"{_callable_name(fn)}() raised "
                                                  f"{type(ex).__name__}: {ex}") from None
        except Exception as ex:
            raise self.error(TileStaticEvalError, f"{_callable_name(fn)}() raised "
                                                  f"{type(ex).__name__}: {ex}") from None

    def _call_surface(self, fn: SurfaceFunction, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        if fn.typing is None:
            raise self.unsupported(f"cuda.tile.{fn.name}() is not supported by tilescope yet")
        if fn.raw_args:
            return fn.typing(self, *args, **kwargs)
        try:
            bound = fn.signature.bind(*args, **kwargs)
        except TypeError as ex:
            raise self.type_error(f"{fn.name}(): {ex}") from None
        bound.apply_defaults()
        self._surface_calls.append(fn)
        try:
            return fn.typing(self, *bound.args, **bound.kwargs)
        except (TileError, _Exit):
            raise
        except NotConstant:
            raise self.type_error(f"{fn.name}(): an argument that must be a compile-time constant "
                                  f"is a run-time value") from None
        except D.LiteralRangeError as ex:
            # An integer constant no dtype holds (e.g. 2**70): upstream's TileValueError.
            raise self.value_error(str(ex)) from None
        except Exception as ex:
            raise self.error(TileInternalError, f"internal error in the typing rule of "
                                                f"cuda.tile.{fn.name}: {type(ex).__name__}: {ex}") from ex
        finally:
            self._surface_calls.pop()

    def argument_prefix(self, param: str) -> str:
        """`Invalid argument "param" of fn(): ` (`#i` for a positional-only parameter) when `param`
        names a parameter of the cuTile function being typed, else "" (upstream's error phrasing)."""
        if not self._surface_calls:
            return ""
        fn = self._surface_calls[-1]
        for i, p in enumerate(fn.signature.parameters.values(), 1):
            if p.name == param:
                tag = f"#{i}" if p.kind is inspect.Parameter.POSITIONAL_ONLY else f'"{param}"'
                return f"Invalid argument {tag} of {fn.name.rsplit('.', 1)[-1]}(): "
        return ""

    def _check_dataclass_type(self, cls) -> None:
        """The dataclasses tile code can build: frozen, plain generated __init__, no factories."""
        if "__dataclass_fields__" not in cls.__dict__:
            raise self.type_error("Non-dataclass subclasses of a dataclass are not supported")
        params = getattr(cls, "__dataclass_params__", None)
        if params is not None and not params.frozen:
            raise self.type_error("Only frozen dataclasses are supported")
        if cls.__new__ is not object.__new__:
            raise self.type_error("Dataclasses with custom __new__ are not supported")
        init = getattr(cls, "__init__", None)
        code = getattr(init, "__code__", None)
        if params is not None and not params.init or code is None or code.co_filename != "<string>":
            # dataclass() compiles the generated __init__ from a string.
            raise self.type_error("Dataclass instance creation is only supported for dataclasses "
                                  "with a default generated __init__() method.")
        for f in dataclasses.fields(cls):
            if not f.init:
                raise self.type_error("Dataclasses with init=False fields are not supported")
            if f.default_factory is not dataclasses.MISSING:
                raise self.type_error("Dataclasses with default_factory fields are not supported")

    def _construct_dataclass(self, cls, args, kwargs):
        self._check_dataclass_type(cls)
        fields = [f for f in dataclasses.fields(cls) if f.init]
        sig = inspect.Signature([inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                   default=(f.default if f.default is not dataclasses.MISSING
                                                            else inspect.Parameter.empty))
                                 for f in fields])
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as ex:
            raise self.type_error(f"{cls.__name__}(): {ex}") from None
        bound.apply_defaults()
        obj = make_dataclass_instance(cls, dict(bound.arguments))
        post_init = _class_member(cls, "__post_init__")
        if isinstance(post_init, (types.FunctionType, SourceFunction)):
            self._call(post_init, [obj], {})
        return obj

    def _replace_dataclass(self, args, kwargs):
        """`dataclasses.replace(obj, **changes)` on an abstract dataclass instance."""
        if len(args) != 1 or not dataclasses.is_dataclass(args[0]) or isinstance(args[0], type):
            raise self.type_error("dataclasses.replace() expects a dataclass instance and keyword arguments")
        obj = args[0]
        names = [f.name for f in dataclasses.fields(obj)]
        for k in kwargs:
            if k not in names:
                raise self.type_error(f"Dataclass '{type(obj).__name__}' has no such field '{k}'")
        fields = {n: kwargs[n] if n in kwargs else object.__getattribute__(obj, n) for n in names}
        return make_dataclass_instance(type(obj), fields)

    def _make_closure(self, fn: H.FunctionDef) -> Closure:
        defaults = {}
        for p in fn.params:
            if p.default is not None:
                defaults[p.name] = self.eval(p.default)
        return Closure(fn, self.frame, defaults, {}, _free_names(fn))

    def _inline(self, hir_fn: H.FunctionDef, globals_, closure, parent: Optional[Frame],
                args: List[Any], kwargs: Dict[str, Any], *, defaults=None, pyfunc=None) -> Any:
        if self.depth >= MAX_INLINE_DEPTH:
            raise self.error(TileRecursionError, f"maximum inlining depth ({MAX_INLINE_DEPTH}) exceeded "
                                                 f"while calling '{hir_fn.name}'")
        frame = Frame(hir_fn.name, globals_, closure, hir_fn, parent=parent)
        frame.call_site = self.loc
        if self.frame is not None and self.frame.call_site is not None and frame.call_site is not None:
            frame.call_site = frame.call_site.with_call_site(self.frame.call_site)
        self._bind_call_args(hir_fn, frame, args, kwargs, defaults, pyfunc)
        if hir_fn.is_generator:
            raise self.type_error(f"generator function '{hir_fn.name}' can only be used through "
                                  f"@contextlib.contextmanager in a 'with' statement")
        saved_frame, saved_loc = self.frame, self.loc
        self.frame = frame
        self.depth += 1
        try:
            try:
                self._exec_body(hir_fn.body)
            except _Exit:
                pass
            return frame.retval
        finally:
            self.depth -= 1
            self.frame, self.loc = saved_frame, saved_loc

    def _bind_call_args(self, hir_fn, frame, args, kwargs, defaults, pyfunc) -> None:
        from ..lang.bridge import translate
        params = []
        for p in hir_fn.params:
            kind = {"positional_only": inspect.Parameter.POSITIONAL_ONLY,
                    "positional": inspect.Parameter.POSITIONAL_OR_KEYWORD,
                    "var_positional": inspect.Parameter.VAR_POSITIONAL,
                    "keyword_only": inspect.Parameter.KEYWORD_ONLY,
                    "var_keyword": inspect.Parameter.VAR_KEYWORD}[p.kind]
            default = inspect.Parameter.empty
            if pyfunc is not None:
                d = _python_default(pyfunc, p.name)
                if d is not inspect.Parameter.empty:
                    default = translate(d)
            elif defaults and p.name in defaults:
                default = defaults[p.name]
            params.append(inspect.Parameter(p.name, kind, default=default))
        sig = inspect.Signature(params)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as ex:
            raise self.type_error(f"{hir_fn.name}(): {ex}") from None
        bound.apply_defaults()
        for name, value in bound.arguments.items():
            frame.vars[name] = value
            self.bindings.append((next(p.loc for p in hir_fn.params if p.name == name), name, value))

    def _enter_context(self, mgr: ContextManagerCall):
        fn = mgr.fn
        hir_fn = function_hir(fn, is_entry=False)
        body = hir_fn.body
        idx = [i for i, s in enumerate(body) if isinstance(s, H.Yield)]
        if not idx and not (getattr(fn, "__code__", None) is not None
                            and fn.__code__.co_flags & inspect.CO_GENERATOR):
            raise self.type_error("Expected a generator function, but no reachable `yield` statement "
                                  "has been found")
        nested = _nested_yields(body)
        if len(idx) + len(nested) > 1:
            first, second = sorted([body[i].loc for i in idx] + nested, key=lambda l: (l.line, l.col))[:2]
            raise self.error(TileTypeError, f"Generator-based context manager must have one `yield` statement "
                                            f"(another `yield` found on line {first.line})", second)
        if not idx and not nested:    # every `yield` was dead code (after a break or return)
            raise self.type_error("Expected a generator function, but no reachable `yield` statement "
                                  "has been found")
        if not idx:
            raise self.type_error("`yield` statement of a generator-based context manager must be placed "
                                  "outside of loops and conditional statements")
        k = idx[0]
        frame = Frame(hir_fn.name, fn.__globals__, _closure_lookup(fn), hir_fn)
        frame.call_site = self.loc
        self._bind_call_args(hir_fn, frame, mgr.args, mgr.kwargs, None, fn)

        def run(stmts):
            saved = self.frame
            self.frame = frame
            self.depth += 1
            try:
                self._exec_body(stmts)
            except _Exit:
                raise self.type_error("return inside a @contextmanager function is not supported")
            finally:
                self.depth -= 1
                self.frame = saved

        run(body[:k])
        saved = self.frame
        self.frame = frame
        try:
            value = None if body[k].value is None else self.eval(body[k].value)
        finally:
            self.frame = saved
        return value, lambda: run(body[k + 1:])


# ---- helpers ---------------------------------------------------------------

class NotConstant(Exception):
    """Internal: a value is known only at run time."""


class _AnyType:
    def __repr__(self):
        return "<any>"


_ANY = _AnyType()


class _PendingException:
    """An exception class call inside tile code, to be raised by static_exception."""

    def __init__(self, cls, args, kwargs):
        self.cls, self.args, self.kwargs = cls, args, kwargs


def _free_names(fn: H.FunctionDef) -> List[str]:
    """Names a nested function reads that are not its own locals (over-approximated)."""
    seen = set()

    def walk(node):
        if isinstance(node, H.Name):
            seen.add(node.id)
        elif isinstance(node, (list, tuple)):
            for item in node:
                walk(item)
        elif isinstance(node, (H.Node, H.Keyword, H.Comprehension, H.FormattedValue, H.Param)):
            for value in vars(node).values():
                if isinstance(value, (H.Node, list, tuple, H.Keyword, H.Comprehension, H.FormattedValue, H.Param)):
                    walk(value)

    walk(fn.body)
    for p in fn.params:
        walk(p.default)
    return sorted(seen - set(fn.local_names))


def _leaf_type(x: Any) -> Optional[Type]:
    return x.type if isinstance(x, Value) else None


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum)


def _is_type_like(x: Any) -> bool:
    return isinstance(x, type) or isinstance(x, types.UnionType if hasattr(types, "UnionType") else type)


def _same_binding(a: Any, b: Any) -> bool:
    if a is b:
        return True
    la, ta = flatten(a)
    lb, tb = flatten(b)
    return ta == tb and all(same_leaf(x, y) for x, y in zip(la, lb))


def _short(x: Any) -> str:
    """A type-like description for path-dependent type errors."""
    if isinstance(x, Value):
        return str(x.type)
    if _is_number(x):
        return str(TileType(D.literal_dtype(x), ()))
    if isinstance(x, Type):
        return str(x)
    return describe(x)


def describe(x: Any) -> str:
    if isinstance(x, Value):
        return f"a value of type {x.type}"
    if x is None:
        return "None"
    if isinstance(x, bool):
        return f"the constant {x}"
    if isinstance(x, (int, float)):
        return f"the constant {x!r}"
    if isinstance(x, str):
        return f"the string {x!r}"
    if isinstance(x, tuple):
        return f"a tuple of {len(x)} items"
    if isinstance(x, D.DType):
        return f"the dtype {x.name}"
    if isinstance(x, enum.Enum):
        return f"<enum constant {type(x).__name__}.{x.name}>"
    if isinstance(x, SurfaceFunction):
        return f"cuda.tile.{x.name}"
    if isinstance(x, types.ModuleType):
        return f"module '{x.__name__}'"
    if isinstance(x, type):
        return f"class '{x.__name__}'"
    if callable(x):
        return f"function '{_callable_name(x)}'"
    return f"a {type(x).__name__} object"


_OPERATOR_FUNCTIONS = {**{getattr(operator, n): ("binary", n) for n in PY_BINARY},
                       **{getattr(operator, n): ("compare", n) for n in COMPARE_SURFACE},
                       operator.neg: ("unary", "neg"), operator.pos: ("unary", "pos"),
                       operator.invert: ("unary", "invert"), operator.not_: ("unary", "not_")}


def _hashable(x: Any) -> bool:
    try:
        hash(x)
        return True
    except TypeError:
        return False


def _subject(name: str) -> str:
    """A variable in backticks; the merged return value of a helper as plain words (as upstream)."""
    return name if name == "return value" else f"`{name}`"


def _item_assignment_error(obj: Any) -> str:
    """Upstream's wording: tuples and tiles are immutable, arrays are written with store()."""
    if isinstance(obj, tuple):
        return "Tuples are immutable: item assignment is not supported"
    if isinstance(obj, Value) and isinstance(obj.type, TileType):
        return f"Tiles are immutable: item assignment is not supported ({obj.type})"
    if isinstance(obj, Value) and isinstance(obj.type, ArrayType):
        return f"Arrays do not support item assignment. Use store() to write to {obj.type}"
    return f"item assignment is not supported on {describe(obj)}"


def _callable_name(fn) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


def _dataclass_dunder(obj: Any, name: str):
    """A user-defined special method (`__call__`, `__getitem__`...) of a dataclass instance."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return None
    member = _class_member(type(obj), name)
    return member if isinstance(member, (types.FunctionType, SourceFunction)) else None


def _class_member(cls: type, name: str) -> Any:
    """A class attribute as written in the class body (no descriptor runs), or None."""
    from ..pyeval.kinds import lookup_in_class
    return lookup_in_class(cls, name)[1]


def _evaluated_closure(fn) -> Callable[[str], Tuple[bool, Any]]:
    """Free variables of a function compile-time Python made, in tile code's terms."""
    from ..lang.static import _from_static

    def lookup(name: str):
        scope = fn.scope
        while scope is not None:
            found, value = scope.find(name)
            if found:
                return True, _from_static(value)
            scope = scope.parent
        return False, None
    return lookup


def _is_pure_callable(fn) -> bool:
    import math
    if fn in (len, min, max, abs, int, float, bool, str, tuple, range, isinstance, round, divmod,
              getattr, hasattr, sorted, reversed, zip, enumerate, repr, type, slice, pow, sum, any, all):
        return True
    mod = getattr(fn, "__module__", None)
    return mod in ("math", "operator") or fn in vars(math).values()


def _is_contextmanager_factory(fn) -> bool:
    wrapped = getattr(fn, "__wrapped__", None)
    if wrapped is None or not isinstance(wrapped, types.FunctionType):
        return False
    code = getattr(fn, "__code__", None)
    # Generator or not: a @contextmanager without a reachable `yield` is reported on entry.
    return code is not None and "contextlib" in code.co_filename


def _nested_yields(stmts) -> List[Loc]:
    """Locations of the `yield` statements nested in compound statements (not at top level)."""
    found: List[Loc] = []

    def walk(block, top):
        for s in block:
            if isinstance(s, H.Yield) and not top:
                found.append(s.loc)
            for attr in ("body", "orelse"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    walk(sub, False)
    walk(stmts, True)
    return found


def _closure_lookup(fn) -> Optional[Callable[[str], Tuple[bool, Any]]]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    if not code.co_freevars or not fn.__closure__:
        return None
    cells = dict(zip(code.co_freevars, fn.__closure__))

    def lookup(name: str):
        cell = cells.get(name)
        if cell is None:
            return False, None
        try:
            return True, cell.cell_contents
        except ValueError:
            return False, None
    return lookup


def _python_default(fn, name: str):
    if isinstance(fn, SourceFunction):
        return fn.defaults.get(name, inspect.Parameter.empty)
    try:
        p = inspect.signature(fn).parameters.get(name)
    except (TypeError, ValueError):
        return inspect.Parameter.empty
    return inspect.Parameter.empty if p is None else p.default


def _annotations(fn) -> Dict[str, Any]:
    ann = dict(getattr(fn, "__annotations__", {}) or {})
    if isinstance(fn, SourceFunction):
        return ann
    for k, v in list(ann.items()):
        if isinstance(v, str):    # postponed annotations (from __future__)
            ann[k] = annotation_value(v, fn.__globals__, fn.__code__.co_filename, default=v)
    return ann


def _constant_tuple(spec) -> Any:
    """The Python tuple a TupleSpec of constants stands for, or None."""
    from ..meta import ConstantSpec, TupleSpec
    if isinstance(spec, ConstantSpec):
        return spec.value
    if isinstance(spec, TupleSpec):
        items = [_constant_tuple(i) for i in spec.items]
        if all(i is not None or isinstance(s, ConstantSpec) for i, s in zip(items, spec.items)):
            return tuple(items)
    return None


def _is_spec(x: Any) -> bool:
    from ..meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec
    return isinstance(x, (ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec))


def array_type_of(mt) -> ArrayType:
    static_shape = tuple(bool(s) for s in getattr(mt, "static_shape_dims", ())) or None
    return ArrayType(mt.dtype, mt.ndim, tuple(mt.shape), tuple(mt.strides or ()),
                     index_dtype=mt.index_dtype,
                     static_shape=_static_flags(mt, "shape"), static_strides=_static_flags(mt, "strides"))


def _static_flags(mt, what: str) -> Tuple[bool, ...]:
    flags = getattr(mt, f"static_{what}", None)
    values = getattr(mt, what) or (None,) * mt.ndim
    if flags is True:
        return tuple(v is not None for v in values)
    if isinstance(flags, (tuple, list)):
        return tuple(bool(f) and v is not None for f, v in zip(flags, values))
    return (False,) * mt.ndim
