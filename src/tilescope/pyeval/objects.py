"""Operations on values: attributes, items, operators, truth, iteration, repr/str/format.

Plain and trusted values get Python's own operations (after size checks). A user object's
special methods and properties are interpreted (they are Python source) -- never called --
and dataclasses' generated methods are reproduced here.
"""
from __future__ import annotations

import ast
import dataclasses
import operator
import types
from typing import Any, Iterator, List

from ..frontend.source import SourceFunction
from ..frontend.unknown import ForeignDtypes
from . import policy
from .functions import BoundMethod, PyFunction
from .kinds import (ATOMS, CONTAINERS, SEQUENCES, describe, generated_by_dataclass, has_user_specials, is_safe,
                    is_tilescope_module, is_user_code, lookup_in_class, trusted_class)
from .limits import (MAX_ITEMS, OverBudget, Refused, check_format_spec, check_int, check_power, check_printf,
                     check_repeat, check_shift)

OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
       "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "matmul": operator.matmul,
       "lshift": operator.lshift, "rshift": operator.rshift, "and": operator.and_, "or": operator.or_,
       "xor": operator.xor}
SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
           "matmul": "@", "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^",
           "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
COMPARE_OPS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
               "gt": operator.gt, "ge": operator.ge}
_SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
UNARY = {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert}
_BUILTIN_ITERATORS = frozenset(type(iter(x)) for x in ((), [], "", range(0), {}, set(), frozenset(),
                                                        {}.keys(), {}.values(), {}.items()))
_MISSING = object()

# Python's operators by AST node, as the names this module's operations take.
AST_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
              ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.LShift: "lshift", ast.RShift: "rshift",
              ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor"}
AST_UNARY = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}
AST_COMPARE = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}


class EvalIterator:
    """An iterator built by evaluated code (generator expressions, map, zip, enumerate...)."""

    def __init__(self, items: Iterator[Any]):
        self._items = items

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)

    def __repr__(self) -> str:
        return "<iterator (compile time)>"


def _interpret(ev, fn, args):
    return ev.call(fn, list(args), {})


def _interpretable(raw: Any) -> bool:
    """Python source the evaluator may interpret: the user's (not the standard library's, an
    installed package's or tilescope's)."""
    if type(raw) is types.FunctionType:
        return is_user_code(raw.__code__.co_filename)
    return type(raw) is PyFunction or isinstance(raw, SourceFunction)


# ---- attributes -----------------------------------------------------------------------------

def get_attribute(ev, obj: Any, name: str) -> Any:
    if name.startswith("__") and name.endswith("__") and name not in policy.READABLE_DUNDERS:
        raise Refused(f"reading the attribute '{name}' is not allowed in compile-time Python")
    t = type(obj)
    if t is types.ModuleType:
        return ev.host.adapt(policy.module_attribute(obj, name))
    if t is ForeignDtypes:
        return obj.attribute(ev.host, name)
    if t in ATOMS or t in CONTAINERS or t in (range, slice):
        return policy.value_attribute(obj, name)
    if issubclass(t, type):
        return ev.host.adapt(_class_attribute(ev, obj, name))
    if t in (types.FunctionType, types.BuiltinFunctionType):
        if name in ("__name__", "__qualname__", "__doc__"):
            return getattr(obj, name)
        raise Refused(f"attributes of functions are not read in compile-time Python")
    if trusted_class(t) and not has_user_specials(t):
        if t.__flags__ & (1 << 9):       # a trusted Python class (tilescope, typing, enum...)
            if name.startswith("_") and is_tilescope_module(t.__module__) and name not in policy.READABLE_DUNDERS:
                raise Refused(f"private attributes of tilescope objects are not read in compile-time Python")
            return ev.host.adapt(getattr(obj, name))
        raise Refused(f"attributes of {describe(obj)} are not read in compile-time Python")
    return ev.host.adapt(_instance_attribute(ev, obj, name))


def _class_attribute(ev, cls: type, name: str) -> Any:
    owner, raw = lookup_in_class(cls, name)
    if owner is None:
        meta_owner, meta_raw = lookup_in_class(type(cls), name)
        if meta_owner is not None and trusted_class(meta_owner) and name in policy.READABLE_DUNDERS:
            return type.__getattribute__(cls, name)
        raise AttributeError(f"type object '{cls.__name__}' has no attribute '{name}'")
    if type(raw) is staticmethod:
        return raw.__func__
    if type(raw) is classmethod:
        return BoundMethod(raw.__func__, cls)
    getter = lookup_in_class(type(raw), "__get__")
    if getter[0] is None or _interpretable(raw):
        return raw                       # plain class data, or a function (unbound)
    if trusted_class(type(raw)) and trusted_class(owner):
        return raw.__get__(None, cls)
    if type(raw) is property:
        return raw
    raise Refused(f"'{cls.__name__}.{name}' is a descriptor of type '{type(raw).__name__}', "
                  f"which compile-time Python does not run")


