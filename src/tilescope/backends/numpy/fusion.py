"""`for` loops that only accumulate matrix products, run as a few large products.

    acc = ct.zeros(...)
    for k in range(n):
        acc = ct.mma(load(a, k), load(b, k), acc)

is executed with the products of up to `FUSED_K` consecutive K elements joined into one
`mma`: the operand tiles of a chunk are read as one tile where they form one (chunk_loads.py)
and otherwise loaded every iteration and concatenated along K (bounds and race checks either
way), and the accumulator is updated once per chunk. The result is
rounded once per chunk instead of once per iteration (the GPU rounds per tensor-core step,
so both are float32-accurate approximations of it). The chunking depends only on the
kernel and the trip count, never on how blocks are grouped, so vectorised runs, one-block
runs and transpiled modules agree bit for bit.

A loop qualifies when it runs the same iterations in every block: it sits at the top level
of the kernel with no `return` before it, and its bounds depend only on constants, scalar
arguments and array shapes (so no block is ever masked off in it, however blocks are
grouped). Every carried value must be an accumulator used only by one `mma` whose result is
the value carried on, the body must have no side effects, nested control flow or ordered
(acquire) loads, and the accumulator must be float32, float64 or int32 (a float16
accumulator is rounded per K step, which joining would change).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

from ...ir.core import Function, Op, per_function
from ...passes.dce import has_side_effects

FUSED_K = 512               # K elements per fused product, at most (a static bound on memory)

_ACC_DTYPES = frozenset({"float32", "float64", "int32"})

# Ops whose result may differ between blocks even when their operands do not.
_PER_BLOCK = frozenset({
    "bid", "load_tile", "load_advanced", "gather", "tiled_load", "raw_load", "atomic", "atomic_cas",
    "raw_atomic", "raw_atomic_cas", "tiled_atomic",
})

def fused_mmas(fn: Function, op: Op) -> Optional[List[Op]]:
    """The `mma` ops (one per carried value) of a `for` loop of `fn` that qualifies, else None."""
    return _qualifying_loops(fn).get(id(op))


def all_mmas_joined(fn: Function) -> bool:
    """Whether `fn` has `mma`s and every one sits in a loop whose products are joined."""
    mmas = {id(o) for o in fn.walk() if o.name == "mma"}
    joined = {id(m) for op in fn.body.ops for m in fused_mmas(fn, op) or ()}
    return bool(mmas) and mmas <= joined


@per_function
def _qualifying_loops(fn: Function) -> Dict[int, List[Op]]:
    uniform = {v.id for v in fn.body.args}
    found: Dict[int, List[Op]] = {}
    for op in fn.body.ops:
        if op.name == "for" and all(v.id in uniform for v in op.operands[:3]):
            chain = _accumulating(op)
            if chain is not None:
                found[id(op)] = chain
        if any(o.name == "return" for b in op.blocks for o in b.walk()):
            break                                # blocks that returned are masked off after this
        if op.name not in _PER_BLOCK and not op.blocks and all(v.id in uniform for v in op.operands):
            uniform.update(r.id for r in op.results)
    return found


def _ordered(o: Op) -> bool:
    order = o.attrs.get("memory_order")
    return order is not None and getattr(order, "name", order) != "WEAK"


def _accumulating(op: Op) -> Optional[List[Op]]:
    body = op.blocks[0]
    carried = body.args[1:]
    ops = body.ops
    if not carried or len(op.results) != len(carried) or not ops or ops[-1].name != "continue" \
            or len(ops[-1].operands) != len(carried):
        return None
    if any(has_side_effects(o) or o.blocks or _ordered(o) for o in ops[:-1]):
        return None
    readers = body.readers()
    chain = []
    for arg, nxt in zip(carried, ops[-1].operands):
        mma = nxt.owner
        if mma is None or mma.name != "mma" or mma not in ops or mma.operands[2] is not arg \
                or len(readers.get(arg.id, ())) != 1 or len(readers.get(nxt.id, ())) != 1 \
                or mma.results[0].type.dtype.name not in _ACC_DTYPES:
            return None
        chain.append(mma)
    return chain


@per_function
def invariant_operands(fn: Function) -> Set[int]:
    """ids of values defined at the kernel's top level that an `mma` inside a loop multiplies:
    the same array in every iteration (attention's query tile)."""
    top = {v.id for v in fn.body.args} | {r.id for op in fn.body.ops for r in op.results}
    found: Set[int] = set()
    for op in fn.body.ops:
        if op.name in ("for", "loop"):
            found.update(v.id for o in op.blocks[0].walk() if o.name == "mma" for v in o.operands[:2]
                         if v.id in top)
    return found


def chunk_iterations(mma: Op) -> int:
    """Iterations whose products one fused `mma` joins."""
    return max(1, FUSED_K // max(1, mma.operands[0].type.shape[-1]))
