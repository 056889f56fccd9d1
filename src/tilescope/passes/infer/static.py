"""Compile-time Python inside tile code: static_eval/assert/iter/exception, tuples, f-strings.

`ct.static_eval(expr)` and friends evaluate `expr` at compile time with the restricted
evaluator of `tilescope.pyeval` (as Python only when the user trusts the code: trusted.py).
Local variables that hold run-time values are passed in as proxies that expose
only what is known statically (shape, dtype, ndim).
"""
from __future__ import annotations

import ast
import dataclasses
import enum
import types
from typing import Any, List

from ...errors import (Loc, StaticException, TileError, TileInternalError, TileStaticAssertionError,
                      TileStaticEvalError, TileTypeError)
from ...frontend import hir as H
from ...frontend.unknown import is_unknown_error, unknown_value_error
from ...ir.core import Value
from ...ir.types import TileType
from ...ops.context import FormatField, FormatString
from ...ops.registry import SurfaceFunction
from ...pyeval import EvalControl, Evaluator, ForbiddenCall, Host, OverBudget, Refused, objects
from ...pyeval.calls import call, construct
from ...pyeval.functions import ResolverScope
from ...pyeval.policy import module_attribute
from ..bound import plain, rebind
from .abstract import Frame, _PendingException
from .static_values import StaticCallable, StaticProxy, check_static_visible, from_static, to_static, type_and_str
from .trusted import trusted_python

MAX_STATIC_ITER = 1000


class _KernelHost(Host):
    """The kernel being compiled, as compile-time Python's evaluator sees it."""

    def __init__(self, ctx):
        self.ctx = ctx

    def adapt(self, value: Any) -> Any:
        return to_static(self.ctx, value)

    def call(self, fn: Any, args, kwargs) -> Any:
        if isinstance(fn, SurfaceFunction):
            result = self.ctx.call_surface(fn.name, [from_static(a) for a in args],
                                           {k: from_static(v) for k, v in kwargs.items()})
            return to_static(self.ctx, result)
        if isinstance(fn, StaticCallable):
            raise ForbiddenCall(fn.desc)
        return super().call(fn, args, kwargs)

    def unknown(self, name: str, value: Any) -> Any:
        raise unknown_value_error(self.ctx, name, value)


def _evaluator(ctx) -> Evaluator:
    return Evaluator(host=_KernelHost(ctx), filename=ctx.loc.filename if ctx.loc else "<static>")


def static_python(ctx, node: ast.expr, what: str, finish=None) -> Any:
    """Evaluate a Python expression (AST) at compile time with the current locals.

    The evaluator of `tilescope.pyeval` runs it (nothing of the user's code is called); with
    `ctx.trust` (the user's explicit opt-in) it runs as ordinary Python instead. `finish(ev,
    value)`, when given, post-processes the value under the same error handling."""
    for n in ast.walk(node):
        if isinstance(n, ast.NamedExpr):
            raise ctx.syntax_error(f"{what} expression attempted to modify a local variable "
                                   f"'{n.target.id}'")
    if getattr(ctx, "trust", False):
        value = trusted_python(ctx, node, what)
        return finish(None, value) if finish is not None else value
    ev = _evaluator(ctx)

    def resolve(name: str):
        try:
            value = ctx.lookup(name)
        except TileError as e:
            if is_unknown_error(e) or isinstance(e, TileTypeError):
                raise
            return False, None          # not a variable of the kernel: a built-in, or a NameError
        check_static_visible(ctx, value)
        return True, to_static(ctx, value)

    try:
        value = ev.evaluate(node, ResolverScope(resolve), {}, ev.filename)
        return finish(ev, value) if finish is not None else value
    except TileError:
        raise
    except ForbiddenCall as ex:
        raise ctx.error(TileStaticEvalError, f"{ex.desc} cannot be {ex.verb} inside {what}.") from None
    except Refused as ex:
        raise refusal_error(ctx, ex, what) from None
    except ImportError as ex:     # evaluated code imports nothing: this is tilescope's own failure
        raise ctx.error(TileInternalError, f"internal error while evaluating {what}: {ex}") from ex
    except Exception as ex:  # the evaluated code raised (ZeroDivisionError...)
        raise ctx.error(StaticException, f"Exception was raised inside {what} "
                                         f"({type_and_str(ex)})") from None