def _instance_attribute(ev, obj: Any, name: str) -> Any:
    t = type(obj)
    owner, custom = lookup_in_class(t, "__getattribute__")
    if owner is not None and not trusted_class(owner):
        raise Refused(f"{describe(obj)} has its own __getattribute__, which compile-time Python does not run")
    owner, raw = lookup_in_class(t, name)
    if owner is not None:
        kind = type(raw)
        if kind is property:
            if raw.fget is None:
                raise AttributeError(f"property '{name}' of '{t.__name__}' object has no getter")
            if _interpretable(raw.fget):
                return _interpret(ev, raw.fget, [obj])
            if trusted_class(owner):
                return raw.__get__(obj, t)
            raise Refused(f"the property '{name}' of {describe(obj)} is not Python source")
        is_data = lookup_in_class(kind, "__set__")[0] is not None or lookup_in_class(kind, "__delete__")[0] is not None
        if is_data:
            if trusted_class(kind):          # slots, enum.property, C-level getters
                return raw.__get__(obj, t)
            raise Refused(f"'{name}' of {describe(obj)} is a descriptor compile-time Python does not run")
    try:
        inst_dict = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        inst_dict = None
    if type(inst_dict) is dict or (inst_dict is not None and issubclass(type(inst_dict), dict)):
        value = dict.get(inst_dict, name, _MISSING)
        if value is not _MISSING:
            return value
    if owner is not None:
        if type(raw) is staticmethod:
            return raw.__func__
        if type(raw) is classmethod:
            return BoundMethod(raw.__func__, t)
        if _interpretable(raw):
            return BoundMethod(raw, obj)
        getter = lookup_in_class(type(raw), "__get__")[0]
        if getter is None:
            return raw
        if trusted_class(type(raw)) and trusted_class(owner):
            return getattr(obj, name)        # a method of a Python type (an IntEnum's int methods)
        raise Refused(f"'{name}' of {describe(obj)} is a descriptor compile-time Python does not run")
    owner, fallback = lookup_in_class(t, "__getattr__")
    if owner is not None and _interpretable(fallback):
        return _interpret(ev, fallback, [obj, name])
    raise AttributeError(f"'{t.__name__}' object has no attribute '{name}'")


def set_attribute(ev, obj: Any, name: str, value: Any) -> None:
    if name.startswith("__") and name.endswith("__"):
        raise Refused(f"setting the attribute '{name}' is not allowed in compile-time Python")
    if not ev.owns(obj):
        raise Refused(f"compile-time Python may only change objects it created, not {describe(obj)}")
    t = type(obj)
    owner, setter = lookup_in_class(t, "__setattr__")
    if owner is not None and not trusted_class(owner):
        if generated_by_dataclass(setter):
            raise dataclasses.FrozenInstanceError(f"cannot assign to field '{name}'")
        if _interpretable(setter):
            _interpret(ev, setter, [obj, name, value])
            return
        raise Refused(f"{describe(obj)} has its own __setattr__, which compile-time Python does not run")
    owner, raw = lookup_in_class(t, name)
    if type(raw) is property:
        if raw.fset is None:
            raise AttributeError(f"property '{name}' of '{t.__name__}' object has no setter")
        if _interpretable(raw.fset):
            _interpret(ev, raw.fset, [obj, value])
            return
        raise Refused(f"the setter of '{name}' is not Python source")
    object.__setattr__(obj, name, value)


# ---- items ------------------------------------------------------------------------------

def get_item(ev, obj: Any, index: Any) -> Any:
    t = type(obj)
    if t in (tuple, list, str, range, dict) or t in _BUILTIN_ITERATORS:
        if not is_safe(index):
            raise Refused(f"{describe(index)} is not a plain index")
        if t is dict and not is_safe(obj, ev.budget):
            raise Refused("looking up a dictionary whose keys are user objects is not evaluated at compile time")
        result = obj[index]
        if type(index) is slice and t is not range:
            ev.budget.allocate(len(result))
        return ev.host.adapt(result)
    if issubclass(t, type):
        # Color["RED"] (the metaclass's __getitem__), tuple[int, ...] (__class_getitem__)
        meta_owner, _ = lookup_in_class(t, "__getitem__")
        owner, _ = (meta_owner, None) if meta_owner is not None else lookup_in_class(obj, "__class_getitem__")
        if owner is None:
            raise TypeError(f"type '{obj.__name__}' is not subscriptable")
        if trusted_class(owner) and trusted_class(t) and is_safe(index):
            return obj[index]
        raise Refused(f"subscripting {describe(obj)} is not evaluated at compile time")
    if trusted_class(t) and not has_user_specials(t) and is_safe(index):
        return ev.host.adapt(obj[index])
    owner, raw = lookup_in_class(t, "__getitem__")
    if owner is not None and _interpretable(raw):
        return _interpret(ev, raw, [obj, index])
    if owner is None:
        raise TypeError(f"'{t.__name__}' object is not subscriptable")
    raise Refused(f"indexing {describe(obj)} is not evaluated at compile time")


