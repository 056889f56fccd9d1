"""Compile-time Python inside tile code: static_eval/assert/iter/exception, tuples, f-strings.

`ct.static_eval(expr)` and friends evaluate `expr` at compile time with the restricted
evaluator of `tilescope.pyeval` (as Python only when the user trusts the code: trusted.py).
Local variables that hold run-time values are passed in as proxies that expose
only what is known statically (shape, dtype, ndim).
"""
from __future__ import annotations

import ast
import dataclasses
import types
from typing import Any, List

from ...errors import (Loc, StaticException, TileError, TileInternalError, TileStaticAssertionError,
                      TileStaticEvalError, TileTypeError)
from ...frontend import hir as H
from ...ir.core import Value
from ...ir.types import ArrayType, TileType
from ...pyeval import EvalControl, Evaluator, ForbiddenCall, Host, OverBudget, Refused
from ...pyeval.functions import ResolverScope
from ...pyeval.policy import module_attribute
from ...lang.bridge import translate

STATIC_SURFACE = frozenset({"static_eval", "static_assert", "static_iter", "static_exception"})
MAX_STATIC_ITER = 1000


class StaticProxy:
    """What compile-time Python sees of a run-time value: shape, dtype and ndim are known;
    operators build IR in the kernel being compiled, as cuTile's symbolic tiles do."""

    def __init__(self, value: Value, ctx):
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_ctx", ctx)

    def __getattr__(self, name: str) -> Any:
        t = self._value.type
        if isinstance(t, (TileType, ArrayType)):
            if name == "dtype":
                return t.dtype
            if name == "ndim":
                return t.ndim
            if name == "shape" and isinstance(t, TileType):
                return t.shape
        # Other attributes (array shapes, methods) resolve as in tile code; methods come
        # back as callables that may be passed around but not called at compile time.
        return _to_static(self._ctx, self._ctx.getattr(self._value, name))

    # upstream's wording for symbolic tiles used as concrete Python values
    def __bool__(self):
        raise ValueError("Symbolic tile has no concrete value and thus cannot be converted to boolean")

    def __index__(self):
        raise ValueError("Symbolic tile has no concrete value and thus cannot be converted to an integer")

    __int__ = __index__

    def __float__(self):
        raise ValueError("Symbolic tile has no concrete value and thus cannot be converted to a float")

    def __repr__(self) -> str:
        t = self._value.type
        if isinstance(t, TileType):
            return f"<tile[{t.dtype.name}, {t.shape!r}]>"
        if isinstance(t, ArrayType):
            dims = [str(d) if known else "?" for d, known in
                    zip(t.shape or (None,) * t.ndim, t.static_shape or (False,) * t.ndim)]
            return f"<array[{t.dtype.name}, ({', '.join(dims)})]>"
        return f"<{t}>"


def _proxy_binary(op: str, reflected: bool):
    def fn(self, other):
        ctx = self._ctx
        a, b = _from_static(self), _from_static(other)
        if reflected:
            a, b = b, a
        return _to_static(ctx, ctx.binary(op, a, b))
    return fn


def _proxy_compare(op: str):
    def fn(self, other):
        ctx = self._ctx
        return _to_static(ctx, ctx.compare(op, _from_static(self), _from_static(other)))
    return fn


def _proxy_unary(op: str):
    def fn(self):
        ctx = self._ctx
        return _to_static(ctx, ctx.unary(op, _from_static(self)))
    return fn


for _op, _dunder in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "truediv"),
                     ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow"), ("matmul", "matmul"),
                     ("lshift", "lshift"), ("rshift", "rshift"), ("and_", "and"), ("or_", "or"),
                     ("xor", "xor")):
    setattr(StaticProxy, f"__{_dunder}__", _proxy_binary(_op, False))
    setattr(StaticProxy, f"__r{_dunder}__", _proxy_binary(_op, True))
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(StaticProxy, f"__{_op}__", _proxy_compare(_op))
for _op, _dunder in (("neg", "neg"), ("pos", "pos"), ("invert", "invert")):
    setattr(StaticProxy, f"__{_dunder}__", _proxy_unary(_op))
StaticProxy.__hash__ = object.__hash__


class _StaticCallable:
    """A tile-code callable (nested function, bound method) seen from compile-time Python."""

    def __init__(self, target: Any, desc: str):
        self.target, self.desc = target, desc

    def __call__(self, *args, **kwargs):
        raise ForbiddenCall(self.desc)

    def __repr__(self) -> str:
        return self.desc


