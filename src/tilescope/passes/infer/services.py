"""What typing rules may ask of inference (`ctx`): emitting ops, located errors, constants."""
from __future__ import annotations

import enum
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from ... import dtypes as D
from ...errors import (InlinedScope, Loc, TileError, TileSyntaxError, TileTypeError, TileUnsupportedFeatureError,
                       TileValueError)
from ...ir.core import Block, Op, Site, Value
from ...ir.types import TileType, Type
from ...ops.common import describe
from ...ops.registry import SURFACE
from ..bound import natural_dtype, plain, site_of
from ..values import Closure
from .abstract import BoundMethod, NotConstant
from .method_scopes import tile_method_loc
from .static import host_truth


class RuleServices:
    """(one section of `Inference`; see passes/infer/__init__.py)"""

    # ---- services for typing rules ------------------------------------------

    def emit(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
             **attrs) -> Op:
        attrs = {k: plain(v) for k, v in attrs.items()}
        return self.builder.add(name, operands, result_types, attrs, loc=self.op_loc())

    def site(self) -> Site:
        """Where a number evaluated now is bound: here, before the next op of the current block."""
        block = self.builder.block
        return Site(self.op_loc(), block, len(block.ops))

    def op_loc(self) -> Optional[Loc]:
        """The current location, inside the inlined helper being run (if any) and its call site."""
        frame, loc = self.frame, self.loc
        if loc is not None and frame is not None and frame.scope is not None:
            loc = replace(loc, call_site=frame.scoped_site, scope=frame.scope)
        if loc is not None and self.method_debug_loc is not None:
            loc = replace(loc, debug=self.method_debug_loc)
        return loc

    def call_tile_method(self, name: str, call):
        """`call()` for the method `name` of a tile, its ops placed in debug info inside cuTile's
        own Python method when cuTile writes it so (see method_scopes)."""
        debug = tile_method_loc(name, self.op_loc(), self.inlinings)
        if debug is None:
            return call()
        saved, self.method_debug_loc = self.method_debug_loc, debug
        try:
            return call()
        finally:
            self.method_debug_loc = saved

    def enter_scope(self, frame, hir_fn, pyfunc=None) -> None:
        """Number `frame` (a helper about to be inlined) as upstream numbers inlinings, and
        record where it is called from."""
        line, col = hir_fn.loc.line, hir_fn.loc.col
        if pyfunc is not None and hir_fn.decorators:      # a module-level function starts at its decorators
            line = min([line] + [d.loc.line for d in hir_fn.decorators])
        frame.scope = InlinedScope(hir_fn.name, hir_fn.loc.filename, line, col, f"s{next(self.inlinings)}")
        frame.scoped_site = self.op_loc()

    def emit1(self, name: str, operands: Sequence[Value], result_type: Type, **attrs) -> Value:
        return self.emit(name, operands, [result_type], **attrs).result

    def error(self, cls, message: str, loc: Optional[Loc] = None) -> TileError:
        loc = loc or self.loc
        if loc is not None and self.frame is not None and self.frame.call_site is not None \
                and loc.call_site is None:
            loc = loc.with_call_site(self.frame.call_site)
        return cls(message, loc)

    def type_error(self, message: str) -> TileError:
        return self.error(TileTypeError, message)

    def value_error(self, message: str) -> TileError:
        return self.error(TileValueError, message)

    def syntax_error(self, message: str) -> TileError:
        return self.error(TileSyntaxError, message)

    def unsupported(self, message: str) -> TileError:
        return self.error(TileUnsupportedFeatureError, message)

    def is_callable(self, x: Any) -> bool:
        """Whether tile code can call `x`: a function (nested ones and lambdas too), a bound
        method, a dtype (a conversion), any other Python callable but a class."""
        return isinstance(x, (Closure, BoundMethod, D.DType)) or (callable(x) and not isinstance(x, type))

    def constant(self, value: Any, dtype: D.DType) -> Value:
        """A strict (typed) scalar constant; one of a bound number in its own type records where
        the number was bound (the TileIR lowering makes it there)."""
        site = site_of(value)
        if site is not None and natural_dtype(value) is not dtype:
            site = None
        value = D.cast_python_scalar(plain(value), dtype)
        op = self.emit("const", (), [TileType(dtype, ())], value=value)
        op.origin = site
        v = op.result
        v.const = value
        return v

    def to_value(self, x: Any, dtype: Optional[D.DType] = None, what: str = "value") -> Value:
        """Materialise a loose Python scalar as a typed scalar Value."""
        if isinstance(x, Value):
            return x
        if isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum):
            dt = dtype or D.literal_dtype(x)
            if dtype is not None and isinstance(x, (int, float)) and not isinstance(x, bool):
                try:
                    D.check_literal_fits(x, dtype)
                except ValueError as e:
                    raise self.value_error(str(e)) from None
            return self.constant(x, dt)
        raise self.type_error(f"expected a tile or a number for {what}, got {describe(x)}")

    def const_value(self, x: Any) -> Any:
        """The compile-time Python value of `x`, or raise if it is only known at run time."""
        if isinstance(x, Value):
            if x.const is None:
                raise NotConstant()
            return x.const
        if isinstance(x, tuple):
            return tuple(self.const_value(i) for i in x)
        return x

    def require_constant(self, x: Any, what: str) -> Any:
        try:
            return self.const_value(x)
        except NotConstant:
            raise self.type_error(f"{what} must be a compile-time constant, got a run-time value "
                                  f"of type {x.type if isinstance(x, Value) else describe(x)}") from None

    def is_constant(self, x: Any) -> bool:
        try:
            self.const_value(x)
            return True
        except NotConstant:
            return False

    def to_bool(self, x: Any) -> Any:
        """Python truth value of a constant, or a bool scalar Value."""
        if not isinstance(x, Value):
            return host_truth(self, x)
        if x.const is not None:
            return bool(x.const)
        t = x.type
        if not isinstance(t, TileType):
            raise self.type_error(f"cannot use a value of type {t} as a condition")
        if t.shape:
            raise self.type_error(f"Expected a scalar value, but given value has type {t}")
        if t.dtype is D.bool_:
            return x
        return self.call_surface("not_equal", [x, 0], {})

    def call(self, fn: Any, args: Sequence[Any], kwargs: Optional[Dict[str, Any]] = None) -> Any:
        """Call any callable reachable from tile code (used by reduce/scan combiners)."""
        return self._call(fn, list(args), dict(kwargs or {}))

    def call_surface(self, name: str, args: Sequence[Any], kwargs: Dict[str, Any]) -> Any:
        return self._call_surface(SURFACE[name], list(args), dict(kwargs))

    def region(self, arg_types: Sequence[Type], body: Callable[..., Any]) -> Tuple[Block, Any]:
        """Build a nested block with typed arguments; `body(*args)` emits into it."""
        block = Block([Value(t) for t in arg_types])
        with self.builder.into(block):
            result = body(*block.args)
        return block, result

    @contextmanager
    def at(self, loc: Optional[Loc]):
        saved = self.loc
        if loc is not None:
            self.loc = loc
        try:
            yield
        finally:
            self.loc = saved
