"""A `for` loop that breaks stays a `for`, with a `done` flag: as upstream lowers it, so that the
TileIR (and the cubin) is the same.

    for i in range(n):                      done = False
        if c: break                         for i in range(n) (carrying done):
        A                          ==>          if done: continue
                                                if c: continue with done = True
                                                A (continue with done)

Every `break` of the loop becomes a `continue` that sets the flag, every `continue` carries it
on, and an `if done` that skips the body comes first (the iterations after a break do nothing).
The flag is the loop's last carried value. Loops with a `return` inside are left alone. The
TileIR backend applies it to a copy of the final IR (the CPU executor runs the loop as written);
the backend writes each `if done` with its jumping branch only (`is_done_test`; loop splitting may
copy them) and makes the flag's constants, which this returns, at the top of the kernel, where
upstream has them.
"""
from __future__ import annotations

from typing import List, Set

from .. import dtypes as D
from ..ir.core import Block, Function, Op, Value
from ..ir.types import TileType

BOOL = TileType(D.bool_, ())


def lower_for_breaks(fn: Function) -> Set[int]:
    """Rewrite, in place, every `for` that breaks; the ids of the flag's constants made."""
    consts: Set[int] = set()
    _block(fn.body, consts)
    return consts


def is_done_test(body: Block) -> bool:
    """Whether the loop body `body` is the flag test this pass makes: one `if` on the last carried
    value whose first branch only continues."""
    if len(body.ops) != 1 or not body.args:
        return False
    op = body.ops[0]
    return (op.name == "if" and op.operands[0] is body.args[-1] and len(op.blocks) == 2
            and [o.name for o in op.blocks[0].ops] == ["continue"])


def _block(b: Block, consts: Set[int]) -> None:
    out: List[Op] = []
    for op in b.ops:
        for inner in op.blocks:
            _block(inner, consts)
        if op.name == "for" and _breaks(op.blocks[0]) and not any(o.name == "return" for o in op.blocks[0].walk()):
            made = _flag(op)
            consts.update(id(c) for c in made)
            out.extend(made)
        out.append(op)
    b.ops = out


def _breaks(b: Block) -> bool:
    """Whether `b` has a `break` of its own loop (in it or its `if`s, not in a nested loop)."""
    return any(o.name == "break" or (o.name == "if" and any(_breaks(x) for x in o.blocks)) for o in b.ops)


def _const(value: bool, loc) -> Op:
    op = Op("const", [], [BOOL], {"value": value}, loc=loc)
    op.result.const = value
    return op


def _flag(loop: Op) -> List[Op]:
    """Add the flag to `loop`; the constants to put before it."""
    false, true = _const(False, loop.loc), _const(True, loop.loc)
    body = loop.blocks[0]
    done = Value(BOOL, "done")
    body.args.append(done)
    loop.operands.append(false.result)
    loop.results.append(Value(BOOL, owner=loop))
    _jumps(body, done, true.result)
    skip = Block()
    skip.ops.append(Op("continue", body.args[1:], loc=loop.loc))
    rest = Block()
    rest.ops = body.ops
    test = Op("if", [done], [], {}, [skip, rest], loc=loop.loc)
    body.ops = [test]
    return [false, true]


def _jumps(b: Block, done: Value, true: Value) -> None:
    for i, op in enumerate(b.ops):
        if op.name == "break":
            b.ops[i] = Op("continue", op.operands + [true], loc=op.loc)
        elif op.name == "continue":
            op.operands.append(done)
        elif op.name == "if":
            for x in op.blocks:
                _jumps(x, done, true)
