"""TileIR rules for control flow, memory-ordering tokens, grid queries and debug ops."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ...ir.core import Block, Op
from .ir import TOKEN, DivBy, Scalar, TBlock, Tile, TOp, TValue
from .lower_common import ttype
from .source_order import statement_kind, trailing_return
from .tokens import ACQUIRE, MEMORY_OPS, UNIVERSE, Effects, has_acquire, order_name, TokenMap


JUMPS = ("continue", "break", "return")


def jump_branch(op: Op, kernel_end: bool = False) -> Optional[Tuple[int, bool]]:
    """For an `if` (of a `while` test or an `if` statement) that ends its block and one branch of
    which leaves the block: (the index of that branch, whether it needs a `return` to leave: at
    the end of the kernel, where tilescope's IR leaves a `return` implicit). Upstream writes
    such an `if` with that branch only and the other branch's ops after it. None otherwise."""
    if op.name != "if" or op.results or len(op.blocks) != 2:
        return None
    kind = statement_kind(op.loc)
    if kind is None or any(b.ops and b.ops[-1].name == "yield" and b.ops[-1].operands for b in op.blocks):
        return None
    leaving = [i for i, b in enumerate(op.blocks) if b.ops and b.ops[-1].name in JUMPS]
    if kind == "while":
        leave = op.blocks[1].ops
        return (1, False) if len(leave) == 1 and leave[0].name == "break" else None
    if leaving:
        return leaving[0], False
    returns = kernel_end and op.blocks[1].ops and trailing_return(op.loc) is not None
    return (0, True) if returns else None


class LoopFrame:
    """An enclosing loop: the token keys it carries, its iteration's user values, its
    `returned` flag argument (None without one), and for a `for` lowered as `loop` the
    induction variable and step."""

    def __init__(self, keys, user_args, flag):
        self.keys, self.user_args, self.flag = keys, user_args, flag
        self.iv = self.step = None
        self.parallel: set = set()
        self.parent: Optional[TokenMap] = None


class ControlRules:
    """for/loop/if and their exits, token threading (see tokens.py), bid, print, assert, assume."""

    # -- memory tokens (see tokens.py) ------------------------------------------------------
    def join(self, toks: List[TValue]) -> TValue:
        return toks[0] if len(toks) == 1 else self.emit1("join_tokens", {"tokens": list(toks)}, TOKEN)

    def _access(self, op: Op):
        alias, _, _ = self.analysis.access(op)
        kind = MEMORY_OPS[op.name][0] if op.name in MEMORY_OPS else "store"
        return alias, kind, order_name(op)

    def _parallel(self, op: Op) -> bool:
        return bool(self.loops) and op in self.loops[-1].parallel

    def mem_in(self, op: Op) -> TValue:
        """The input token of a memory op (joining what it must wait for)."""
        alias, kind, order = self._access(op)
        if kind == "load":
            return self.join(self.tm.to_join(("store", alias), order))
        if self._parallel(op):
            # the one store to this array in a loop, at an index injective in the induction
            # variable: iterations need not wait for each other
            before = self.loops[-1].parent.get(("op", alias))
            acq = self.tm.items.get(ACQUIRE)
            return self.join([before, acq] if acq is not None and acq is not before else [before])
        return self.join(self.tm.to_join(("op", alias), order))

    def mem_out(self, op: Op, tok: TValue) -> None:
        """Record a memory op's result token."""
        alias, kind, order = self._access(op)
        if kind == "load":
            self.tm.set(("op", alias), self.join([self.tm.get(("op", alias)), tok]))
        elif self._parallel(op):
            joined = self.join([self.tm.get(("op", alias)), tok])
            self.tm.set(("op", alias), joined)
            self.tm.set(("store", alias), joined)
            return
        else:
            self.tm.set(("op", alias), tok)
            self.tm.set(("store", alias), tok)
        if has_acquire(order) or (op.name == "grid_control" and op.attrs.get("what") == "wait"):
            self.tm.set(ACQUIRE, tok)

    # -- control flow ------------------------------------------------------------------------
    @staticmethod
    def _own_exits(b: Block, names) -> bool:
        """Whether `b` has an op in `names` belonging to this loop (not to a nested loop)."""
        for o in b.ops:
            if o.name in names:
                return True
            if o.name not in ("for", "loop") and any(ControlRules._own_exits(x, names) for x in o.blocks):
                return True
        return False

    def _parallel_stores(self, body: Block) -> set:
        """Stores that may skip waiting for the previous iteration (upstream's rule): the only
        memory op on its array at the top level of a `for` body, no nested op touches that
        array, and one of its indices is the induction variable."""
        fx = self.analysis.of(body)
        if any(a == UNIVERSE for a in fx.sets):
            return set()
        nested = Effects()
        by_alias: Dict[int, list] = {}
        for o in body.ops:
            for b in o.blocks:
                nested = nested.merge(self.analysis.of(b))
            if o.name in MEMORY_OPS:
                by_alias.setdefault(self.analysis.alias_of(o.operands[0]), []).append(o)
        iv = body.args[0]
        out = set()
        for alias, ops in by_alias.items():
            if len(ops) == 1 and ops[0].name in ("store_tile", "tiled_store") and alias not in nested.sets and \
                    any(x is iv for x in ops[0].operands[1:-1]):
                out.add(ops[0])
        return out

    def _loop(self, op: Op, body: Block, user_inits: List[TValue], iv: Optional[TValue] = None,
              bounds=None) -> TOp:
        """Lower a loop body with its carried tokens (and a `returned` flag when a `return` inside
        must leave the kernel). With `bounds` (a `for` that breaks/returns) the result is a
        `loop` that tests the bound itself, with the induction variable as first value."""
        keys = self.analysis.of(body).keys()
        returns = any(o.name == "return" for o in body.walk())
        i1 = Tile((), Scalar("i1"))
        tok_inits = self.tm.values(keys)
        flag_init = [self.const(0, Scalar("i1"))] if returns else []
        user_args = [TValue(i.type) for i in user_inits]
        tok_args = [TValue(TOKEN) for _ in keys]
        flag_args = [TValue(i1)] if returns else []
        iv_args = [iv] if iv is not None else []
        frame = LoopFrame(keys, user_args, flag_args[0] if returns else None)
        if iv is not None:
            frame.parallel = self._parallel_stores(body)
            frame.parent = self.tm.copy()
        if bounds is not None:
            frame.iv, frame.step = iv, bounds[2]
        body_map = self.tm.copy()
        for k, a in zip(keys, tok_args):
            body_map.set(k, a)
        saved = (self.tm, self.if_keys, self.block)
        self.tm, self.if_keys = body_map, None
        self.loops.append(frame)
        tb = TBlock(iv_args + user_args + tok_args + flag_args)
        self.block = tb
        try:
            for x, a in zip(body.args, iv_args + user_args):
                self.vals[x.id] = a
            for x in body.args[len(iv_args):]:
                # what is known of a carried value holds in every iteration (upstream assumes it)
                if x.id in self.vals:
                    self.vals[x.id] = self.divisible(self.vals[x.id], self.facts.of(x).assumed)
            if bounds is not None:
                # leave once the induction variable reaches the upper bound
                go = self.emit1("cmpi", {"lhs": iv, "rhs": bounds[1]}, i1, comparison_predicate="less_than",
                                signedness="signed")
                stop = TBlock()
                stop.ops.append(TOp("break", {"operands": user_args + tok_args + flag_args}, []))
                self.emit("if", {"condition": go}, [], {}, [TBlock([]), stop])
                self.block.ops[-1].regions[0].ops.append(TOp("yield", {"operands": []}, []))
            self.lower_block(body)
            if not tb.ops or tb.ops[-1].name not in ("continue", "break", "return", "yield"):
                # unreachable tail after an `if` whose branches all leave the iteration
                self.exit("continue", user_args)
        finally:
            self.loops.pop()
            self.tm, self.if_keys, self.block = saved
        results = [ttype(r.type) for r in op.results] + [TOKEN] * len(keys) + ([i1] if returns else [])
        if bounds is not None:
            lp = self.emit("loop", {"initValues": [bounds[0]] + user_inits + tok_inits + flag_init}, results, {}, [tb])
        elif iv is not None:
            lb, ub, step = [self.v(o) for o in op.operands[:3]]
            lp = self.emit("for", {"lowerBound": lb, "upperBound": ub, "step": step,
                                   "initValues": user_inits + tok_inits}, results, {"unsignedCmp": False}, [tb])
        else:
            lp = self.emit("loop", {"initValues": user_inits + tok_inits + flag_init}, results, {}, [tb])
        n = len(op.results)
        for k, r in zip(keys, lp.results[n:n + len(keys)]):
            self.tm.set(k, r)
        if returns:
            # a `return` inside broke out of the loop: return now (or leave the enclosing loop too)
            then = TBlock()
            saved_block, self.block = self.block, then
            self._return_here()
            self.block = saved_block
            els = TBlock()
            els.ops.append(TOp("yield", {"operands": []}, []))
            self.emit("if", {"condition": lp.results[-1]}, [], {}, [then, els])
        self.bind(op, *lp.results[:n])
        return lp

    def exit(self, kind: str, user_vals: List[TValue]) -> None:
        """Emit `continue`/`break` of the innermost loop with its tokens and flag."""
        frame = self.loops[-1]
        toks = self.tm.values(frame.keys)
        if kind == "continue":
            head = []
            if frame.iv is not None:
                head = [self.emit1("addi", {"lhs": frame.iv, "rhs": frame.step}, frame.iv.type, overflow="none")]
            flag = [frame.flag] if frame.flag is not None else []
            self.emit("continue", {"operands": head + list(user_vals) + toks + flag}, [])
        else:
            flag = [self.const(0, Scalar("i1"))] if frame.flag is not None else []
            self.emit("break", {"operands": list(user_vals) + toks + flag}, [])

    def _return_here(self) -> None:
        if self.loops:
            frame = self.loops[-1]
            toks = self.tm.values(frame.keys)
            self.emit("break", {"operands": frame.user_args + toks + [self.const(1, Scalar("i1"))]}, [])
        else:
            self.emit("return", {"operands": []}, [])

    def op_for(self, op: Op) -> None:
        lb, ub, step, *inits = (self.v(o) for o in op.operands)
        body = op.blocks[0]
        iv = TValue(lb.type, "loopIdx")
        if self._own_exits(body, ("break",)) or any(o.name == "return" for o in body.walk()):
            self._loop(op, body, inits, iv, bounds=(lb, ub, step))
        else:
            self._loop(op, body, inits, iv)

    def op_loop(self, op: Op) -> None:
        self._loop(op, op.blocks[0], [self.v(o) for o in op.operands])

    def op_if(self, op: Op) -> None:
        if id(op) in self.split_ifs:
            return self._split_if(op, *self.split_ifs[id(op)])
        cond = self.v(op.operands[0])
        fx = Effects()
        for b in op.blocks:
            fx = fx.merge(self.analysis.of(b))
        keys = fx.keys()
        outer, saved_keys = self.tm, self.if_keys
        regions = []
        for b in list(op.blocks) + [Block()] * (2 - len(op.blocks)):
            self.tm, self.if_keys = outer.copy(), keys
            try:
                tb = self.nested(b, [])
                if not tb.ops or tb.ops[-1].name not in ("yield", "continue", "break", "return"):
                    tb.ops.append(TOp("yield", {"operands": self.tm.values(keys)}, []))
            finally:
                self.tm, self.if_keys = outer, saved_keys
            regions.append(tb)
        types = [t for r in op.results for t in self.flat_types(r.type)]
        n = len(types)
        f = self.emit("if", {"condition": cond}, types + [TOKEN] * len(keys), {}, regions)
        for k, r in zip(keys, f.results[n:]):
            self.tm.set(k, r)
        self.bind_flat(op.results, f.results[:n])

    def _split_if(self, op: Op, leaves: int, returns: bool) -> None:
        """An `if` one branch of which leaves, written as upstream writes it (see jump_branch):
        that branch alone in the `if`, then the other branch's ops after it."""
        outer = self.tm
        self.tm = outer.copy()
        try:
            block = op.blocks[leaves]
            jump = self.nested(block, [])
            if returns:
                if jump.ops and jump.ops[-1].name == "yield":
                    jump.ops.pop()
                self.loc = trailing_return(op.loc) or op.loc
                saved, self.block = self.block, jump
                self._return_here()
                self.block = saved
        finally:
            self.tm = outer
        self.loc = op.loc
        stay = TBlock()
        stay.ops.append(TOp("yield", {"operands": []}, [], loc=op.loc))
        self.emit("if", {"condition": self.v(op.operands[0])}, [], {}, [jump, stay] if leaves == 0 else [stay, jump])
        rest = op.blocks[1 - leaves]
        self.lower_block(rest, rest.ops[:-1] if rest.ops and rest.ops[-1].name == "yield" else rest.ops)

    def op_yield(self, op: Op) -> None:
        extra = self.tm.values(self.if_keys) if self.if_keys is not None else []
        self.emit("yield", {"operands": [x for o in op.operands for x in self.flat_values(o)] + extra}, [])

    def op_continue(self, op: Op) -> None:
        self.exit("continue", [self.v(o) for o in op.operands])

    def op_break(self, op: Op) -> None:
        self.exit("break", [self.v(o) for o in op.operands])

    def op_return(self, op: Op) -> None:
        if op.operands:
            raise self.unsupported("returning values from a kernel")
        self._return_here()

    # -- grid / arrays ------------------------------------------------------------------
    def op_bid(self, op: Op) -> None:
        i32 = Tile((), Scalar("i32"))
        ids = self.emit("get_tile_block_id", {}, [i32] * 3, hints=("blockId_x", "blockId_y", "blockId_z"))
        self.bind(op, ids.results[op.attrs["axis"]])

    def op_num_blocks(self, op: Op) -> None:
        i32 = Tile((), Scalar("i32"))
        ids = self.emit("get_num_tile_blocks", {}, [i32] * 3, hints=("gridSize_x", "gridSize_y", "gridSize_z"))
        self.bind(op, ids.results[op.attrs["axis"]])

    # -- debug / static -----------------------------------------------------------------------
    def op_print(self, op: Op) -> None:
        vals = [self.v(o) for o in op.operands]
        pr = self.emit("print_tko", {"args": vals, "token": self.mem_in(op)}, [TOKEN], {"str": op.attrs["format"]})
        self.mem_out(op, pr.result)

    def op_assert(self, op: Op) -> None:
        self.emit("assert", {"condition": self.v(op.operands[0])}, [], {"message": op.attrs.get("message") or ""})

    def op_breakpoint(self, op: Op) -> None:
        """`breakpoint()` stops the CPU executor (pdb); a GPU kernel runs on without it."""

    def op_grid_control(self, op: Op) -> None:
        name = "gdc_wait_tko" if op.attrs["what"] == "wait" else "gdc_launch_dependents_tko"
        r = self.emit(name, {"token": self.mem_in(op)}, [TOKEN])
        self.mem_out(op, r.result)

    def op_assume(self, op: Op) -> None:
        x = self.v(op.operands[0])
        self.bind(op, self.emit1("assume", {"value": x}, x.type, predicate=DivBy(int(op.attrs["divisor"]))))


# each op's TileIR rule, by op name (lower.py puts them into the primitive table)
RULES = {
    "for": ControlRules.op_for, "loop": ControlRules.op_loop, "if": ControlRules.op_if,
    "yield": ControlRules.op_yield, "continue": ControlRules.op_continue, "break": ControlRules.op_break,
    "return": ControlRules.op_return, "bid": ControlRules.op_bid, "num_blocks": ControlRules.op_num_blocks,
    "print": ControlRules.op_print, "assert": ControlRules.op_assert, "breakpoint": ControlRules.op_breakpoint,
    "grid_control": ControlRules.op_grid_control, "assume": ControlRules.op_assume,
}
