"""The compiled backend's rules: one C generator per primitive, in the primitive table's
`compiled` column (ir/primitive.py).

A rule `rule(g, op)` writes the C for one op through the kernel generator `g`
(kernel_gen.KernelGen: operand values, new buffers, element loops, reports). A primitive
without one makes a kernel run on the NumPy executor, with the reason given. The family
modules (rules_*.py) register their rules when kernel_gen imports them.
"""
from __future__ import annotations

from typing import Callable

from ...ir.primitive import PRIMITIVES
from ...ops import load_all

load_all()          # the primitives are declared by the op families


def rule(*names: str):
    """Decorator: the C generator of the primitives `names`."""
    def wrap(fn: Callable) -> Callable:
        for n in names:
            PRIMITIVES[n].compiled(fn)
        return fn
    return wrap


def rule_for(name: str):
    """The compiled rule of primitive `name`, or None with the table's stated reason."""
    prim = PRIMITIVES.get(name)
    if prim is None:
        return None, f"op '{name}' is not a primitive"
    found = prim.rule("compiled")
    return found, (None if found is not None else f"op '{name}' has no compiled rule ({prim.status('compiled')})")
