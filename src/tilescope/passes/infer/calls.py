"""Calls: cuTile functions (their typing rules), Python helpers (inlined), dataclasses,
closures, compile-time Python functions and `@contextmanager` functions."""
from __future__ import annotations

import dataclasses
import enum
import inspect
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

from ... import dtypes as D
from ...errors import Loc, TileError, TileInternalError, TileRecursionError, TileStaticEvalError, TileTypeError
from ...frontend import hir as H
from ...frontend.source import SourceFunction, function_hir, node_hir, unwrap_tile_function
from ...ir.core import Value
from ...ir.types import TileType
from ...ops.bridge import translate
from ...ops.common import callable_name, describe, foreign_dtype
from ...ops.registry import STATIC_FORMS, SurfaceFunction, python_call_rule
from ...pyeval.functions import PyFunction
from ..bound import bind_all
from ..values import Closure, make_dataclass_instance
from . import builtin_calls  # noqa: F401  (registers the rules of Python's built-ins in tile code)
from .abstract import (BoundMethod, ContextManagerCall, Env, Frame, NotConstant, _Exit, _PendingException,
                       _class_member, _dataclass_dunder, _hashable, _is_number)
from .entry import MAX_INLINE_DEPTH, _closure_lookup
from .expressions import _OPERATOR_FUNCTIONS
from .static import call_static, host_call
from .static_values import from_static


