"""Short cuTile-flavoured descriptions of abstract values (for hovers, hints and completion)."""
from __future__ import annotations

import ast
import enum
import inspect
from typing import Any, Optional

from ... import dtypes as D
from ...frontend.source import SourceFunction
from ...frontend.static_module import UnknownValue
from ...ir.core import Value
from ...ops.registry import SurfaceFunction
from ...passes.infer import BoundMethod, Closure, RangeValue


def describe(value: Any) -> str:
    """A short cuTile-flavoured type of an abstract value."""
    if isinstance(value, Value):
        text = str(value.type)
        if value.const is not None:
            text += f"  (strict constant = {value.const!r})"
        return text
    if isinstance(value, bool) or value is None:
        return f"loose constant {type(value).__name__} = {value!r}"
    if isinstance(value, (int, float)) and not isinstance(value, enum.Enum):
        return f"loose constant {type(value).__name__} = {value!r}"
    if isinstance(value, str):
        return f"constant str = {value!r}"
    if isinstance(value, D.DType):
        return f"dtype {value.name}"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        if all(isinstance(v, (bool, int, float, str, type(None))) for v in value):
            return f"loose constant tuple = {value!r}"
        inner = ", ".join(describe(v) for v in value[:8])
        return "(" + inner + (", ..." if len(value) > 8 else "") + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, SurfaceFunction):
        return f"function ct.{value.name}{value.signature}"
    if isinstance(value, BoundMethod):
        target = value.target
        name = getattr(target, "name", getattr(target, "__name__", "method"))
        return f"method {name} of {describe(value.self_value)}"
    if isinstance(value, SourceFunction):
        kind = "kernel" if value.is_kernel else "function"
        return f"{kind} {value.__name__}{ast_signature_text(value.node)}"
    if isinstance(value, Closure):
        return f"function {value.__name__} (nested)"
    if isinstance(value, RangeValue):
        return "range"
    if isinstance(value, UnknownValue):
        return f"unknown without running the module ({value.reason})"
    if inspect.ismodule(value):
        return "module cuda.tile" if value.__name__ == "tilescope.lang" else f"module {value.__name__}"
    if isinstance(value, type):
        return f"class {value.__name__}"
    return type(value).__name__


def ast_signature_text(node) -> str:
    try:
        return "(" + ast.unparse(node.args) + ")"
    except Exception:
        return "(...)"


def documented(value: Any) -> Any:
    """The tilescope function whose docstring describes `value`, or None."""
    if isinstance(value, BoundMethod):
        value = value.target
    return value if isinstance(value, SurfaceFunction) else None


def doc_of(value: Any) -> Optional[str]:
    fn = documented(value)
    return inspect.cleandoc(fn.__doc__ or "") if fn is not None else None


def short_type(value) -> Optional[str]:
    """The IR type of a value (or a tuple of values) for an inlay hint, or None."""
    if isinstance(value, Value):
        return str(value.type)
    if isinstance(value, tuple) and value and all(isinstance(v, Value) for v in value):
        return "(" + ", ".join(str(v.type) for v in value) + ")"
    return None
