"""Classes read from source without running it: dataclasses, enums and plain classes.

A `class` statement becomes a real Python class whose namespace holds values the restricted
evaluator computed and whose methods are `SourceMethod`s (source, never compiled to Python
code): calling one natively fails, so whatever Python or the standard library does with the
class (dataclass(), EnumType) cannot run user code. The front end inlines the methods
(tile code) or the evaluator interprets them (compile-time Python).
"""
from __future__ import annotations

import ast
import dataclasses
import enum
import types
from typing import Any, Dict, Optional

from ..pyeval import EvalControl, Evaluator
from ..pyeval.functions import ResolverScope
from .source import SourceFunction
from .unknown import UnknownValue

# Bases a class read from source may have besides classes read the same way.
_ENUM_BASES = tuple(c for c in (enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag, getattr(enum, "StrEnum", None))
                    if c is not None)
_PLAIN_BASES = (object, int, str, float, Exception, ValueError, TypeError, RuntimeError)
_METHOD_DECORATORS = ("staticmethod", "classmethod", "property")


class NotBuilt(Exception):
    """Why a class cannot be built from its source alone."""


class SourceMethod(SourceFunction):
    """A method known from source: a descriptor (so enums do not take it for a member) that
    binds like a function; calling it natively is refused."""

    def __get__(self, obj, objtype=None):
        return self if obj is None else types.MethodType(self, obj)


def build_class(node: ast.ClassDef, env: Dict[str, Any], filename: str, ev: Evaluator,
                module_name: str) -> Any:
    """The class `node` defines, or raise NotBuilt with the reason."""
    if node.keywords:
        raise NotBuilt(f"class '{node.name}' takes keyword arguments (a metaclass?)")
    dataclass_options = _dataclass_options(node, env, filename, ev)
    bases = tuple(_evaluate(ev, b, env, filename, "a base class") for b in node.bases)
    for b in bases:
        if not isinstance(b, type) or not (b in _PLAIN_BASES or b in _ENUM_BASES or _is_source_class(b)):
            raise NotBuilt(f"class '{node.name}' derives from {getattr(b, '__name__', b)!r}, which is not read "
                           f"from source")
    enum_meta = next((type(b) for b in bases if issubclass(type(b), enum.EnumMeta)), None)
    namespace: Dict[str, Any] = enum_meta.__prepare__(node.name, bases) if enum_meta else {}
    namespace["__module__"] = module_name
    namespace["__qualname__"] = node.name
    annotations: Dict[str, Any] = {}
    class_scope = ResolverScope(lambda name: (name in namespace and name not in ("__module__", "__qualname__"),
                                              namespace.get(name)))
    for i, stmt in enumerate(node.body):
        _class_statement(node, stmt, i, namespace, annotations, env, filename, ev, class_scope)
    if annotations:
        namespace["__annotations__"] = annotations
    try:
        cls = (enum_meta or type)(node.name, bases or (object,), namespace)
        if dataclass_options is not None:
            cls = dataclasses.dataclass(cls, **dataclass_options)
    except EvalControl as e:
        raise NotBuilt(f"class '{node.name}': {e.reason}") from None
    except Exception as e:     # e.g. a mutable dataclass default: Python's own error
        raise NotBuilt(f"class '{node.name}' fails to build: {type(e).__name__}: {e}") from None
    type.__setattr__(cls, "__tilescope_source__", True)
    return cls


def _is_source_class(cls: type) -> bool:
    return bool(type.__getattribute__(cls, "__dict__").get("__tilescope_source__"))


def _evaluate(ev: Evaluator, node: ast.expr, env, filename: str, what: str, scope=None) -> Any:
    try:
        return ev.evaluate(node, scope, env, filename)
    except EvalControl as e:
        raise NotBuilt(f"{what} is not known statically: {e.reason}") from None
    except Exception as e:
        raise NotBuilt(f"{what} raised {type(e).__name__}: {e}") from None


