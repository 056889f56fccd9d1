"""Loops: `for` over `range` and `while` become `for`/`loop` ops; carried variables keep their
types (speculated from one run of the body); `break`/`continue` values merge at the exit."""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Dict, List, Optional

from ... import dtypes as D
from ...errors import Loc, TileError, TileInternalError, TileTypeError
from ...frontend import hir as H
from ...frontend.ast2hir import assigned_names
from ...ir.core import Block, Op, Value
from ...ir.types import TileType, Type
from ..bound import rebind
from ..values import flatten, same_leaf, UNDEFINED, unflatten
from .abstract import (Conflict, LoopInfo, MaybeUndefined, RangeValue, _ANY, _Exit, _is_number, _leaf_type,
                       _short, describe)
from .static import static_iter_items


class Loops:
    """(one section of `Inference`; see passes/infer/__init__.py)"""

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
            saved_vars, saved_bindings, saved_loc = self.frame.vars.copy(), len(self.bindings), self.loc
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
            self.loc = saved_loc
            return found
        return speculate

    def _run_loop(self, opname: str, operands: List[Value], names: List[str], iv_types: List[Type],
                  body_fn: Callable[[List[Value]], None], loc: Loc) -> None:
        """Emit a structured loop op carrying `names`; `body_fn(induction values)` runs the body."""
        def probe_body(info):
            ivs = [Value(t) for t in iv_types]
            self._bind_carried(info, None)
            body_fn(ivs)

        with self.at(loc):                       # the loop and its carried values' starts
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
        with self._loop_assigning(s.body):
            self._for(s)

    @contextlib.contextmanager
    def _loop_assigning(self, body):
        """While a loop is typed, the names its body assigns may be unbound after it."""
        frame = self.frame
        frame.loop_assigned.append(frozenset(assigned_names(body)))
        try:
            yield
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
        with self._loop_assigning(s.body):
            self._while(s)

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
        items = rebind(tuple(static_iter_items(self, s.iter)), self.site)
        # the front end ends every loop body with an explicit `continue`; unrolled, it is a no-op
        body = s.body[:-1] if s.body and isinstance(s.body[-1], H.Continue) else s.body
        for item in items:
            self.assign(s.target, item)
            self._exec_body(body)