class Calls:
    """(one section of `Inference`; see passes/infer/__init__.py)"""

    # ---- calls --------------------------------------------------------------

    def _expr_Call(self, e: H.Call) -> Any:
        fn = self.eval(e.func)
        if isinstance(fn, SurfaceFunction) and fn.name in STATIC_FORMS:
            return call_static(self, fn, e)
        args: List[Any] = self.eval_items(e.args)
        kwargs: Dict[str, Any] = {}
        for k in e.keywords:
            v = self.eval(k.value)
            if k.name is None:
                if not isinstance(v, dict):
                    raise self.type_error(f"'**' needs a mapping, got {describe(v)}")
                kwargs.update(v)
            else:
                kwargs[k.name] = v
        return self._call(fn, args, kwargs)

    def _call(self, fn: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        fn = translate(fn)
        if isinstance(fn, BoundMethod):
            if isinstance(fn.self_value, Value) and isinstance(fn.self_value.type, TileType):
                return self.call_tile_method(fn.name, lambda: self._call(fn.target, [fn.self_value] + args, kwargs))
            return self._call(fn.target, [fn.self_value] + args, kwargs)
        if isinstance(fn, SurfaceFunction):
            return self._call_surface(fn, args, kwargs)
        if fn is dataclasses.replace:
            return self._replace_dataclass(args, kwargs)
        if isinstance(fn, Closure):
            scope = Frame(fn.fn.name, fn.frame.globals, None, None, parent=fn.frame)
            scope.vars = Env(fn.captured)
            return self._inline(fn.fn, fn.frame.globals, None, scope, args, kwargs, defaults=fn.defaults)
        rule = python_call_rule(fn)
        if rule is not None:
            return rule(self, *args, **kwargs)
        inner = unwrap_tile_function(fn)
        if inner is not None:
            fn = inner
        if isinstance(fn, SourceFunction):
            if fn.is_contextmanager:
                return self._context_manager_call(fn, args, kwargs)
            return self._inline(function_hir(fn, is_entry=False), fn.__globals__, None, None, args, kwargs,
                                pyfunc=fn)
        if _is_contextmanager_factory(fn):
            return self._context_manager_call(fn.__wrapped__, args, kwargs)
        if isinstance(fn, types.FunctionType):
            hir_fn = function_hir(fn, is_entry=False)
            return self._inline(hir_fn, fn.__globals__, _closure_lookup(fn), None, args, kwargs,
                                pyfunc=fn)
        if isinstance(fn, PyFunction):       # a function made by compile-time Python (a decorator, a lambda)
            return self._inline(node_hir(fn.node, fn.filename, is_entry=False), fn.globals,
                                _evaluated_closure(fn), None, args, kwargs, defaults=fn.defaults)
        if isinstance(fn, type) and dataclasses.is_dataclass(fn):
            return self._construct_dataclass(fn, args, kwargs)
        if dataclasses.is_dataclass(fn):
            call = _dataclass_dunder(fn, "__call__")
            if call is None:
                raise self.type_error(f"Cannot call an object of type {type(fn).__name__}")
            return self._call(call, [fn] + list(args), kwargs)

        if isinstance(fn, D.DType):
            return self._call_dtype(fn, args, kwargs)
        op_name = _OPERATOR_FUNCTIONS.get(fn) if _hashable(fn) else None
        if op_name is not None and any(isinstance(a, Value) for a in args):
            # `operator.add(x, y)` (e.g. a reduce combiner) is `x + y`
            kind, name = op_name
            if kind == "binary" and len(args) == 2 and not kwargs:
                return self.binary(name, *args)
            if kind == "compare" and len(args) == 2 and not kwargs:
                return self.compare(name, *args)
            if kind == "unary" and len(args) == 1 and not kwargs:
                return self.unary(name, *args)
        if isinstance(fn, types.BuiltinMethodType) and isinstance(fn.__self__, dict) \
                and fn.__name__ in ("get", "keys", "values", "items"):
            # reading a dict (e.g. **kwargs) of compile-time keys; its values may be run-time
            try:
                return fn(*args, **kwargs)
            except TypeError as ex:
                raise self.type_error(f"dict.{fn.__name__}(): {ex}") from None
        if foreign_dtype(fn) is not None:      # `np.float16(x)`, `torch.float32(x)`: as ct.float16(x)
            return self._call_dtype(foreign_dtype(fn), args, kwargs)
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, (types.FunctionType, SourceFunction)):
            return self._call(fn.__func__, [fn.__self__] + args, kwargs)
        return self._call_python(fn, args, kwargs)

    def _context_manager_call(self, fn, args, kwargs) -> ContextManagerCall:
        """A call of a `@contextmanager` function. Upstream inlines contextlib's wrapper (which only
        builds the manager): it takes an inlining number, so the generator's is the next one."""
        next(self.inlinings)
        return ContextManagerCall(fn, args, kwargs)

    def _call_dtype(self, dt: D.DType, args, kwargs):
        """`ct.float16(x)`: convert a scalar; sub-byte dtypes have no constructor."""
        if dt.bitwidth < 8:
            raise self.type_error(f"Cannot call an object of type DTypeSpec(dtype=<DType '{dt.name}'>)")
        if len(args) > 1 or kwargs:
            self._bad_call(dt)
        x = args[0] if args else 0       # `ct.int32()` is 0, as Python's int()
        if isinstance(x, Value) and isinstance(x.type, TileType) and x.type.shape:
            raise self.type_error(f"Expected a scalar value, but given value has type {x.type}")
        if not isinstance(x, Value) or (x.const is not None and isinstance(x.type, TileType)):
            # A constant converts at compile time through the dtype's Python type (int(1.5) == 1).
            const = x.const if isinstance(x, Value) else x
            pytype = bool if dt.is_bool else int if D.is_integral(dt) else float
            try:
                x = pytype(const)
            except (ValueError, TypeError, OverflowError):
                raise self.type_error(f"Invalid argument type for {dt.name}: {describe(const)}") from None
        if dt.is_float and dt.name.endswith("fnu") and _is_number(x) and not isinstance(x, bool):
            # A literal is rounded straight into the unsigned format (no run-time rounding mode).
            if x < 0:
                raise self.value_error("Negative values cannot be represented in an unsigned float format")
            return self.constant(float(x), dt)
        return self.call_surface("astype", [x, dt], {})

    def _bad_call(self, fn):
        raise self.type_error(f"cannot call {describe(fn)} with these arguments")

    def _call_python(self, fn: Any, args, kwargs) -> Any:
        """Other Python callables run at compile time when every argument is a constant."""
        if isinstance(fn, type) and issubclass(fn, BaseException):
            return _PendingException(fn, args, kwargs)
        if not callable(fn):
            raise self.type_error(f"{describe(fn)} is not callable")
        try:
            cargs = [self.const_value(a) for a in args]
            ckw = {k: self.const_value(v) for k, v in kwargs.items()}
        except NotConstant:
            raise self.type_error(f"function {callable_name(fn)} is not supported in tile code "
                                  f"(only cuda.tile functions and Python functions can be called "
                                  f"on run-time values)") from None
        if isinstance(fn, type) and issubclass(fn, enum.Enum):
            pass
        elif isinstance(fn, type) and not _is_pure_callable(fn):
            raise self.error(TileError, f'Creating instances of type "{fn.__name__}" is not supported '
                                        f'in device code')
        elif not _is_pure_callable(fn):
            raise self.error(TileError, f"{callable_name(fn)}() is not supported in device code")
        try:
            return host_call(self, fn, cargs, ckw)
        except TileError:
            raise
        except ValueError as ex:
            if isinstance(fn, type) and issubclass(fn, enum.Enum):
                raise self.value_error(str(ex)) from None   # `Color(99)`: no such member
            raise self.error(TileStaticEvalError, f"{callable_name(fn)}() raised "
                                                  f"{type(ex).__name__}: {ex}") from None
        except Exception as ex:
            raise self.error(TileStaticEvalError, f"{callable_name(fn)}() raised "
                                                  f"{type(ex).__name__}: {ex}") from None

    def _call_surface(self, fn: SurfaceFunction, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        if fn.typing is None:
            raise self.unsupported(f"cuda.tile.{fn.name}() is not supported by tilescope yet")
        if fn.raw_args:
            return fn.typing(self, *args, **kwargs)
        try:
            bound = fn.signature.bind(*args, **kwargs)
        except TypeError as ex:
            raise self.type_error(f"{fn.name}(): {ex}") from None
        self._with_defaults(bound)
        self._surface_calls.append(fn)
        try:
            return fn.typing(self, *bound.args, **bound.kwargs)
        except (TileError, _Exit):
            raise
        except NotConstant:
            raise self.type_error(f"{fn.name}(): an argument that must be a compile-time constant "
                                  f"is a run-time value") from None
        except D.LiteralRangeError as ex:
            # An integer constant no dtype holds (e.g. 2**70): upstream's TileValueError.
            raise self.value_error(str(ex)) from None
        except Exception as ex:
            raise self.error(TileInternalError, f"internal error in the typing rule of "
                                                f"cuda.tile.{fn.name}: {type(ex).__name__}: {ex}") from ex
        finally:
            self._surface_calls.pop()

    def argument_prefix(self, param: str) -> str:
        """`Invalid argument "param" of fn(): ` (`#i` for a positional-only parameter) when `param`
        names a parameter of the cuTile function being typed, else "" (upstream's error phrasing)."""
        if not self._surface_calls:
            return ""
        fn = self._surface_calls[-1]
        for i, p in enumerate(fn.signature.parameters.values(), 1):
            if p.name == param:
                tag = f"#{i}" if p.kind is inspect.Parameter.POSITIONAL_ONLY else f'"{param}"'
                return f"Invalid argument {tag} of {fn.name.rsplit('.', 1)[-1]}(): "
        return ""

    def _check_dataclass_type(self, cls) -> None:
        """The dataclasses tile code can build: frozen, plain generated __init__, no factories."""
        if "__dataclass_fields__" not in cls.__dict__:
            raise self.type_error("Non-dataclass subclasses of a dataclass are not supported")
        params = getattr(cls, "__dataclass_params__", None)
        if params is not None and not params.frozen:
            raise self.type_error("Only frozen dataclasses are supported")
        if cls.__new__ is not object.__new__:
            raise self.type_error("Dataclasses with custom __new__ are not supported")
        init = getattr(cls, "__init__", None)
        code = getattr(init, "__code__", None)
        if params is not None and not params.init or code is None or code.co_filename != "<string>":
            # dataclass() compiles the generated __init__ from a string.
            raise self.type_error("Dataclass instance creation is only supported for dataclasses "
                                  "with a default generated __init__() method.")
        for f in dataclasses.fields(cls):
            if not f.init:
                raise self.type_error("Dataclasses with init=False fields are not supported")
            if f.default_factory is not dataclasses.MISSING:
                raise self.type_error("Dataclasses with default_factory fields are not supported")

    def _construct_dataclass(self, cls, args, kwargs):
        self._check_dataclass_type(cls)
        fields = [f for f in dataclasses.fields(cls) if f.init]
        sig = inspect.Signature([inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                   default=(f.default if f.default is not dataclasses.MISSING
                                                            else inspect.Parameter.empty))
                                 for f in fields])
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as ex:
            raise self.type_error(f"{cls.__name__}(): {ex}") from None
        obj = make_dataclass_instance(cls, self._with_defaults(bound))
        post_init = _class_member(cls, "__post_init__")
        if isinstance(post_init, (types.FunctionType, SourceFunction)):
            self._call(post_init, [obj], {})
        return obj

    def _with_defaults(self, bound: inspect.BoundArguments) -> Dict[str, Any]:
        """The arguments of a call, defaults included: as upstream, a default's numbers are bound
        at the call, in parameter order."""
        given = set(bound.arguments)
        bound.apply_defaults()
        for k, v in bound.arguments.items():
            if k not in given:
                bound.arguments[k] = bind_all(v, self.site)
        return bound.arguments

    def _replace_dataclass(self, args, kwargs):
        """`dataclasses.replace(obj, **changes)` on an abstract dataclass instance."""
        if len(args) != 1 or not dataclasses.is_dataclass(args[0]) or isinstance(args[0], type):
            raise self.type_error("dataclasses.replace() expects a dataclass instance and keyword arguments")
        obj = args[0]
        names = [f.name for f in dataclasses.fields(obj)]
        for k in kwargs:
            if k not in names:
                raise self.type_error(f"Dataclass '{type(obj).__name__}' has no such field '{k}'")
        fields = {n: kwargs[n] if n in kwargs else object.__getattribute__(obj, n) for n in names}
        return make_dataclass_instance(type(obj), fields)

    def _make_closure(self, fn: H.FunctionDef) -> Closure:
        defaults = {}
        for p in fn.params:
            if p.default is not None:
                defaults[p.name] = self.eval(p.default)
        return Closure(fn, self.frame, defaults, {}, _free_names(fn))

    def _inline(self, hir_fn: H.FunctionDef, globals_, closure, parent: Optional[Frame],
                args: List[Any], kwargs: Dict[str, Any], *, defaults=None, pyfunc=None) -> Any:
        if self.depth >= MAX_INLINE_DEPTH:
            raise self.error(TileRecursionError, f"maximum inlining depth ({MAX_INLINE_DEPTH}) exceeded "
                                                 f"while calling '{hir_fn.name}'")
        frame = Frame(hir_fn.name, globals_, closure, hir_fn, parent=parent)
        frame.call_site = self.loc
        if self.frame is not None and self.frame.call_site is not None and frame.call_site is not None:
            frame.call_site = frame.call_site.with_call_site(self.frame.call_site)
        self.enter_scope(frame, hir_fn, pyfunc)
        self._bind_call_args(hir_fn, frame, args, kwargs, defaults, pyfunc)
        if hir_fn.is_generator:
            raise self.type_error(f"generator function '{hir_fn.name}' can only be used through "
                                  f"@contextlib.contextmanager in a 'with' statement")
        saved_frame, saved_loc = self.frame, self.loc
        self.frame = frame
        self.depth += 1
        try:
            try:
                self._exec_body(hir_fn.body)
            except _Exit:
                pass
            return frame.retval
        finally:
            self.depth -= 1
            self.frame, self.loc = saved_frame, saved_loc

    def _bind_call_args(self, hir_fn, frame, args, kwargs, defaults, pyfunc) -> None:
        params = []
        for p in hir_fn.params:
            kind = {"positional_only": inspect.Parameter.POSITIONAL_ONLY,
                    "positional": inspect.Parameter.POSITIONAL_OR_KEYWORD,
                    "var_positional": inspect.Parameter.VAR_POSITIONAL,
                    "keyword_only": inspect.Parameter.KEYWORD_ONLY,
                    "var_keyword": inspect.Parameter.VAR_KEYWORD}[p.kind]
            default = inspect.Parameter.empty
            if pyfunc is not None:
                d = _python_default(pyfunc, p.name)
                if d is not inspect.Parameter.empty:
                    default = translate(d)
            elif defaults and p.name in defaults:
                default = defaults[p.name]
            params.append(inspect.Parameter(p.name, kind, default=default))
        sig = inspect.Signature(params)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as ex:
            raise self.type_error(f"{hir_fn.name}(): {ex}") from None
        for name, value in self._with_defaults(bound).items():
            frame.vars[name] = value
            self.bindings.append((next(p.loc for p in hir_fn.params if p.name == name), name, value))

    def _enter_context(self, mgr: ContextManagerCall):
        fn = mgr.fn
        hir_fn = function_hir(fn, is_entry=False)
        body = hir_fn.body
        idx = [i for i, s in enumerate(body) if isinstance(s, H.Yield)]
        if not idx and not (getattr(fn, "__code__", None) is not None
                            and fn.__code__.co_flags & inspect.CO_GENERATOR):
            raise self.type_error("Expected a generator function, but no reachable `yield` statement "
                                  "has been found")
        nested = _nested_yields(body)
        if len(idx) + len(nested) > 1:
            first, second = sorted([body[i].loc for i in idx] + nested, key=lambda l: (l.line, l.col))[:2]
            raise self.error(TileTypeError, f"Generator-based context manager must have one `yield` statement "
                                            f"(another `yield` found on line {first.line})", second)
        if not idx and not nested:    # every `yield` was dead code (after a break or return)
            raise self.type_error("Expected a generator function, but no reachable `yield` statement "
                                  "has been found")
        if not idx:
            raise self.type_error("`yield` statement of a generator-based context manager must be placed "
                                  "outside of loops and conditional statements")
        k = idx[0]
        frame = Frame(hir_fn.name, fn.__globals__, _closure_lookup(fn), hir_fn)
        frame.call_site = self.loc
        self.enter_scope(frame, hir_fn, fn)
        self._bind_call_args(hir_fn, frame, mgr.args, mgr.kwargs, None, fn)

        def run(stmts):
            saved = self.frame
            self.frame = frame
            self.depth += 1
            try:
                self._exec_body(stmts)
            except _Exit:
                raise self.type_error("return inside a @contextmanager function is not supported")
            finally:
                self.depth -= 1
                self.frame = saved

        run(body[:k])
        saved = self.frame
        self.frame = frame
        try:
            value = None if body[k].value is None else self.eval(body[k].value)
        finally:
            self.frame = saved
        return value, lambda: run(body[k + 1:])