def refusal_error(ctx, ex: Refused, what: str) -> TileError:
    """A located TileStaticEvalError saying why compile-time Python was not evaluated."""
    loc = None
    node = ex.node
    if node is not None and getattr(node, "lineno", None):
        filename = ex.filename or (ctx.loc.filename if ctx.loc else "<static>")
        loc = Loc(filename, node.lineno, node.col_offset + 1,
                  getattr(node, "end_lineno", None), (node.end_col_offset + 1) if
                  getattr(node, "end_col_offset", None) is not None else None)
    kind = "exceeded its budget" if isinstance(ex, OverBudget) else "was not evaluated"
    return ctx.error(TileStaticEvalError, f"{what} {kind}: {ex.reason} (see docs/reliability.md)", loc)




def call_static(ctx, fn, call: H.Call) -> Any:
    raw = getattr(call, "raw", None)
    name = fn.name
    if raw is None:
        raise ctx.syntax_error(f"{name}() must be called directly by name, e.g. ct.{name}(...)")
    f = raw.func
    if not ((isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name)):
        # An alias (`f = ct.static_eval; f(x)`) would evaluate its argument as tile code.
        raise ctx.syntax_error(f"{name}() must be used directly by name, e.g. cuda.tile.{name}() "
                               f"or ct.{name}().")
    if name == "static_eval":
        if len(raw.args) != 1 or raw.keywords:
            raise ctx.syntax_error("static_eval() expects a single expression (one positional argument)")
        result = static_python(ctx, raw.args[0], "static_eval()")
        if dataclasses.is_dataclass(result) and not isinstance(result, type):
            params = getattr(type(result), "__dataclass_params__", None)
            if params is not None and not params.frozen:
                raise ctx.type_error("Only frozen dataclasses are supported")
        return rebind(from_static(result), ctx.site)
    if name == "static_assert":
        if len(raw.args) not in (1, 2) or raw.keywords:
            raise ctx.syntax_error("static_assert(cond, msg=None, /) expects one or two positional arguments")
        cond = static_python(ctx, raw.args[0], "static_assert() condition")
        if isinstance(cond, StaticProxy):
            raise ctx.type_error("static_assert() condition must be a compile-time constant")
        if type(cond).__module__ == "numpy" and type(cond).__name__ == "bool_":
            cond = bool(cond)
        if not isinstance(cond, bool):
            raise ctx.type_error(f"static_assert() condition must be a boolean, not {type(cond).__name__}")
        if not cond:
            msg = ""
            if len(raw.args) > 1:
                msg = static_python(ctx, raw.args[1], "static_assert() message",
                                    finish=lambda ev, m: "" if m is None else _text(ev, m))
            raise ctx.error(TileStaticAssertionError, "Static assertion failed" + (": " + msg if msg else ""))
        return None
    raise ctx.syntax_error(f"{name}() is not expected here")


def _text(ev, value: Any) -> str:
    """str(value), by the evaluator (a user __str__ is interpreted) unless trusted (ev is None)."""
    return str(value) if ev is None else objects.to_str(ev, value)


def static_iter_items(ctx, call: H.Call) -> List[Any]:
    raw_node = getattr(call, "raw", None)
    if raw_node is None:
        return drain(ctx, ctx.eval(call.args[0]), _evaluator(ctx))
    return static_python(ctx, raw_node.args[0], "static_iter() iterable",
                         finish=lambda ev, value: drain(ctx, value, ev))


def drain(ctx, value, ev=None) -> List[Any]:
    """The items of a static_iter() iterable (at most MAX_STATIC_ITER), with upstream's errors."""
    try:
        it = iter(value) if ev is None else objects.iterate(ev, value)
    except EvalControl:
        raise
    except Exception as ex:
        raise ctx.type_error(f"Invalid static_iter() iterable: {ex}") from None
    items = []
    for i in range(MAX_STATIC_ITER + 1):
        try:
            x = next(it)
        except StopIteration:
            return items
        except EvalControl:
            raise
        except Exception as ex:
            raise ctx.type_error(f"Error was raised while obtaining item #{i} from the static_iter() "
                                 f"iterable: {ex}") from None
        if isinstance(x, (list, dict, set)):
            raise ctx.error(TileStaticEvalError, f"Invalid item #{i} of static_iter() iterable: "
                                                 f"Cannot create constant from value of type {type(x).__name__}.")
        items.append(from_static(x))
    raise ctx.error(TileStaticEvalError, f"Maximum number of iterations ({MAX_STATIC_ITER}) has been "
                                         f"reached while unpacking the static_iter() iterable")


