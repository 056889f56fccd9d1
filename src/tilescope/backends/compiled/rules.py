"""The compiled backend's rule table: one C generator per primitive, keyed by primitive name.

`RULES[name](g, op)` writes the C for one op through the kernel generator `g`
(kernel_gen.KernelGen: operand values, new buffers, element loops, reports). A primitive
missing here makes a kernel run on the NumPy executor, with the reason given. The table is
filled by the family modules imported at the bottom.
"""
from __future__ import annotations

from typing import Callable, Dict

RULES: Dict[str, Callable] = {}


def rule(*names: str):
    """Decorator: the C generator of the primitives `names`."""
    def wrap(fn: Callable) -> Callable:
        for n in names:
            RULES[n] = fn
        return fn
    return wrap


from . import (rules_atomic, rules_debug, rules_elementwise, rules_gather, rules_matmul, rules_memory,  # noqa: E402,F401,E501
               rules_misc, rules_reduce, rules_shape)  # noqa: F401
