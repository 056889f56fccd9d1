"""Carried values of a `for` that upstream's dataflow and dead-code passes drop.

- A value every `continue` passes on unchanged is the value the loop starts from: its uses (in
  the body and after the loop) read the start instead.
- A value nothing after the loop reads, and that the body reads only to compute its own next
  value (through ops without effects), is dead.

Both leave the loop without that slot. A passed-on integer constant read after the loop is a
constant of its own there (upstream materializes what its dataflow knows): the new constants are
returned, for the backend to make at the top of the kernel. The TileIR backend applies this to a
copy of the final IR (the CPU executor runs the loop as written).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

from ..ir.core import Block, Function, Op, Value
from .dce import has_side_effects


def prune_loop_slots(fn: Function) -> List[Op]:
    """Drop, in place, the passed-on and dead carried values of every `for`; the constants made."""
    made: List[Op] = []
    changed = True
    while changed:
        changed = False
        uses = fn.body.readers()
        for block in fn.body.nested():
            for op in block.ops:
                if op.name == "for" and _prune(op, uses, fn.body, block, made):
                    changed = True
                    break
            if changed:
                break
    return made


def _exits(block: Block):
    """The `continue`/`break` ops of this loop (not of loops inside it)."""
    for op in block.ops:
        if op.name in ("continue", "break"):
            yield op
        elif op.name not in ("for", "loop"):
            for b in op.blocks:
                yield from _exits(b)


def _prune(loop: Op, uses: Dict[int, List[Op]], root: Block, block: Block, made: List[Op]) -> bool:
    body = loop.blocks[0]
    exits = list(_exits(body))
    if any(e.name == "break" for e in exits) or not exits:
        return False
    args, inits = body.args[1:], loop.operands[3:]
    for j, (arg, init) in enumerate(zip(args, inits)):
        if all(e.operands[j] is arg for e in exits):
            _replace(loop.blocks[0], arg, init)
            after = init
            if isinstance(init.const, int) and uses.get(loop.results[j].id):
                c = Op("const", [], [init.type], {"value": init.const}, loc=loop.loc)
                c.result.const = init.const
                block.ops.insert(block.ops.index(loop) + 1, c)
                made.append(c)
                after = c.result
            _replace(root, loop.results[j], after)
            _drop(loop, j, exits)
            return True
        chain = None if uses.get(loop.results[j].id) else _only_feeds_itself(arg, j, body, uses, exits)
        if chain is not None:
            body.ops = [o for o in body.ops if id(o) not in chain]
            _drop(loop, j, exits)
            return True
    return False


def _only_feeds_itself(arg: Value, j: int, body: Block, uses: Dict[int, List[Op]],
                       exits: List[Op]) -> Optional[Set[int]]:
    """The ids of the ops `arg` reaches when they are pure top-level ops of `body` that reach only
    the j-th operand of the loop's continues (else None)."""
    own = set(id(e) for e in exits)
    top = {id(o) for o in body.ops}
    seen: Set[int] = set()
    todo = [arg]
    while todo:
        v = todo.pop()
        for user in uses.get(v.id, ()):
            if id(user) in own:
                if any(x is v for k, x in enumerate(user.operands) if k != j):
                    return None
                continue
            if id(user) not in top or user.blocks or has_side_effects(user):
                return None
            if id(user) not in seen:
                seen.add(id(user))
                todo.extend(user.results)
    return seen


def _replace(block: Block, old: Value, new: Value) -> None:
    for op in block.walk():
        op.operands = [new if x is old else x for x in op.operands]


def _drop(loop: Op, j: int, exits: List[Op]) -> None:
    body = loop.blocks[0]
    del body.args[1 + j]
    del loop.operands[3 + j]
    del loop.results[j]
    for e in exits:
        del e.operands[j]
