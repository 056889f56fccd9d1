"""Loop-invariant code motion on the TileIR, as upstream runs it before writing bytecode: an op
without effects or regions, in the body of a loop (`for`, `loop`, and the bodies of `reduce` and
`scan`), whose operands are all defined outside it, moves before the loop — out of as many
enclosing loops as its operands allow. Ops in `if` branches stay where they are, and so do the
ops a split loop took from its `if`'s branch (`pinned`): upstream hoists before it splits loops.
For the same reason `regroup_splits` then puts a split's bound ops after what was hoisted from the
first loop, and what the second loop's copy hoisted onto the first's. The cubin is the same either
way (tileiras hoists too); the TileIR text, which `--lineinfo` embeds in the cubin, then matches
upstream's."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .ir import TBlock, TOp
from .tokens import is_pure

LOOP_BODIES = frozenset({"for", "loop", "reduce", "scan"})


def hoist_invariants(body: TBlock, pinned: frozenset = frozenset(), late: frozenset = frozenset()) -> None:
    """Hoist, in place, every loop-invariant pure op of the function body `body` but those in
    `pinned` (ids). A constant in `late` (the value of an undefined variable a loop starts
    from, which upstream makes when it writes the loop) follows what is hoisted out of the loop
    it feeds."""
    _block(body, [[]], [False], {}, pinned, late)


def _block(block: TBlock, levels: List[list], in_loop: List[bool], depth_of: Dict[int, int], pinned,
           late=frozenset()) -> None:
    """Rebuild `block` (at depth len(levels) - 1, its new op list levels[-1]), appending each op
    to the list of the outermost level it can move to."""
    depth = len(levels) - 1
    for a in block.args:
        depth_of[id(a)] = depth
    for op in block.ops:
        target = depth
        if op.regions:
            for r in op.regions:
                levels.append([])
                in_loop.append(op.name in LOOP_BODIES)
                _block(r, levels, in_loop, depth_of, pinned, late)
                r.ops = levels.pop()
                in_loop.pop()
            if late and op.name in LOOP_BODIES:
                feeds = {id(v) for v in op.operands}
                moved = [o for o in levels[depth] if id(o) in late and id(o.results[0]) in feeds]
                levels[depth] = [o for o in levels[depth] if not any(o is m for m in moved)] + moved
        elif is_pure(op) and id(op) not in pinned:
            needs = max((depth_of.get(id(v), 0) for v in op.operands), default=0)
            while target > needs and in_loop[target]:
                target -= 1
        levels[target].append(op)
        for res in op.results:
            depth_of[id(res)] = target
    if depth == 0:
        block.ops = levels[0]


def regroup_splits(body: TBlock, groups: Sequence[Tuple[List[TOp], Optional[TOp], Optional[TOp]]]) -> None:
    """For each split (its bound ops, first loop, second loop), in place: the bound ops move
    after the ops hoisted before the first loop, and an op hoisted before the second loop that
    repeats one hoisted before the first (same op, same operands) is dropped for it."""
    for pre, first, second in groups:
        block = _holding(body, first)
        if block is None or second not in block.ops:
            continue
        ops = block.ops
        i, j = ops.index(first), ops.index(second)
        pre_ids = {id(o) for o in pre}
        at = [k for k in range(i) if id(ops[k]) in pre_ids]
        if not at:
            continue
        start = at[0]
        run = ops[start:i]
        bound = [o for o in run if id(o) in pre_ids]
        hoisted = [o for o in run if id(o) not in pre_ids]
        made = {id(r) for o in bound for r in o.results}
        if not bound or any(id(v) in made for o in hoisted for v in o.operands):
            continue
        same: Dict[int, object] = {}
        second_run = []
        for o in ops[i + 1:j]:
            twin = next((h for h in hoisted if _same_op(h, o, same)), None)
            if twin is None:
                second_run.append(o)
            else:
                same.update((id(a), b) for a, b in zip(o.results, twin.results))
        # the bound's own constant, made again from the loop body, was hoisted with it upstream
        for c in [o for o in bound if o.name == "constant" and o.loc != first.loc and o.loc is not None]:
            bound.remove(c)
            at = next((k for k, h in enumerate(hoisted) if h.loc is not None and
                       (h.loc.line, h.loc.col) > (c.loc.line, c.loc.col)), len(hoisted))
            hoisted.insert(at, c)
        block.ops = ops[:start] + hoisted + bound + [first] + second_run + ops[j:]
        if same:
            _replace(body, same)


def _holding(block: TBlock, op) -> Optional[TBlock]:
    if op is None:
        return None
    if op in block.ops:
        return block
    for o in block.ops:
        for r in o.regions:
            found = _holding(r, op)
            if found is not None:
                return found
    return None


def _same_op(a: TOp, b: TOp, same: Dict[int, object]) -> bool:
    if a.name != b.name or a.regions or b.regions or a.attrs != b.attrs or a.loc != b.loc:
        return False
    if [r.type for r in a.results] != [r.type for r in b.results] or a.args.keys() != b.args.keys():
        return False
    return all(_same_value(x, y, same) for x, y in zip(a.args.values(), b.args.values()))


def _same_value(x, y, same) -> bool:
    if isinstance(x, list) or isinstance(y, list):
        return isinstance(x, list) and isinstance(y, list) and len(x) == len(y) and \
            all(_same_value(p, q, same) for p, q in zip(x, y))
    return x is same.get(id(y), y)


def _replace(block: TBlock, same: Dict[int, object]) -> None:
    for o in block.ops:
        for k, v in o.args.items():
            if isinstance(v, list):
                o.args[k] = [same.get(id(x), x) for x in v]
            elif v is not None:
                o.args[k] = same.get(id(v), v)
        for r in o.regions:
            _replace(r, same)