def _callable_desc(x: Any) -> str | None:
    """How upstream names a tile-code callable in 'cannot be called' errors, or None."""
    from . import BoundMethod, Closure
    if isinstance(x, Closure):
        loc = getattr(x.fn, "loc", None)
        where = f" @{loc.filename.rsplit('/', 1)[-1]}:{loc.line}" if loc is not None else ""
        if x.fn.name == "<lambda>":
            return f"<lambda{where}>"
        return f"<function '{x.fn.name}'{where}>"
    if isinstance(x, BoundMethod):
        target = x.target
        name = getattr(target, "name", None) or getattr(target, "__name__", "method")
        return f"{name}()"
    return None


def _check_static_visible(ctx, x: Any) -> None:
    """Only tiles and arrays have a compile-time view (as cuTile's symbolic values)."""
    if isinstance(x, tuple):
        for i in x:
            _check_static_visible(ctx, i)
    elif isinstance(x, Value) and x.const is None and not isinstance(x.type, (TileType, ArrayType)):
        raise ctx.type_error(f"Objects of type {x.type} are not supported at compile time")


def _to_static(ctx, x: Any) -> Any:
    t = type(x)
    if t is Value:
        # A known scalar is its Python value; a tile (even a constant splat) stays a proxy.
        scalar = isinstance(x.type, TileType) and not x.type.shape
        return x.const if x.const is not None and scalar else StaticProxy(x, ctx)
    if t is tuple:
        return tuple(_to_static(ctx, i) for i in x)
    if t is dict:
        return {k: _to_static(ctx, v) for k, v in x.items()}
    if t in _PLAIN or t is StaticProxy:
        return x
    desc = _callable_desc(x)
    if desc is not None:
        return _StaticCallable(x, desc)
    return x


_PLAIN = frozenset({int, float, bool, str, type(None)})


def _from_static(x: Any) -> Any:
    t = type(x)
    if t is _StaticCallable:
        return x.target
    if t is StaticProxy:
        return object.__getattribute__(x, "_value")
    if t is tuple or t is list:
        return tuple(_from_static(i) for i in x)
    if t is dict:
        return {k: _from_static(v) for k, v in x.items()}
    if dataclasses.is_dataclass(t) and not isinstance(x, type):
        fields = {f.name: object.__getattribute__(x, f.name) for f in dataclasses.fields(t)
                  if _has_field(x, f.name)}
        converted = {k: _from_static(v) for k, v in fields.items()}
        if any(converted[k] is not fields[k] for k in fields):
            from ..values import make_dataclass_instance
            return make_dataclass_instance(t, converted)
        return x
    return translate(x)


def _has_field(obj: Any, name: str) -> bool:
    try:
        object.__getattribute__(obj, name)
        return True
    except AttributeError:
        return False


class _KernelHost(Host):
    """The kernel being compiled, as compile-time Python's evaluator sees it."""

    def __init__(self, ctx):
        self.ctx = ctx

    def adapt(self, value: Any) -> Any:
        return _to_static(self.ctx, value)

    def call(self, fn: Any, args, kwargs) -> Any:
        from ...ops.registry import SurfaceFunction
        if isinstance(fn, SurfaceFunction):
            result = self.ctx.call_surface(fn.name, [_from_static(a) for a in args],
                                           {k: _from_static(v) for k, v in kwargs.items()})
            return _to_static(self.ctx, result)
        if isinstance(fn, _StaticCallable):
            raise ForbiddenCall(fn.desc)
        return super().call(fn, args, kwargs)

    def unknown(self, name: str, value: Any) -> Any:
        from ...frontend.static_module import unknown_value_error
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
        from .trusted import trusted_python
        value = trusted_python(ctx, node, what)
        return finish(None, value) if finish is not None else value
    ev = _evaluator(ctx)

    def resolve(name: str):
        try:
            value = ctx.lookup(name)
        except TileError as e:
            from ...frontend.static_module import is_unknown_error
            if is_unknown_error(e) or isinstance(e, TileTypeError):
                raise
            return False, None          # not a variable of the kernel: a built-in, or a NameError
        _check_static_visible(ctx, value)
        return True, _to_static(ctx, value)

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
                                         f"({_type_and_str(ex)})") from None


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


def _type_and_str(ex: BaseException) -> str:
    s = str(ex)
    return f"{type(ex).__name__}: {s}" if s else type(ex).__name__


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
        return _from_static(result)
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
    from ...pyeval.objects import to_str
    return str(value) if ev is None else to_str(ev, value)


