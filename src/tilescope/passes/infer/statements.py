"""Statements: assignment, `with`, `raise`, `return`, and `if` (dynamic ones become `if` ops whose
results are the variables the branches change)."""
from __future__ import annotations

from typing import Any, List

from ... import dtypes as D
from ...errors import Loc, TileInternalError, TileSyntaxError, TileTypeError, TileValueError
from ...frontend import hir as H
from ...ir.core import Block, Op, Value
from ...ir.types import TileType, Type
from ..values import flatten, same_leaf, UNDEFINED, unflatten
from .abstract import (Conflict, ContextManagerCall, MaybeUndefined, _Exit, _dataclass_dunder, _is_number,
                       _item_assignment_error,
                       _leaf_type, _same_binding, _short, _subject, describe)
from .static import raise_static_exception


class Statements:
    """(one section of `Inference`; see passes/infer/__init__.py)"""

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