def _free_names(fn: H.FunctionDef) -> List[str]:
    """Names a nested function reads that are not its own locals (over-approximated)."""
    seen = set()

    def walk(node):
        if isinstance(node, H.Name):
            seen.add(node.id)
        elif isinstance(node, (list, tuple)):
            for item in node:
                walk(item)
        elif isinstance(node, (H.Node, H.Keyword, H.Comprehension, H.FormattedValue, H.Param)):
            for value in vars(node).values():
                if isinstance(value, (H.Node, list, tuple, H.Keyword, H.Comprehension, H.FormattedValue, H.Param)):
                    walk(value)

    walk(fn.body)
    for p in fn.params:
        walk(p.default)
    return sorted(seen - set(fn.local_names))


def _evaluated_closure(fn) -> Callable[[str], Tuple[bool, Any]]:
    """Free variables of a function compile-time Python made, in tile code's terms."""

    def lookup(name: str):
        scope = fn.scope
        while scope is not None:
            found, value = scope.find(name)
            if found:
                return True, from_static(value)
            scope = scope.parent
        return False, None
    return lookup


def _is_pure_callable(fn) -> bool:
    import math
    if fn in (len, min, max, abs, int, float, bool, str, tuple, range, isinstance, round, divmod,
              getattr, hasattr, sorted, reversed, zip, enumerate, repr, type, slice, pow, sum, any, all):
        return True
    mod = getattr(fn, "__module__", None)
    return mod in ("math", "operator") or fn in vars(math).values()


def _is_contextmanager_factory(fn) -> bool:
    wrapped = getattr(fn, "__wrapped__", None)
    if wrapped is None or not isinstance(wrapped, types.FunctionType):
        return False
    code = getattr(fn, "__code__", None)
    # Generator or not: a @contextmanager without a reachable `yield` is reported on entry.
    return code is not None and "contextlib" in code.co_filename


def _nested_yields(stmts) -> List[Loc]:
    """Locations of the `yield` statements nested in compound statements (not at top level)."""
    found: List[Loc] = []

    def walk(block, top):
        for s in block:
            if isinstance(s, H.Yield) and not top:
                found.append(s.loc)
            for attr in ("body", "orelse"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    walk(sub, False)
    walk(stmts, True)
    return found


def _python_default(fn, name: str):
    if isinstance(fn, SourceFunction):
        return fn.defaults.get(name, inspect.Parameter.empty)
    try:
        p = inspect.signature(fn).parameters.get(name)
    except (TypeError, ValueError):
        return inspect.Parameter.empty
    return inspect.Parameter.empty if p is None else p.default