def _dataclass_options(node: ast.ClassDef, env, filename: str, ev: Evaluator) -> Optional[Dict[str, Any]]:
    options = None
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        fn = _evaluate(ev, target, env, filename, "a class decorator")
        if fn is dataclasses.dataclass:
            options = {}
            if isinstance(dec, ast.Call):
                if dec.args:
                    raise NotBuilt("dataclass() takes keyword arguments only")
                for k in dec.keywords:
                    options[k.arg] = _evaluate(ev, k.value, env, filename, f"dataclass({k.arg}=...)")
        elif fn is enum.unique:
            continue
        else:
            raise NotBuilt(f"class '{node.name}' has a decorator that is not read from source")
    return options


def _class_statement(node, stmt, index, namespace, annotations, env, filename, ev, class_scope) -> None:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        if index == 0 and isinstance(stmt.value.value, str):
            namespace["__doc__"] = stmt.value.value
        return
    if isinstance(stmt, ast.Pass):
        return
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        name = stmt.target.id
        _check_name(node, name)
        try:
            annotations[name] = ev.evaluate(stmt.annotation, class_scope, env, filename)
        except (EvalControl, Exception):
            annotations[name] = ast.unparse(stmt.annotation)     # its text says enough (ClassVar...)
        if stmt.value is not None:
            namespace[name] = _evaluate(ev, stmt.value, env, filename, f"'{node.name}.{name}'", class_scope)
        return
    if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
        value = _evaluate(ev, stmt.value, env, filename, f"'{node.name}.{stmt.targets[0].id}'", class_scope)
        for t in stmt.targets:
            _check_name(node, t.id, value)
            namespace[t.id] = value
        return
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        namespace[stmt.name] = _method(node, stmt, namespace, env, filename, ev, class_scope)
        return
    raise NotBuilt(f"class '{node.name}' has a '{type(stmt).__name__}' statement in its body")


def _check_name(node, name: str, value: Any = None) -> None:
    if name.startswith("__") and name.endswith("__") and not (name == "__hash__" and value is None) \
            and name != "__slots__":
        raise NotBuilt(f"class '{node.name}' assigns '{name}'")


def _method(node, fn: ast.FunctionDef, namespace, env, filename, ev, class_scope) -> Any:
    defaults: Dict[str, Any] = {}
    a = fn.args
    positional = a.posonlyargs + a.args
    for arg, d in zip(positional[len(positional) - len(a.defaults):], a.defaults):
        defaults[arg.arg] = _value_or_unknown(ev, d, env, filename, class_scope)
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        if d is not None:
            defaults[arg.arg] = _value_or_unknown(ev, d, env, filename, class_scope)
    method = SourceMethod(fn, filename, env, defaults=defaults)
    method.__qualname__ = f"{node.name}.{fn.name}"
    for dec in reversed(fn.decorator_list):
        method = _decorate(node, fn, dec, method, namespace)
    return method


def _decorate(node, fn, dec: ast.expr, method: Any, namespace) -> Any:
    if isinstance(dec, ast.Name) and dec.id in _METHOD_DECORATORS:
        return {"staticmethod": staticmethod, "classmethod": classmethod, "property": property}[dec.id](method)
    if isinstance(dec, ast.Attribute) and isinstance(dec.value, ast.Name) and dec.attr in ("setter", "getter") \
            and type(namespace.get(dec.value.id)) is property:
        return getattr(namespace[dec.value.id], dec.attr)(method)
    if isinstance(dec, ast.Attribute) and dec.attr in ("abstractmethod", "cached_property"):
        return property(method) if dec.attr == "cached_property" else method
    if isinstance(dec, ast.Name) and dec.id in ("abstractmethod",):
        return method
    if (isinstance(dec, ast.Name) and dec.id == "contextmanager" or isinstance(dec, ast.Attribute)
            and dec.attr == "contextmanager") and isinstance(method, SourceFunction):
        method.is_contextmanager = True
        return method
    raise NotBuilt(f"method '{node.name}.{fn.name}' has a decorator that is not read from source")


def _value_or_unknown(ev, node, env, filename, scope) -> Any:
    try:
        return ev.evaluate(node, scope, env, filename)
    except EvalControl as e:
        return UnknownValue(e.reason)
    except Exception as e:
        return UnknownValue(f"evaluating raised {type(e).__name__}: {e}")