def static_iter_items(ctx, call: H.Call) -> List[Any]:
    raw_node = getattr(call, "raw", None)
    if raw_node is None:
        return drain(ctx, ctx.eval(call.args[0]), _evaluator(ctx))
    return static_python(ctx, raw_node.args[0], "static_iter() iterable",
                         finish=lambda ev, value: drain(ctx, value, ev))


def drain(ctx, value, ev=None) -> List[Any]:
    """The items of a static_iter() iterable (at most MAX_STATIC_ITER), with upstream's errors."""
    from ...pyeval import objects as ops
    try:
        it = iter(value) if ev is None else ops.iterate(ev, value)
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
        items.append(_from_static(x))
    raise ctx.error(TileStaticEvalError, f"Maximum number of iterations ({MAX_STATIC_ITER}) has been "
                                         f"reached while unpacking the static_iter() iterable")


def raise_static_exception(ctx, exc: Any) -> None:
    from . import _PendingException
    from ...pyeval.calls import construct
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
    raise ctx.error(StaticException, f"Exception was raised at compile time ({_type_and_str(exc)})")


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
    from ...pyeval.objects import format_value
    try:
        return format_value(_evaluator(ctx), value, spec)
    except Refused as ex:
        raise refusal_error(ctx, ex, "an f-string") from None


def _tuple_has_tile(t: tuple) -> bool:
    return any(_tuple_has_tile(x) if isinstance(x, tuple) else
               (isinstance(x, Value) and isinstance(x.type, TileType)) for x in t)


def _is_number(x: Any) -> bool:
    import enum
    return isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum)


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


def contains(ctx, item: Any, container: Any) -> Any:
    if isinstance(container, dict):          # `"foo" in kwargs`: keys are compile-time strings
        key = ctx.require_constant(item, "the key of 'in'")
        if type(key) not in _PLAIN:
            raise ctx.type_error(f"'in' on a dict needs a string or number key, got {type(key).__name__}")
        return key in container
    if not isinstance(container, tuple):
        raise ctx.type_error(f"'in' needs a tuple on the right in tile code")
    result: Any = False
    for x in container:
        eq = ctx.compare("eq", item, x)
        if isinstance(eq, Value) and isinstance(eq.type, TileType) and eq.type.shape:
            raise ctx.type_error(f"'in' requires scalar operands, but got shape {eq.type.shape}")
        b = ctx.to_bool(eq)
        if not isinstance(b, Value):
            if b:
                return True
            continue
        result = b if result is False else ctx.call_surface("bitwise_or", [result, b], {})
    return result


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
    result: Any = True
    for a, b in zip(left, right):
        eq = ctx.compare("eq", a, b)
        if isinstance(eq, Value):
            if eq.type.shape:
                raise ctx.type_error("tuple comparison needs scalar items, got a tile of shape "
                                     f"{eq.type.shape}")
            result = eq if result is True else ctx.call_surface("bitwise_and", [result, eq], {})
        elif not eq:
            result = False
            break
    if op == "ne":
        return ctx.unary("not_", result)
    return result


def tuple_comprehension(ctx, e: H.GeneratorExp) -> tuple:
    from . import Frame
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
    try:
        return _from_static(operation(ev, *args))
    except ForbiddenCall as ex:
        raise ctx.error(TileStaticEvalError, f"{ex.desc} cannot be {ex.verb} at compile time.") from None
    except Refused as ex:
        raise refusal_error(ctx, ex, "compile-time Python") from None


def host_truth(ctx, x: Any) -> bool:
    if type(x) in _PLAIN_SCALARS:
        return bool(x)
    from ...pyeval.objects import truth
    return host_python(ctx, truth, x)


def host_compare(ctx, op: str, left: Any, right: Any) -> Any:
    from ...pyeval.objects import compare
    return host_python(ctx, compare, op, left, right)


def host_getattr(ctx, obj: Any, name: str) -> Any:
    from ...pyeval.objects import get_attribute
    if type(obj) is types.ModuleType and not (name.startswith("__") and name.endswith("__")):
        return module_attribute(obj, name)     # (the common `ct.load`: no evaluator needed)
    return host_python(ctx, get_attribute, obj, name)


def host_call(ctx, fn: Any, args, kwargs) -> Any:
    from ...pyeval.calls import call
    return host_python(ctx, call, fn, list(args), dict(kwargs))
