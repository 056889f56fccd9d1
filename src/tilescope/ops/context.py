"""What a typing rule may ask of the compiler: the `ctx` every rule receives as its first
argument, and the compile-time values inference hands rules besides IR values and constants.

Inference implements it (passes/infer/services.py); rules use nothing else of it (tested:
tests/ops/test_rule_context.py reads every `ctx.<name>` in the op families).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Protocol, Sequence, Tuple

from ..dtypes import DType
from ..errors import TileError
from ..ir.core import Block, Op, Value
from ..ir.types import Type


class RuleContext(Protocol):
    # The tileiras version features are checked for (None: the default, ops/common.DEFAULT_TARGET).
    target_version: Optional[Tuple[int, int]]
    # How many reduce/scan combiner bodies are being built (reductions may not nest).
    combiner_depth: int

    # ---- emitting typed IR -------------------------------------------------------------------
    def emit(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
             **attrs) -> Op: ...

    def emit1(self, name: str, operands: Sequence[Value], result_type: Type, **attrs) -> Value: ...

    def region(self, arg_types: Sequence[Type], body: Callable[..., Any]) -> Tuple[Block, Any]: ...

    def constant(self, value: Any, dtype: DType) -> Value: ...

    def to_value(self, x: Any, dtype: Optional[DType] = None, what: str = "value") -> Value: ...

    # ---- compile-time values -------------------------------------------------------------------
    def const_value(self, x: Any) -> Any: ...

    def require_constant(self, x: Any, what: str) -> Any: ...

    def is_constant(self, x: Any) -> bool: ...

    def to_bool(self, x: Any) -> Any: ...

    def is_callable(self, x: Any) -> bool: ...

    # ---- calling other rules and user functions -------------------------------------------------
    def call(self, fn: Any, args: Sequence[Any], kwargs: Optional[Dict[str, Any]] = None) -> Any: ...

    def call_surface(self, name: str, args: Sequence[Any], kwargs: Dict[str, Any]) -> Any: ...

    # ---- located errors ------------------------------------------------------------------------
    def error(self, cls, message: str, loc=None) -> TileError: ...

    def type_error(self, message: str) -> TileError: ...

    def value_error(self, message: str) -> TileError: ...

    def syntax_error(self, message: str) -> TileError: ...

    def unsupported(self, message: str) -> TileError: ...

    def argument_prefix(self, param: str) -> str: ...


# ---- compile-time values rules receive ---------------------------------------------------------

class FormatField:
    """A `{value:spec}` field of an f-string, formatted when printed."""

    def __init__(self, value: Any, conversion: int, spec: str):
        self.value, self.conversion, self.spec = value, conversion, spec

    def __str__(self) -> str:
        v = self.value.const if isinstance(self.value, Value) else self.value
        if v is None:
            return f"<{self.value.type}>"
        try:
            return format(v, self.spec)
        except (ValueError, TypeError):
            return str(v)


class FormatString:
    """An f-string with fields formatted at run time, consumed by ct.print."""

    def __init__(self, parts):
        self.parts = parts

    def __str__(self) -> str:
        return "".join(str(p) for p in self.parts)
