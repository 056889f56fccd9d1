"""HIR → typed IR by abstract interpretation.

The kernel's HIR is interpreted once with abstract values: compile-time Python
objects stay Python objects (constant folding, inlining, static control flow
happen for free), run-time values are IR `Value`s and every operation on them
appends typed ops through the op registry's typing rules. Dynamic `if`, `for`
and `while` become structured ops whose results are the variables they change.

`Inference` is put together from one class per section of the interpreter: services.py (what
typing rules may ask for: the `ctx` they receive), entry.py (kernel parameters), statements.py,
loops.py, expressions.py and calls.py; abstract.py holds the abstract values they pass around.
"""
from __future__ import annotations

import itertools
from typing import List, Optional, Tuple

from ...errors import Loc
from ...ir.core import Builder
from ...ops.registry import SurfaceFunction
from ..values import Closure
from .abstract import BoundMethod, Frame, NotConstant, RangeValue, _PendingException, describe
from .calls import Calls
from .entry import KernelEntry, array_type_of
from .expressions import Expressions
from .loops import Loops
from .services import RuleServices
from .statements import Statements

__all__ = ["Inference", "BoundMethod", "Closure", "Frame", "NotConstant", "RangeValue", "_PendingException",
           "array_type_of", "describe"]


class Inference(RuleServices, KernelEntry, Statements, Loops, Expressions, Calls):
    """Interprets HIR and builds typed IR. Op typing rules receive this object as `ctx` and use
    only what `ops.context.RuleContext` declares."""

    def __init__(self, *, bindings: Optional[list] = None, expressions: Optional[list] = None,
                 target_version: Optional[Tuple[int, int]] = None):
        self.builder: Optional[Builder] = None
        self.target_version = target_version       # tileiras version features are gated on
        # (loc, abstract value) of every evaluated expression, only when asked (the editor's hovers).
        self.expressions = expressions
        self.loc: Optional[Loc] = None
        self.depth = 0
        self.frame: Optional[Frame] = None
        self.inlinings = itertools.count()   # numbers each helper inlining (InlinedScope.specialization)
        self.method_debug_loc = None         # inside a Tile method cuTile writes in Python (method_scopes)
        # (loc, name, abstract value) for every assignment: hover / inlay hints.
        self.bindings = bindings if bindings is not None else []
        # The cuTile functions whose typing rules are running, innermost last (for argument_prefix).
        self._surface_calls: List[SurfaceFunction] = []
        self.combiner_depth = 0       # reduce/scan combiner bodies being built (they may not nest)
