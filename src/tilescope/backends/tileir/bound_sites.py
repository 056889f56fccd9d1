"""Constants made where upstream's front end binds their numbers.

Upstream makes a compile-time number's typed constant once, where it evaluates it — a literal where
the expression reads it (`i = 0` before a loop, a tuple or dataclass field, a helper's argument), a
`ct.Constant` parameter at the kernel's `def` — and every use of the value in that type reads that
constant. tilescope's typed IR makes a `const` op at each use instead; the front end records on it
where the number was bound (`Op.origin`, a `Site`). On the lowering's copy of the IR, `place_bound`
makes one `const` op per site, at the site (with its location), for all the uses it dominates; a
use it does not dominate (the number was bound in a branch or a loop body the use is outside of)
keeps its own constant. The constants of parameters are returned instead, in parameter order, for
the lowering to make among the arrays' views.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ...ir.core import Block, Function, Op, Site


def _position(site: Site, index: Dict[int, int]) -> Optional[int]:
    """Where in its block (`index`: op id -> position there) the site's constant goes: after the
    nearest op before it that is still there, else before the nearest one after it (None: all
    gone)."""
    for op in site.after:
        if id(op) in index:
            return index[id(op)] + 1
    if not site.after and site.index == 0:
        return 0
    for op in site.before:
        if id(op) in index:
            return index[id(op)]
    return None


def place_bound(fn: Function) -> List[Op]:
    """Move, in place, `fn`'s constants with a site to it; return the parameters' constants,
    taken out of the body."""
    blocks = list(fn.body.nested())
    known = {id(b) for b in blocks}
    parent: Dict[int, Tuple[Block, int]] = {}       # block -> (enclosing block, index of its op)
    home: Dict[int, Tuple[Block, int]] = {}         # op -> (its block, its index)
    for b in blocks:
        for i, op in enumerate(b.ops):
            home[id(op)] = (b, i)
            for inner in op.blocks:
                parent[id(inner)] = (b, i)

    def dominated(op: Op, block: Block, index: int) -> bool:
        b, i = home[id(op)]
        while b is not block:
            if id(b) not in parent:
                return False
            b, i = parent[id(b)]
        return i >= index

    groups: Dict[int, List[Op]] = {}                # site -> its constants, in program order
    places: Dict[int, Optional[int]] = {}
    indexes: Dict[int, Dict[int, int]] = {}
    for b in blocks:
        for op in b.ops:
            site = op.origin
            if op.name != "const" or site is None:
                continue
            if site.param is not None:
                groups.setdefault(id(site), []).append(op)
                continue
            if site.block is None or id(site.block) not in known or not site.anchored:
                continue
            if id(site) not in places:
                if id(site.block) not in indexes:
                    indexes[id(site.block)] = {id(o): i for i, o in enumerate(site.block.ops)}
                places[id(site)] = _position(site, indexes[id(site.block)])
            at = places[id(site)]
            if at is not None and dominated(op, site.block, at):
                groups.setdefault(id(site), []).append(op)
    params: List[Op] = []
    if not groups:
        return params
    same: Dict[int, object] = {}                    # value id -> the site's one constant
    dropped = set()
    inserts: Dict[int, List[tuple]] = {}            # block -> (index, seq, op) to insert
    for ops in groups.values():
        first, site = ops[0], ops[0].origin
        first.loc = site.loc
        for op in ops:
            dropped.add(id(op))
            if op is not first:
                same[op.result.id] = first.result
        if site.param is not None:
            params.append(first)
        else:
            inserts.setdefault(id(site.block), []).append((places[id(site)], site.seq, first))
    for b in blocks:
        new = sorted(inserts.get(id(b), []), key=lambda x: x[:2])
        out, k = [], 0
        for i, op in enumerate(b.ops):
            while k < len(new) and new[k][0] <= i:
                out.append(new[k][2])
                k += 1
            if id(op) not in dropped:
                out.append(op)
        out.extend(x[2] for x in new[k:])
        b.ops = out
        for op in b.ops:
            op.operands = [same.get(v.id, v) for v in op.operands]
    params.sort(key=lambda op: (op.origin.param, op.origin.seq))
    return params
