"""Per-block choices for control flow that differs between the blocks of a group.

A group runs masked: an `if` whose condition differs between blocks runs both sides and
selects per block; a loop some blocks leave early keeps each block's values from the
iteration it left in. The executor's control flow and transpiled modules' `Branch`/`Loop`
both use these.
"""
from __future__ import annotations

import numpy as np


def select(cond, a, b):
    """Per-block choice between two values; cond has shape (B,) or (1,)."""
    c = cond.reshape(cond.shape + (1,) * (max(a.ndim, b.ndim) - 1))
    return np.where(c, a, b)


def merge(mask, new, old):
    """`new` for the blocks in `mask`, `old` (zeros when there is none yet) for the others."""
    if mask.all():
        return new
    if old is None:
        old = np.zeros_like(new)
    if not mask.any():
        return old
    return select(mask, new, old)
