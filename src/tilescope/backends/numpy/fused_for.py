"""Running a loop that qualifies for joined products (fusion.py): each chunk's `mma`s become
one product over the concatenated K, its operand tiles read once per chunk where they form one
tile (chunk_loads.py)."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from ...ir.core import Op
from . import chunk_loads, grid
from .fusion import chunk_iterations


def run_fused_for(ex, op: Op, chain: List[Op]) -> bool:
    """Run a qualifying loop with its products joined; False (nothing run) for a loop that
    would not end (a step that is not positive: the ordinary path reports it)."""
    start, stop, step = (int(ex.get(v).reshape(-1)[0]) for v in op.operands[:3])
    if step <= 0:
        return False
    body = op.blocks[0]
    iv_arg = body.args[0]
    accs = [ex.get_raw(v) for v in op.operands[3:]]
    which = {id(m): k for k, m in enumerate(chain)}
    pending: List[List[tuple]] = [[] for _ in chain]
    loads = chunk_loads.chunkable_loads(ex.fn).get(id(op), {})
    whole: List[Optional[dict]] = [None] * len(chain)     # per mma: this chunk's tiles read whole
    idt = iv_arg.type.dtype.numpy

    def flush(k: int) -> None:
        mma, parts = chain[k], list(zip(*pending[k]))
        pending[k] = []
        operands = []
        for pos, axis in ((0, -1), (1, -2)):
            load = mma.operands[pos].owner
            if whole[k] is not None and id(load) in whole[k]:
                operands.append(chunk_loads.load_chunk(ex, load, whole[k][id(load)]))
            else:
                vals = parts[pos]
                operands.append(vals[0] if len(vals) == 1 else grid.concat(vals, axis, ex.box))
        whole[k] = None
        ex.op = mma
        accs[k] = ex.rule_output(mma, ex.rule_of(mma)(ex, mma, *operands, accs[k]))

    for a, v in zip(body.args[1:], accs):
        ex.set(a, v)                            # only the deferred mmas read them
    for i in range(start, stop, step):
        ex.set(iv_arg, np.array([i], dtype=np.int64).astype(idt))
        if loads:
            for k, mma in enumerate(chain):
                if not pending[k]:
                    whole[k] = chunk_loads.plan(ex, loads, k, i, chunk_iterations(mma), stop, step)
        for o in body.ops[:-1]:
            k = which.get(id(o))
            if k is None:
                c = loads.get(id(o))
                if c is None or whole[c.mma] is None:
                    ex.exec_op(o)                # (else read once for the whole chunk, at its flush)
                continue
            pending[k].append(tuple(None if whole[k] is not None and id(v.owner) in whole[k] else ex.get_raw(v)
                                    for v in o.operands[:2]))
            if len(pending[k]) == chunk_iterations(o):
                flush(k)
    for k in range(len(chain)):
        if pending[k]:
            flush(k)
    for r, v in zip(op.results, accs):
        ex.set(r, v)
    return True
