"""Calls in compile-time Python: interpreted functions, allow-listed built-ins and methods,
class instantiation (dataclasses, enums, plain classes), `cuda.tile` operations."""
from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import types
from typing import Any, Dict, List

from ..frontend.source import SourceFunction, is_kernel_object
from ..ops.registry import STATIC_FORMS, SurfaceFunction
from . import objects, policy
from .builtins import BUILTINS, call_value_method
from .functions import BoundMethod, Frame, PyFunction, Return, bind_arguments, local_names, source_of
from .kinds import TILESCOPE_DIR as _TILESCOPE_DIR, describe, is_user_code, generated_by_dataclass, has_user_specials, is_safe, is_tilescope_module, \
    lookup_in_class, trusted_class
from .limits import MAX_CALL_DEPTH, ForbiddenCall, OverBudget, Refused
from .modules import MODULE_FUNCTIONS, Native


def call(ev, fn: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
    ev.budget.charge()
    t = type(fn)
    if t is BoundMethod:
        return call(ev, fn.function, [fn.self_value] + args, kwargs)
    impl = BUILTINS.get(id(fn))
    if impl is not None and impl[0] is fn:
        return impl[1](ev, *args, **kwargs)
    if t is Native:
        return fn.impl(ev, *args, **kwargs)
    if t is types.FunctionType:
        return _call_live_function(ev, fn, args, kwargs)
    if t is PyFunction or _is_source_function(fn):
        return call_interpreted(ev, fn, args, kwargs)
    if t is types.MethodType:
        return call(ev, fn.__func__, [fn.__self__] + args, kwargs)
    if t in (types.BuiltinFunctionType, types.MethodWrapperType):
        owner = fn.__self__
        if type(owner) is types.ModuleType:
            return _call_module_function(ev, owner, fn, args, kwargs)
        return call_value_method(ev, owner, fn.__name__, args, kwargs)
    if t in (types.MethodDescriptorType, types.WrapperDescriptorType, types.ClassMethodDescriptorType):
        if not args:
            raise TypeError(f"unbound method {fn.__qualname__}() needs an argument")
        if type(args[0]) is not fn.__objclass__:
            raise Refused(f"calling {fn.__qualname__}() on {describe(args[0])} is not evaluated at compile time")
        return call_value_method(ev, args[0], fn.__name__, args[1:], kwargs)
    if t is functools.partial:
        return call(ev, fn.func, list(fn.args) + args, {**fn.keywords, **kwargs})
    if issubclass(t, type):
        return construct(ev, fn, args, kwargs)
    if is_tilescope_module(t.__module__) and trusted_class(t):
        return _call_tilescope(ev, fn, args, kwargs)
    wrapped = _cache_wrapped(fn)
    if wrapped is not None:
        return call(ev, wrapped, args, kwargs)
    owner, method = lookup_in_class(t, "__call__")
    if owner is not None and not trusted_class(owner) and objects._interpretable(method):
        return call(ev, method, [fn] + args, kwargs)
    if owner is None:
        raise TypeError(f"'{t.__name__}' object is not callable")
    raise Refused(f"calling {describe(fn)} is not allowed in compile-time Python")


def _is_source_function(fn: Any) -> bool:
    return isinstance(fn, SourceFunction)


def _cache_wrapped(fn: Any):
    """The function behind functools.lru_cache/cache (called uncached: the result is the same)."""
    if type(fn).__name__ == "_lru_cache_wrapper" and type(fn).__module__ == "functools":
        return fn.__wrapped__
    return None


def _call_live_function(ev, fn: types.FunctionType, args, kwargs):
    attrs = fn.__dict__
    if attrs.get("_cutile_function_wrapper"):
        raise ForbiddenCall(f"{attrs['__wrapped__'].__name__}()")
    filename = fn.__code__.co_filename
    if filename.startswith(_TILESCOPE_DIR):
        return _call_tilescope(ev, fn, args, kwargs)
    if not is_user_code(filename):
        raise Refused(f"calling {fn.__module__}.{fn.__qualname__}() (library code) is not allowed in "
                      f"compile-time Python")
    return call_interpreted(ev, fn, args, kwargs)


def call_interpreted(ev, fn: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
    """Run a Python function's source with the evaluator."""
    src = source_of(fn)
    node = src.node
    name = getattr(node, "name", "<lambda>")
    if isinstance(node, ast.AsyncFunctionDef):
        raise Refused(f"async function {name}() is not evaluated at compile time")
    if _is_generator(node):
        raise Refused(f"generator function {name}() is not evaluated at compile time")
    if ev.depth >= MAX_CALL_DEPTH:
        raise OverBudget(f"calls nest more than {MAX_CALL_DEPTH} deep (in {name}())")
    frame = Frame(local_names(node), src.scope, src.globals, src.filename, name)
    bind_arguments(name, node.args, src.defaults, args, kwargs, frame)
    ev.depth += 1
    try:
        if isinstance(node, ast.Lambda):
            return ev.eval(node.body, frame)
        try:
            ev.exec_block(node.body, frame)
        except Return as r:
            return r.value
        return None
    finally:
        ev.depth -= 1


_generators: Dict[int, Any] = {}


def _is_generator(node) -> bool:
    hit = _generators.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    found = False
    stack = list(node.body) if isinstance(node.body, list) else []
    while stack and not found:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            found = True
        elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    if len(_generators) > 1024:
        _generators.clear()
    _generators[id(node)] = (node, found)
    return found


def _call_module_function(ev, module, fn, args, kwargs):
    mod = policy.module_name(module)
    impl = MODULE_FUNCTIONS.get((mod, fn.__name__))
    if impl is None:
        shown = fn.__name__ if mod == "builtins" else f"{mod}.{fn.__name__}"
        raise Refused(f"calling {shown}() is not allowed in compile-time Python")
    return impl(ev, *args, **kwargs)


def _call_tilescope(ev, fn, args, kwargs):
    """A tilescope object: a `cuda.tile` operation, a kernel, or something the embedding handles."""
    if isinstance(fn, SurfaceFunction):
        if fn.host is not None and all(type(a) is int for a in args) and not kwargs:
            return _cdiv(ev, *args)
        if fn.name in STATIC_FORMS:
            raise ForbiddenCall(f"{fn.name}()", "used")
        if not fn.static:
            raise ForbiddenCall(f"{fn.name}()")
        return ev.host.call(fn, args, kwargs)
    if is_kernel_object(fn):
        raise ForbiddenCall(f"{getattr(fn, '__name__', 'kernel')}()")
    return ev.host.call(fn, args, kwargs)


def _cdiv(ev, x, y):
    if not (is_safe(x) and is_safe(y)):
        raise Refused("cdiv() of user objects is not evaluated at compile time")
    return objects.unary(ev, "neg", objects.binary(ev, "floordiv", objects.unary(ev, "neg", x), y))


# ---- classes --------------------------------------------------------------------------------

def construct(ev, cls: type, args: List[Any], kwargs: Dict[str, Any]) -> Any:
    impl = BUILTINS.get(id(cls))
    if impl is not None and impl[0] is cls:
        return impl[1](ev, *args, **kwargs)
    meta = type(cls)
    if not trusted_class(meta) or (has_user_specials(meta) and not issubclass(meta, enum.EnumMeta)):
        raise Refused(f"instances of {describe(cls)} (metaclass '{meta.__name__}') are not built at compile time")
    if issubclass(meta, enum.EnumMeta):
        return _enum_lookup(ev, cls, args, kwargs)
    if issubclass(cls, BaseException):
        return _exception(ev, cls, args, kwargs)
    if trusted_class(cls):
        if is_tilescope_module(cls.__module__):
            return ev.host.call(cls, args, kwargs)
        raise Refused(f"instances of {describe(cls)} are not built in compile-time Python")
    if "__dataclass_fields__" in _class_chain_dict(cls):
        return _dataclass_instance(ev, cls, args, kwargs)
    return _plain_instance(ev, cls, args, kwargs)


def _class_chain_dict(cls: type) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for c in reversed(type.__getattribute__(cls, "__mro__")):
        out.update(type.__getattribute__(c, "__dict__"))
    return out


def _enum_lookup(ev, cls, args, kwargs):
    if len(args) != 1 or kwargs:
        raise Refused("creating an enum class at compile time is not evaluated")
    for name in ("_missing_", "__new__"):
        owner, raw = lookup_in_class(cls, name)
        if owner is not None and not trusted_class(owner) and name == "_missing_":
            raise Refused(f"{describe(cls)} has its own _missing_, which compile-time Python does not run")
    members = type.__getattribute__(cls, "_member_map_")
    values = tuple(m._value_ for m in members.values())
    if not (is_safe(args[0], ev.budget) and is_safe(values, ev.budget)):
        raise Refused(f"looking up {describe(cls)} by a value that is not plain is not evaluated at compile time")
    return cls(args[0])


def _exception(ev, cls, args, kwargs):
    for c in type.__getattribute__(cls, "__mro__"):
        if not trusted_class(c) and any(n in type.__getattribute__(c, "__dict__")
                                        for n in ("__init__", "__new__", "__str__", "__repr__")):
            raise Refused(f"{describe(cls)} defines its own __init__/__str__, which compile-time Python "
                          f"does not run")
    if not all(is_safe(a) for a in list(args) + list(kwargs.values())):
        raise Refused("exceptions built at compile time take plain arguments")
    return cls(*args, **kwargs)


def _dataclass_instance(ev, cls, args, kwargs):
    chain = _class_chain_dict(cls)
    init = chain.get("__init__")
    if not generated_by_dataclass(init):
        if objects._interpretable(init):
            return _plain_instance(ev, cls, args, kwargs)
        raise Refused(f"{describe(cls)} has an __init__ that is not Python source")
    if lookup_in_class(cls, "__new__")[0] is not object:
        raise Refused(f"{describe(cls)} has its own __new__, which compile-time Python does not run")
    fields = [f for f in dataclasses.fields(cls) if f._field_type is not dataclasses._FIELD_CLASSVAR]
    params = [f for f in fields if f.init]
    positional = [f for f in params if not f.kw_only]
    if len(args) > len(positional):
        raise TypeError(f"{cls.__name__}.__init__() takes {len(positional) + 1} positional arguments but "
                        f"{len(args) + 1} were given")
    values: Dict[str, Any] = {f.name: a for f, a in zip(positional, args)}
    for k, v in kwargs.items():
        if k in values:
            raise TypeError(f"{cls.__name__}.__init__() got multiple values for argument '{k}'")
        if k not in {f.name for f in params}:
            raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument '{k}'")
        values[k] = v
    init_vars = {}
    obj = object.__new__(cls)
    ev.own(obj)
    for f in fields:
        if f.name in values:
            value = values[f.name]
        elif f.default is not dataclasses.MISSING:
            value = f.default
        elif f.default_factory is not dataclasses.MISSING:
            value = call(ev, f.default_factory, [], {})
        elif f.init:
            raise TypeError(f"{cls.__name__}.__init__() missing 1 required positional argument: '{f.name}'")
        else:
            continue
        if f._field_type is dataclasses._FIELD_INITVAR:
            init_vars[f.name] = value
            continue
        object.__setattr__(obj, f.name, value)
    post = chain.get("__post_init__")
    if post is not None:
        call(ev, post, [obj] + [init_vars[f.name] for f in fields if f.name in init_vars], {})
    return obj


def _plain_instance(ev, cls, args, kwargs):
    owner, new = lookup_in_class(cls, "__new__")
    if owner is not object:
        raise Refused(f"{describe(cls)} has its own __new__, which compile-time Python does not run")
    obj = object.__new__(cls)
    ev.own(obj)
    owner, init = lookup_in_class(cls, "__init__")
    if owner is object:
        if args or kwargs:
            raise TypeError(f"{cls.__name__}() takes no arguments")
        return obj
    if not objects._interpretable(init):
        raise Refused(f"{describe(cls)} has an __init__ that is not Python source")
    call(ev, init, [obj] + args, kwargs)
    return obj