def set_item(ev, obj: Any, index: Any, value: Any) -> None:
    if not ev.owns(obj):
        raise Refused(f"compile-time Python may only change objects it created, not {describe(obj)}")
    t = type(obj)
    if t is list:
        if not is_safe(index):
            raise Refused(f"{describe(index)} is not a plain index")
        obj[index] = value
        return
    if t is dict:
        dict_set(ev, obj, index, value)
        return
    owner, raw = lookup_in_class(t, "__setitem__")
    if owner is not None and _interpretable(raw):
        _interpret(ev, raw, [obj, index, value])
        return
    raise TypeError(f"'{t.__name__}' object does not support item assignment")


def dict_set(ev, d: dict, key: Any, value: Any) -> None:
    if not is_safe(key):
        raise Refused(f"{describe(key)} cannot be a dictionary key in compile-time Python")
    d[key] = value


def make_set(ev, items: List[Any]) -> set:
    for i in items:
        if not is_safe(i):
            raise Refused(f"{describe(i)} cannot be a set item in compile-time Python")
    ev.budget.allocate(len(items))
    return set(items)


# ---- operators --------------------------------------------------------------------------

def binary(ev, op: str, a: Any, b: Any) -> Any:
    if is_safe(a, ev.budget) and is_safe(b, ev.budget):
        return _native_binary(ev, op, a, b)
    if op in ("add", "mul") and type(a) in SEQUENCES and type(b) in SEQUENCES | {int}:
        return _native_binary(ev, op, a, b)       # concatenation never calls the items
    if op == "mul" and type(b) in SEQUENCES and type(a) is int:
        return _native_binary(ev, op, a, b)
    result = _special(ev, a, f"__{op}__", [b])
    if result is NotImplemented and type(a) is not type(b):
        result = _special(ev, b, f"__r{op}__", [a])
    if result is NotImplemented:
        raise TypeError(f"unsupported operand type(s) for {SYMBOLS[op]}: '{type(a).__name__}' and "
                        f"'{type(b).__name__}'")
    return result


# The built-in types whose augmented assignments change the object itself (list.__iadd__...).
_IN_PLACE = {list: ("add", "mul"), set: ("or", "and", "sub", "xor"), dict: ("or",)}


def augmented(ev, op: str, a: Any, b: Any) -> Any:
    """`a op= b` as Python does it: in place for a list (`+=` takes any iterable), a set (with a
    set) and a dict (with a dict), through `__i<op>__` for a class written in Python, else
    `a op b`. Only an object the evaluated code created may change."""
    t = type(a)
    if op in _IN_PLACE.get(t, ()):
        if t is list and op == "add":
            b = list(iterate(ev, b))
        elif t is set and type(b) not in (set, frozenset):
            return binary(ev, op, a, b)          # (set.__ior__ declines: `a | b` raises TypeError)
        elif t is dict and type(b) is not dict:
            raise Refused(f"updating a dictionary in place from {describe(b)} is not evaluated at compile time")
        if not ev.owns(a):
            raise Refused(f"compile-time Python may only change objects it created, not {describe(a)}")
        result = binary(ev, op, a, b)            # (sizes checked as for `a op b`)
        if t is list:
            a[:] = result
        else:
            a.clear()
            a.update(result)
        return a
    if not trusted_class(t):
        result = _special(ev, a, f"__i{op}__", [b])
        if result is not NotImplemented:
            return result
    return binary(ev, op, a, b)


def _native_binary(ev, op: str, a: Any, b: Any) -> Any:
    if op == "pow":
        check_power(a, b)
    elif op == "lshift":
        check_shift(a, b)
    elif op == "mul":
        if type(a) in (str, tuple, list):
            check_repeat(a, b)
        elif type(b) in (str, tuple, list):
            check_repeat(b, a)
    elif op == "add" and type(a) in (str, tuple, list) and type(b) is type(a):
        if len(a) + len(b) > MAX_ITEMS:
            raise OverBudget(f"concatenating builds more than {MAX_ITEMS:,} items")
    elif op == "mod" and type(a) is str:
        check_printf(a)
    result = OPS[op](a, b)
    return _checked_result(ev, result)


