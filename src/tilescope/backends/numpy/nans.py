"""Where arithmetic NaNs must be made canonical.

The GPU's arithmetic returns one canonical NaN whatever its inputs, while NumPy's NaN sign and
payload depend on its code path; the executor therefore rewrites NaNs after arithmetic
(`numerics.canonical_nans`). That costs a pass over every result, and is only needed where a
NaN's bits can still matter: a result read only by other arithmetic (which makes its own NaNs
canonical) or by comparisons (which ignore the bits) can skip it. Stores, selects, reshapes,
bit casts, sign changes, prints and control flow all see the bits, so results they read keep
the rewrite.
"""
from __future__ import annotations

from typing import Set

from ...ir.core import Function, per_function
from .numerics import makes_canonical_nans

_BITS_IGNORED = frozenset({"compare"})


@per_function
def canonical_sites(fn: Function) -> Set[int]:
    """ids of the ops of `fn` whose NaN results must be rewritten."""
    readers = fn.body.readers()
    sites: Set[int] = set()
    for op in fn.walk():
        if not makes_canonical_nans(op):
            continue
        if any(not (makes_canonical_nans(r) or r.name in _BITS_IGNORED)
               for v in op.results for r in readers.get(v.id, ())):
            sites.add(id(op))
    return sites
