"""Instructions a block issues, estimated from the IR (model version 5).

tileiras compiles the element accesses of dynamically shaped arrays element by element: every
element a thread loads or stores is its own LDG/STG with its own address arithmetic and
bounds test (tile loads branch around each element, gathers predicate it). The constants below
are instruction counts read from the SASS (`cuobjdump -sass`) of the copy microbenchmarks
(`copy_1d`, `gather_copy_1d`, `gather_copy_1d_unchecked` at 1,024–4,096 elements) and of the
set-A/B streaming kernels (a least-squares fit of their instruction counts),
all built by tileiras 13.4 for sm_90 — counts of the compiler's output, not fitted to any time.
"""
from __future__ import annotations

from .counts import Counts

PER_ELEMENT = 14.0          # per element a thread loads or stores (tile: 14.1, gather: 13.3)
PER_ELEMENT_UNCHECKED = 4.5  # gathers/scatters without bounds checks: straight-line code
PER_BLOCK = 94.0            # block set-up: indices, strides, the exit paths
PER_TRANSCENDENTAL = 20.0   # exp/rcp with their range reduction and conversions
PER_REDUCTION = 18.0        # one tile reduction: shuffle tree, shared-memory exchange, barrier
ISSUE_PER_SM_CLK = 4        # warp instructions an SM issues per clock (four schedulers)


def warp_instructions(counts: Counts, threads: int, copied=lambda a: False) -> float:
    """Warp instructions the whole grid issues for its element accesses (those `copied` by the
    tensor memory accelerator issue none), element-wise arithmetic, transcendentals, reductions
    and per-block set-up."""
    warps = threads / 32
    total = counts.blocks * warps * PER_BLOCK
    for a in counts.accesses:
        if a.kind != "atomic" and not copied(a):
            unchecked = a.kind in ("gather", "scatter") and not a.check_bounds
            total += a.elements * a.executions / 32 * (PER_ELEMENT_UNCHECKED if unchecked else PER_ELEMENT)
    for r in counts.regions:
        runs = float(r.trips.sum())
        w = r.work
        total += runs * ((w.fp32_instr + w.int_ops + w.sfu * PER_TRANSCENDENTAL) / 32
                         + w.reductions * warps * PER_REDUCTION)
    return total