def _checked_result(ev, result: Any) -> Any:
    t = type(result)
    if t is int:
        check_int(result)
    elif t in (str, tuple, list, dict, set, frozenset):
        ev.budget.allocate(len(result) if t is not str else len(result) // 8)
        if t in (list, dict, set):
            ev.own(result)
    return result


def unary(ev, op: str, v: Any) -> Any:
    if is_safe(v):
        return UNARY[op](v)
    result = _special(ev, v, f"__{op}__", [])
    if result is NotImplemented:
        raise TypeError(f"bad operand type for unary {op}: '{type(v).__name__}'")
    return result


def compare(ev, op: str, a: Any, b: Any) -> Any:
    if is_safe(a, ev.budget) and is_safe(b, ev.budget):
        return COMPARE_OPS[op](a, b)
    if op in ("eq", "ne") and type(a) in SEQUENCES and type(a) is type(b):
        same = len(a) == len(b) and all(x is y or truth(ev, compare(ev, "eq", x, y)) for x, y in zip(a, b))
        return same if op == "eq" else not same
    if op in ("eq", "ne") and type(a) is dict and type(b) is dict:
        same = a.keys() == b.keys() and all(truth(ev, compare(ev, "eq", a[k], b[k])) for k in a) \
            if is_safe(tuple(a), ev.budget) and is_safe(tuple(b), ev.budget) else None
        if same is not None:
            return same if op == "eq" else not same
    if op == "ne":
        owner, _ = lookup_in_class(type(a), "__ne__")
        if owner is object or owner is None:
            return not truth(ev, compare(ev, "eq", a, b))
    result = _special(ev, a, f"__{op}__", [b])
    if result is NotImplemented:
        result = _special(ev, b, f"__{_SWAPPED[op]}__", [a])
    if result is NotImplemented:
        if op in ("eq", "ne"):
            return (a is b) == (op == "eq")
        raise TypeError(f"'{SYMBOLS[op]}' not supported between instances of '{type(a).__name__}' and "
                        f"'{type(b).__name__}'")
    return result


def _special(ev, obj: Any, name: str, args: List[Any]) -> Any:
    """Call the special method `name` of `obj`'s class the safe way, or NotImplemented."""
    owner, raw = lookup_in_class(type(obj), name)
    if owner is None or raw is None:
        return NotImplemented
    if generated_by_dataclass(raw):
        return _dataclass_special(ev, obj, name, args)
    if _interpretable(raw):
        return _interpret(ev, raw, [obj] + args)
    if trusted_class(owner):
        if owner in CONTAINERS:
            raise Refused(f"{name} of {describe(obj)} would compare user objects natively")
        if all(is_safe(x) for x in args) or name in ("__eq__", "__ne__") and owner is object:
            return raw(obj, *args)
        return NotImplemented
    raise Refused(f"{describe(obj)} has a {name} that is not Python source")


def _dataclass_special(ev, obj: Any, name: str, args: List[Any]) -> Any:
    fields = [f.name for f in dataclasses.fields(obj) if f.compare]
    values = lambda x: tuple(object.__getattribute__(x, f) for f in fields)  # noqa: E731
    if name in ("__eq__", "__lt__", "__le__", "__gt__", "__ge__"):
        other = args[0]
        if type(other) is not type(obj):
            return NotImplemented
        return compare(ev, name[2:4], values(obj), values(other))
    if name == "__hash__":
        return hash_of(ev, values(obj))
    if name == "__repr__":
        shown = ", ".join(f"{f.name}={to_repr(ev, object.__getattribute__(obj, f.name))}"
                          for f in dataclasses.fields(obj) if f.repr)
        return f"{type(obj).__qualname__}({shown})"
    raise Refused(f"{name} of {describe(obj)} is not evaluated at compile time")


def truth(ev, x: Any) -> bool:
    t = type(x)
    if t in ATOMS or t in CONTAINERS or t is range:
        return bool(x)
    if is_safe(x):
        return bool(x)
    owner, raw = lookup_in_class(t, "__bool__")
    if owner is not None and not trusted_class(owner):
        result = _special(ev, x, "__bool__", [])
        if type(result) is not bool:
            raise TypeError(f"__bool__ should return bool, returned {type(result).__name__}")
        return result
    owner, raw = lookup_in_class(t, "__len__")
    if owner is not None and not trusted_class(owner):
        return length(ev, x) != 0
    if owner is not None:
        raise Refused(f"the truth of {describe(x)} is not evaluated at compile time")
    return True


def length(ev, x: Any) -> int:
    if is_safe(x) or type(x) in CONTAINERS:
        return len(x)
    result = _special(ev, x, "__len__", [])
    if result is NotImplemented:
        raise TypeError(f"object of type '{type(x).__name__}' has no len()")
    if type(result) is not int or result < 0:
        raise ValueError("__len__() should return >= 0")
    return result


def hash_of(ev, x: Any) -> int:
    if is_safe(x, ev.budget):
        return hash(x)
    result = _special(ev, x, "__hash__", [])
    if result is NotImplemented:
        raise TypeError(f"unhashable type: '{type(x).__name__}'")
    return result


def contains(ev, container: Any, item: Any) -> bool:
    t = type(container)
    if is_safe(container, ev.budget) and is_safe(item, ev.budget):
        return item in container
    if t in SEQUENCES:
        return any(x is item or truth(ev, compare(ev, "eq", x, item)) for x in iterate(ev, container))
    owner, raw = lookup_in_class(t, "__contains__")
    if owner is not None and _interpretable(raw):
        return truth(ev, _interpret(ev, raw, [container, item]))
    if t in (dict, set, frozenset):
        raise Refused("membership in a dictionary or set of user objects is not evaluated at compile time")
    return any(x is item or truth(ev, compare(ev, "eq", x, item)) for x in iterate(ev, container))


def iterate(ev, x: Any) -> Iterator[Any]:
    """The items of `x`, one budget step each."""
    t = type(x)
    if t in CONTAINERS or t in (str, range, EvalIterator) or t in _BUILTIN_ITERATORS or \
            (trusted_class(t) and not has_user_specials(t)):
        if t is dict and not is_safe(tuple(x)):
            raise Refused("iterating a dictionary with user-object keys is not evaluated at compile time")
        return _charged(ev, iter(x))        # (iter now: `zip('', 2)` raises as Python's does)
    owner, raw = lookup_in_class(t, "__iter__")
    if owner is not None and _interpretable(raw):
        it = _interpret(ev, raw, [x])
        if type(it) in (EvalIterator,) or type(it) in _BUILTIN_ITERATORS:
            return _charged(ev, it)
        raise Refused(f"the iterator {describe(it)} returned by __iter__ is not evaluated at compile time")
    if owner is None and lookup_in_class(t, "__getitem__")[0] is None:
        raise TypeError(f"'{t.__name__}' object is not iterable")
    raise Refused(f"iterating {describe(x)} is not evaluated at compile time")


def _charged(ev, x) -> Iterator[Any]:
    adapt = ev.host.adapt
    for item in x:
        ev.budget.charge()
        yield adapt(item)


# ---- str, repr, format ------------------------------------------------------------------

def to_repr(ev, x: Any) -> str:
    if is_safe(x, ev.budget):
        return _bounded_text(ev, repr(x))
    if type(x) in SEQUENCES:
        inner = ", ".join(to_repr(ev, i) for i in x)
        return _bounded_text(ev, f"({inner}{',' if len(x) == 1 else ''})" if type(x) is tuple else f"[{inner}]")
    result = _special(ev, x, "__repr__", [])
    if type(result) is not str:
        raise TypeError(f"__repr__ returned non-string (type {type(result).__name__})")
    return result


def to_str(ev, x: Any) -> str:
    if is_safe(x, ev.budget):
        return _bounded_text(ev, str(x))
    owner, raw = lookup_in_class(type(x), "__str__")
    if owner is object or owner in CONTAINERS:
        return to_repr(ev, x)
    result = _special(ev, x, "__str__", [])
    if type(result) is not str:
        raise TypeError(f"__str__ returned non-string (type {type(result).__name__})")
    return result


def format_value(ev, value: Any, spec: str) -> str:
    if type(spec) is not str:
        raise TypeError("format specification must be a string")
    check_format_spec(spec)
    if is_safe(value, ev.budget):
        return _bounded_text(ev, format(value, spec))
    owner, raw = lookup_in_class(type(value), "__format__")
    if owner is object:
        if spec:
            raise TypeError(f"unsupported format string passed to {type(value).__name__}.__format__")
        return to_str(ev, value)
    result = _special(ev, value, "__format__", [spec])
    if type(result) is not str:
        raise TypeError(f"__format__ must return a str, not {type(result).__name__}")
    return result


def _bounded_text(ev, text: str) -> str:
    ev.budget.allocate(len(text) // 8)
    return text
