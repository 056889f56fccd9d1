"""NumPy rules for ops without a family file yet (undef, breakpoint).

Element-wise, math, creation and memory rules (block ids, array metadata, tile loads and
stores) live next to their typing rules in `tilescope.ops`."""
from __future__ import annotations

import numpy as np

from ...ops.registry import numpy_rule
from .executor import Executor, np_dtype


def _result_type(op):
    return op.results[0].type


@numpy_rule("undef")
def _undef(ex: Executor, op):
    t = _result_type(op)
    return np.zeros((1,) + t.shape, dtype=np_dtype(t))


@numpy_rule("breakpoint")
def _breakpoint(ex: Executor, op):
    hook = getattr(ex, "breakpoint_hook", None)
    if hook is not None:
        hook(ex, op)
    return None
