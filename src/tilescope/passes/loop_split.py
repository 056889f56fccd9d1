"""Loop splitting: a `for` loop (step 1) whose body branches on its induction variable against a
loop-invariant bound (`if j >= start:`, the causal-attention pattern) becomes two loops without the
branch: one over the iterations where the condition is false, one over those where it is true.

    for j in range(lo, hi):                 for j in range(lo, min(hi, s)): <else branch>
        if j >= s: A else: B        ==>     for j in range(max(lo, s), hi): <then branch>

`>` and `<=` split at s + 1. As upstream does (and so for the same TileIR): only loops with exactly
one such `if` at the top of their body, whose branches end by yielding or continuing, are split;
a branch that continues drops the rest of its loop's body. The TileIR backend applies it to a copy
of the final IR (the CPU executor runs the loop as written).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .. import dtypes as D
from ..ir.core import Block, Function, Op, Value
from ..ir.types import TileType

_FLIP = {"ge": "le", "gt": "lt", "le": "ge", "lt": "gt"}
_PLUS_ONE = {"ge": False, "gt": True, "le": True, "lt": False}
_THEN_FIRST = {"ge": False, "gt": False, "le": True, "lt": True}     # the first loop keeps `then`


class Splits:
    """What splitting made, for a backend that writes upstream's order (upstream hoists loop
    invariants before it splits): per split, its bound ops and the two loops; and the ops the
    loops' bodies took from the `if`'s branches (upstream does not hoist those)."""
    def __init__(self):
        self.groups: List[Tuple[List[Op], Op, Op]] = []
        self.from_branch: set = set()


def split_loops(fn: Function, made: Optional[Splits] = None) -> Function:
    """Split, in place, every loop the rule above applies to (recording into `made`)."""
    _block(fn.body, {v.id: 0 for p in fn.params for v in p.values}, 0, made if made is not None else Splits())
    return fn


def _block(b: Block, depth_of: Dict[int, int], depth: int, made: Splits) -> None:
    for a in b.args:
        depth_of[a.id] = depth
    out: List[Op] = []
    for op in b.ops:
        for inner in op.blocks:
            _block(inner, depth_of, depth + 1, made)
        split = _candidate(op, depth_of, depth + 1) if op.name == "for" else None
        if split is None:
            out.append(op)
        else:
            ops = _split(op, *split, made)
            made.groups.append((ops[:-2], ops[-2], ops[-1]))
            out.extend(ops)
        for r in op.results:
            depth_of[r.id] = depth
    b.ops = out


def _invariant(v: Value, depth_of: Dict[int, int], depth: int) -> bool:
    """Defined outside the loop body at `depth` (a constant counts: it can be made anywhere)."""
    if v.owner is not None and v.owner.name == "const":
        return True
    return depth_of.get(v.id, depth) < depth


def _candidate(loop: Op, depth_of, depth) -> Optional[Tuple[Op, str, Value]]:
    """(the if, its comparison as `iv <cmp> bound`, the bound) when `loop` is to be split."""
    step = loop.operands[2]
    body = loop.blocks[0]
    if step.const != 1 or any(o.name in ("break", "return") for o in body.walk()):
        return None
    iv = body.args[0]
    compares: Dict[int, Tuple[str, Value]] = {}
    found = []
    for op in _top_level(body):
        if op.name == "compare" and op.attrs.get("fn") in _FLIP:
            lhs, rhs = op.operands
            if lhs is iv and _invariant(rhs, depth_of, depth):
                compares[op.result.id] = (op.attrs["fn"], rhs)
            elif rhs is iv and _invariant(lhs, depth_of, depth):
                compares[op.result.id] = (_FLIP[op.attrs["fn"]], lhs)
        elif op.name == "if" and op.operands[0].id in compares:
            found.append((op,) + compares[op.operands[0].id])
    if len(found) != 1:
        return None
    if_op = found[0][0]
    if any(b.ops and b.ops[-1].name not in ("yield", "continue") for b in if_op.blocks):
        return None
    return found[0]


def _top_level(body: Block):
    """The ops of a loop body at its top level as upstream sees them: an `if` that ends a block
    with exactly one branch leaving the iteration (`if c: continue`) is followed there by the
    other branch's ops (where tilescope's IR nests them)."""
    b: Optional[Block] = body
    while b is not None:
        yield from b.ops
        last = b.ops[-1] if b.ops else None
        b = None
        if last is not None and last.name == "if" and len(last.blocks) == 2:
            stay = [x for x in last.blocks if not (x.ops and x.ops[-1].name in ("continue", "break", "return"))]
            b = stay[0] if len(stay) == 1 else None


def _split(loop: Op, if_op: Op, cmp: str, bound: Value, made: Splits) -> List[Op]:
    lo, hi, step, *inits = loop.operands
    idx = lo.type
    pre: List[Op] = []
    if bound.owner is not None and bound.owner.name == "const" and any(o is bound.owner for o in loop.blocks[0].walk()):
        bound = _const(pre, bound.const, bound.type, bound.owner.loc)    # made again before the loops
    if _PLUS_ONE[cmp]:
        bound = _binary(pre, "add", bound, _const(pre, 1, idx, loop.loc), loop.loc)
    first_hi = _binary(pre, "min", hi, bound, loop.loc)
    second_lo = _binary(pre, "max", lo, bound, loop.loc)
    then_first = _THEN_FIRST[cmp]
    first = _clone_loop(loop, [lo, first_hi, step] + inits, if_op, 0 if then_first else 1, made)
    second = _clone_loop(loop, [second_lo, hi, step] + list(first.results), if_op, 1 if then_first else 0, made)
    second.results = list(loop.results)            # uses after the loop keep their values
    for r in second.results:
        r.owner = second
    return pre + [first, second]


def _const(out: List[Op], value, t, loc) -> Value:
    op = Op("const", [], [t], {"value": value}, loc=loc)
    op.result.const = value
    out.append(op)
    return op.result


def _binary(out: List[Op], fn: str, x: Value, y: Value, loc) -> Value:
    t = x.type if isinstance(x.type, TileType) else TileType(D.int32, ())
    op = Op("binary", [x, y], [t], {"fn": fn}, loc=loc)
    out.append(op)
    return op.result


def _clone_loop(loop: Op, operands: List[Value], if_op: Op, keep: int, made: Splits) -> Op:
    """A copy of `loop` over new bounds whose body has `if_op` replaced by its branch `keep`."""
    body = loop.blocks[0]
    mapping: Dict[int, Value] = {}
    new_body = Block([_fresh(a, mapping) for a in body.args])
    new_body.ops = _clone_ops(body.ops, mapping, if_op, keep, made)
    new = Op("for", operands, [r.type for r in loop.results], dict(loop.attrs), [new_body], loop.loc)
    for old, r in zip(loop.results, new.results):
        r.name = old.name
    return new


def _clone_ops(ops: List[Op], mapping: Dict[int, Value], if_op: Op, keep: int, made: Splits) -> List[Op]:
    """Copies of `ops`, with `if_op` (here or nested) replaced by its branch `keep`; a branch
    that continues drops the rest of its block."""
    out: List[Op] = []
    for op in ops:
        if op is not if_op:
            out.append(_clone(op, mapping, if_op, keep, made))
            continue
        branch = if_op.blocks[keep] if keep < len(if_op.blocks) else Block()
        for bop in branch.ops:
            if bop.name == "yield":
                for r, y in zip(if_op.results, bop.operands):
                    mapping[r.id] = mapping.get(y.id, y)
                break
            out.append(_clone(bop, mapping, if_op, keep, made))
            made.from_branch.add(id(out[-1]))
            if bop.name == "continue":
                return out
    return out


def _fresh(v: Value, mapping: Dict[int, Value]) -> Value:
    n = Value(v.type, v.name, None, v.const)
    mapping[v.id] = n
    return n


def _clone(op: Op, mapping: Dict[int, Value], if_op: Op, keep: int, made: Splits) -> Op:
    blocks = []
    for b in op.blocks:
        nb = Block([_fresh(a, mapping) for a in b.args])
        nb.ops = _clone_ops(b.ops, mapping, if_op, keep, made)
        blocks.append(nb)
    new = Op(op.name, [mapping.get(o.id, o) for o in op.operands], [r.type for r in op.results], dict(op.attrs),
             blocks, op.loc)
    for old, r in zip(op.results, new.results):
        r.name, r.const = old.name, old.const
        mapping[old.id] = r
    return new