def raise_static_exception(ctx, exc: Any) -> None:
    ev = _evaluator(ctx)
    if isinstance(exc, _PendingException):
        try:
            args = [ctx.require_constant(a, "an exception argument") for a in exc.args]
            exc = construct(ev, exc.cls, args, dict(exc.kwargs))
        except TileTypeError:
            raise
        except Refused as ex:
            raise refusal_error(ctx, ex, "static_exception()") from None
        except Exception as ex:
            exc = ex
    if isinstance(exc, type) and issubclass(exc, BaseException):
        try:
            exc = construct(ev, exc, [], {})
        except Refused as ex:
            raise refusal_error(ctx, ex, "static_exception()") from None
    if not isinstance(exc, BaseException):
        raise ctx.type_error(f"'{type(exc).__name__}' is not derived from 'BaseException'")
    raise ctx.error(StaticException, f"Exception was raised at compile time ({type_and_str(exc)})")


def format_fstring(ctx, e: H.JoinedStr) -> Any:
    """f-strings fold to constant strings unless a field is a number or a tile.

    As in cuTile, a numeric field (even a compile-time constant) stays a field to be
    formatted at run time, so such an f-string is only valid in print(); other
    constant fields (strings, None, dtypes...) are formatted now.
    """
    parts: List[Any] = []
    for p in e.parts:
        if isinstance(p, str):
            parts.append(p)
            continue
        if p.conversion not in (None, -1):
            raise ctx.syntax_error("f-string: !r, !s, !a conversions are not supported")
        v = ctx.eval(p.value)
        spec = "" if p.format_spec is None else ctx.eval(p.format_spec)
        if not isinstance(spec, str):
            raise ctx.syntax_error("f-string: format spec must be a literal string")
        if isinstance(v, Value) and isinstance(v.type, TileType) or _is_number(v):
            parts.append(FormatField(v, p.conversion, spec))
            continue
        if isinstance(v, Value) and v.const is None:
            parts.append(FormatField(v, p.conversion, spec))
            continue
        if isinstance(v, tuple) and not spec and _tuple_has_tile(v):
            # `f"{(nx, ny)}"`: print() formats the tuple, its tiles as run-time fields.
            parts.append(FormatField(v, p.conversion, spec))
            continue
        v = v.const if isinstance(v, Value) else v
        try:
            parts.append(host_format(ctx, v, spec))
        except (ValueError, TypeError) as ex:
            raise ctx.value_error(f"invalid format specification: {ex}") from None
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    return FormatString(tuple(parts))


def host_format(ctx, value: Any, spec: str) -> str:
    """format(value, spec) of a compile-time value, by the evaluator (user __format__ interpreted)."""
    try:
        return objects.format_value(_evaluator(ctx), value, spec)
    except Refused as ex:
        raise refusal_error(ctx, ex, "an f-string") from None


def _tuple_has_tile(t: tuple) -> bool:
    return any(_tuple_has_tile(x) if isinstance(x, tuple) else
               (isinstance(x, Value) and isinstance(x.type, TileType)) for x in t)


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum)


def contains(ctx, item: Any, container: Any) -> Any:
    if isinstance(container, dict):          # `"foo" in kwargs`: keys are compile-time strings
        key = ctx.require_constant(item, "the key of 'in'")
        if type(key) not in _PLAIN_SCALARS:
            raise ctx.type_error(f"'in' on a dict needs a string or number key, got {type(key).__name__}")
        return key in container
    if not isinstance(container, tuple):
        raise ctx.type_error(f"'in' needs a tuple on the right in tile code")
    # as upstream: or-ed in order from the first comparison; a comparison known true decides
    result: Any = None
    for x in container:
        eq = ctx.compare("eq", item, x)
        if isinstance(eq, Value) and isinstance(eq.type, TileType) and eq.type.shape:
            raise ctx.type_error(f"'in' requires scalar operands, but got shape {eq.type.shape}")
        if not isinstance(eq, Value) and eq:
            return eq
        result = eq if result is None else _logical(ctx, "bitwise_or", result, eq)
    return False if result is None else result


def _logical(ctx, fn: str, a: Any, b: Any) -> Any:
    """`a & b` / `a | b` of two comparison results (folded when both are known)."""
    if not isinstance(a, Value) and not isinstance(b, Value):
        return (bool(a) and bool(b)) if fn == "bitwise_and" else (bool(a) or bool(b))
    return ctx.call_surface(fn, [a, b], {})


