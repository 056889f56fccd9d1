"""Where arithmetic NaNs must be made canonical.

The GPU's arithmetic returns one canonical NaN whatever its inputs, while NumPy's NaN sign and
payload depend on its code path; the executor therefore rewrites NaNs after arithmetic
(`numerics.canonical_nans`). That costs a pass over every result, and is only needed where a
NaN's bits can still matter: a result read only by other arithmetic (which makes its own NaNs
canonical) or by comparisons (which ignore the bits) can skip it. Stores, selects, reshapes,
bit casts, sign changes, prints and returns see the bits, so results they read keep the
rewrite; a value that a `for` loop carries, an `if` yields, a `where` selects or a reshape,
permute or broadcast moves counts as read wherever it ends up (an accumulator only ever added
to and reduced needs no rewrite).
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Set

from ...ir.core import Function, Op, Value, per_function
from ...semantics.functions import UNARY

# Ops whose float results are fresh arithmetic (unary functions that only move the sign bit,
# like neg and abs, keep their operand's NaN).
CANONICAL_NAN_OPS = frozenset({"binary", "fma", "reduce", "scan", "mma", "mma_scaled"})
_BITS_IGNORED = frozenset({"compare"})
# Ops that only move their operand's elements (the bits arrive unchanged in the result).
_MOVES = frozenset({"reshape", "permute", "broadcast"})


def makes_canonical_nans(op) -> bool:
    if op.name == "unary":
        return not UNARY[op.attrs["fn"]].sign_only
    return op.name in CANONICAL_NAN_OPS


@per_function
def canonical_sites(fn: Function) -> Set[int]:
    """ids of the ops of `fn` whose NaN results must be rewritten."""
    readers = fn.body.readers()
    flows = _flows(fn)
    # Values whose NaN bits something sees, directly or after being carried through loops and
    # branches: found backwards from the readers that see bits.
    visible: Set[int] = set()
    for v_id, users in readers.items():
        for r in users:
            if not (makes_canonical_nans(r) or r.name in _BITS_IGNORED) and id(r) not in flows.carriers:
                visible.add(v_id)
    changed = True
    while changed:
        changed = False
        for v_id, targets in flows.into.items():
            if v_id not in visible and any(t in visible for t in targets):
                visible.add(v_id)
                changed = True
    return {id(op) for op in fn.walk() if makes_canonical_nans(op) and any(v.id in visible for v in op.results)}


class _Flows:
    """Where values travel unchanged: `into[value id]` lists the values it becomes (a `for` loop's
    body argument and result, an `if`'s or a `where`'s result, a moved copy); `carriers` are
    the ops that only carry."""

    def __init__(self):
        self.into: Dict[int, List[int]] = {}
        self.carriers: Set[int] = set()

    def add(self, carrier: Op, sources: Sequence[Value], *targets: Sequence[Value]) -> None:
        self.carriers.add(id(carrier))
        for i, v in enumerate(sources):
            self.into.setdefault(v.id, []).extend(t[i].id for t in targets)


def _flows(fn: Function) -> _Flows:
    flows = _Flows()
    for op in fn.walk():
        if op.name == "for":
            body = op.blocks[0]
            flows.add(op, op.operands[3:], body.args[1:], op.results)
            end = body.ops[-1] if body.ops else None
            if end is not None and end.name == "continue":
                flows.add(end, end.operands, body.args[1:], op.results)
        elif op.name == "where":                # picks bits from x or y unchanged (cond is bool)
            flows.add(op, op.operands[1:3], [op.results[0]] * 2)
        elif op.name in _MOVES:
            flows.add(op, op.operands[:1], op.results)
        elif op.name == "if":
            for block in op.blocks:
                end = block.ops[-1] if block.ops else None
                if end is not None and end.name == "yield":
                    flows.add(end, end.operands, op.results)
    return flows
