"""Loop-invariant code motion on the TileIR, as upstream runs it before writing bytecode: an op
without effects or regions, in the body of a loop (`for`, `loop`, and the bodies of `reduce` and
`scan`), whose operands are all defined outside it, moves before the loop — out of as many
enclosing loops as its operands allow. Ops in `if` branches stay where they are. The cubin is the
same either way (tileiras hoists too); the TileIR text, which `--lineinfo` embeds in the cubin,
then matches upstream's."""
from __future__ import annotations

from typing import Dict, List

from .ir import TBlock
from .tokens import is_pure

LOOP_BODIES = frozenset({"for", "loop", "reduce", "scan"})


def hoist_invariants(body: TBlock) -> None:
    """Hoist, in place, every loop-invariant pure op of the function body `body`."""
    _block(body, [[]], [False], {})


def _block(block: TBlock, levels: List[list], in_loop: List[bool], depth_of: Dict[int, int]) -> None:
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
                _block(r, levels, in_loop, depth_of)
                r.ops = levels.pop()
                in_loop.pop()
        elif is_pure(op):
            needs = max((depth_of.get(id(v), 0) for v in op.operands), default=0)
            while target > needs and in_loop[target]:
                target -= 1
        levels[target].append(op)
        for res in op.results:
            depth_of[id(res)] = target
    if depth == 0:
        block.ops = levels[0]