def compare_tuples(ctx, op: str, left: Any, right: Any) -> Any:
    if op not in ("eq", "ne"):
        symbol = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}.get(op, op)
        raise ctx.type_error(f"Operator '{symbol}' is not supported for tuples (only == and !=)")
    if not (isinstance(left, tuple) and isinstance(right, tuple)):
        return op == "ne"
    if len(left) != len(right):
        return op == "ne"
    for x in left + right:
        if isinstance(x, Value) and isinstance(x.type, TileType) and x.type.shape:
            raise ctx.type_error("Tuple comparison is not supported for non-scalar elements")
        if isinstance(x, Value) and not isinstance(x.type, TileType):
            raise ctx.type_error(f"Tuple comparison is not supported for elements of type {x.type}")
    # as upstream: every pair compared first, then and-ed in order starting from True
    eqs = [ctx.compare("eq", a, b) for a, b in zip(left, right)]
    for eq in eqs:
        if isinstance(eq, Value) and eq.type.shape:
            raise ctx.type_error("tuple comparison needs scalar items, got a tile of shape "
                                 f"{eq.type.shape}")
    if any(isinstance(eq, Value) for eq in eqs):
        # a pair known equal or not is a constant made with the comparisons, before the ands
        eqs = [ctx.to_value(eq) for eq in eqs]
    result: Any = True
    for eq in eqs:
        result = _logical(ctx, "bitwise_and", result, eq)
    if op == "ne":
        return ctx.unary("not_", result)
    return result


def tuple_comprehension(ctx, e: H.GeneratorExp) -> tuple:
    out: List[Any] = []
    saved = ctx.frame
    # A comprehension has its own scope (as in Python): lambdas made in it see its loop
    # variable (late binding: its last value), never a later assignment of the same name outside.
    ctx.frame = Frame("<genexpr>", saved.globals, None, None, parent=saved)

    def run(i: int):
        if i == len(e.generators):
            out.append(ctx.eval(e.elt))
            return
        g = e.generators[i]
        for item in static_iter_items(ctx, g.iter):
            ctx.assign(g.target, item)
            if all(_static_truth(ctx, ctx.eval(c)) for c in g.ifs):
                run(i + 1)

    try:
        run(0)
    finally:
        ctx.frame = saved
    return tuple(out)


def _static_truth(ctx, v) -> bool:
    b = ctx.to_bool(v)
    if isinstance(b, Value):
        raise ctx.type_error("Tuple comprehension if-conditions must be statically known; if the "
                             "condition can be evaluated at compile time, wrap it with ct.static_eval()")
    return b


# ---- tile code's own compile-time Python: calls, attributes, comparisons of host values ----

_PLAIN_SCALARS = frozenset({int, float, bool, str, type(None)})


def host_python(ctx, operation, *args) -> Any:
    """Run one `tilescope.pyeval` operation (`objects.get_attribute`, `calls.call`...) on
    compile-time values of tile code, so that a user's method, property or special method is
    interpreted rather than called. Python errors of the evaluated code propagate."""
    ev = _evaluator(ctx)
    args = [plain(a) if type(a) is not dict else {k: plain(v) for k, v in a.items()} for a in args]
    try:
        return from_static(operation(ev, *args))
    except ForbiddenCall as ex:
        raise ctx.error(TileStaticEvalError, f"{ex.desc} cannot be {ex.verb} at compile time.") from None
    except Refused as ex:
        raise refusal_error(ctx, ex, "compile-time Python") from None


def host_truth(ctx, x: Any) -> bool:
    x = plain(x)
    if type(x) in _PLAIN_SCALARS:
        return bool(x)
    return host_python(ctx, objects.truth, x)


def host_compare(ctx, op: str, left: Any, right: Any) -> Any:
    return host_python(ctx, objects.compare, op, left, right)


def host_getattr(ctx, obj: Any, name: str) -> Any:
    if type(obj) is types.ModuleType and not (name.startswith("__") and name.endswith("__")):
        return module_attribute(obj, name)     # (the common `ct.load`: no evaluator needed)
    return host_python(ctx, objects.get_attribute, obj, name)


def host_call(ctx, fn: Any, args, kwargs) -> Any:
    return host_python(ctx, call, fn, list(args), dict(kwargs))
