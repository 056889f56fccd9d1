"""Compile-time Python without running user code.

`ct.static_eval(...)`, `ct.static_assert(...)`, `ct.static_iter(...)`, module globals read from
source, default values and string annotations are Python that the front end evaluates
while compiling. This package evaluates it by interpreting the AST:

- values are Python's own (numbers, strings, tuples...), tilescope's (dtypes, compile-time
  views of tiles) and the user's (dataclass and enum instances, plain objects);
- names resolve in the kernel, the function's closure and module globals, then built-ins;
- no imports (but math/operator/enum/dataclasses/typing/functools/itertools), no dunder
  attributes, no calls but an allow-list of pure built-ins and `cuda.tile` operations --
  Python functions, methods, properties and special methods written by the user are
  interpreted the same way, never called;
- a budget bounds steps, sizes of values, nesting and time (limits.py).

What is refused raises `Refused` (with a reason and the node where it happened); Python
errors of the evaluated code (ZeroDivisionError...) propagate as themselves.
"""
import ast
from typing import Any, Dict

from .interp import Evaluator, Host
from .limits import Budget, EvalControl, ForbiddenCall, OverBudget, Refused

__all__ = ["Budget", "EvalControl", "Evaluator", "ForbiddenCall", "Host", "OverBudget", "Refused",
           "annotation_value"]


def annotation_value(text: str, globals_: Dict[str, Any], filename: str, default: Any = None) -> Any:
    """The value of a string annotation (`from __future__ import annotations`), or `default`
    when it cannot be evaluated without running code."""
    try:
        node = ast.parse(text, filename, mode="eval").body
        return Evaluator(filename=filename).evaluate(node, None, globals_, filename)
    except (EvalControl, SyntaxError, RecursionError, MemoryError, ValueError, TypeError, NameError,
            AttributeError, KeyError, IndexError, ArithmeticError):
        return default
