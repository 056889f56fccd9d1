"""The built-in functions, module functions and value methods compile-time Python may call,
each with what keeps it bounded (sizes checked before Python's own code runs, items charged
to the budget, callables interpreted)."""
from __future__ import annotations

import _string
import builtins as py
import enum
import functools
import itertools
import string
import types
from typing import Any, Callable, Dict, List, Tuple

from . import objects
from .kinds import ATOMS, CONTAINERS, describe, is_plain, is_safe, lookup_in_class, trusted_class
from .limits import MAX_ITEMS, OverBudget, Refused, check_format_spec, check_int
from .policy import MUTATING, VALUE_METHODS

BUILTINS: Dict[int, Tuple[Any, Callable]] = {}


def _register(obj: Any):
    def wrap(impl: Callable) -> Callable:
        BUILTINS[id(obj)] = (obj, impl)
        return impl
    return wrap


def items_of(ev, iterable: Any) -> List[Any]:
    """Materialise an iterable (sized plain containers are charged up front)."""
    t = type(iterable)
    if t in (tuple, list, str, range, dict, set, frozenset):
        ev.budget.charge(len(iterable))
        ev.budget.allocate(len(iterable))
    out = []
    for x in objects.iterate(ev, iterable):
        out.append(x)
        if len(out) > MAX_ITEMS:
            raise OverBudget(f"it iterates over more than {MAX_ITEMS:,} items")
    ev.budget.allocate(len(out))
    return out


def _call(ev, fn, *args):
    return ev.call(fn, list(args), {})


# ---- conversions and constructors ------------------------------------------------------------

@_register(py.int)
def _int(ev, x=0, *base):
    if base or is_safe(x):
        if type(x) is str and len(x) > 5000:
            raise ValueError("int() of a string longer than 5000 digits")
        return check_int(int(x, *base)) if base else check_int(int(x))
    return _numeric_special(ev, x, ("__int__", "__index__"), int)


@_register(py.float)
def _float(ev, x=0.0):
    return float(x) if is_safe(x) else _numeric_special(ev, x, ("__float__", "__index__"), float)


@_register(py.complex)
def _complex(ev, real=0, imag=0):
    if is_safe(real) and is_safe(imag):
        return complex(real, imag)
    raise Refused("complex() of user objects is not evaluated at compile time")


def _numeric_special(ev, x, names, kind):
    for name in names:
        owner, raw = lookup_in_class(type(x), name)
        if owner is not None:
            result = objects._special(ev, x, name, [])
            if result is not NotImplemented:
                return kind(result)
    raise TypeError(f"{kind.__name__}() argument must be a string or a real number, not '{type(x).__name__}'")


@_register(py.bool)
def _bool(ev, x=False):
    return objects.truth(ev, x)


@_register(py.str)
def _str(ev, x="", *rest):
    if rest:
        raise Refused("str() with an encoding is not evaluated at compile time")
    return objects.to_str(ev, x)


@_register(py.ascii)
def _ascii(ev, x):
    return ascii(objects.to_repr(ev, x))


@_register(py.format)
def _format(ev, value, spec=""):
    return objects.format_value(ev, value, spec)


@_register(py.tuple)
def _tuple(ev, iterable=()):
    return tuple(items_of(ev, iterable))


@_register(py.list)
def _list(ev, iterable=()):
    return ev.own(items_of(ev, iterable))


@_register(py.set)
def _set(ev, iterable=()):
    return ev.own(objects.make_set(ev, items_of(ev, iterable)))


@_register(py.frozenset)
def _frozenset(ev, iterable=()):
    return frozenset(objects.make_set(ev, items_of(ev, iterable)))


@_register(py.dict)
def _dict(ev, source=(), **kwargs):
    out: Dict[Any, Any] = {}
    if type(source) is dict:
        for k in items_of(ev, source):
            objects.dict_set(ev, out, k, source[k])
    else:
        for pair in items_of(ev, source):
            k, v = items_of(ev, pair)
            objects.dict_set(ev, out, k, v)
    out.update(kwargs)
    ev.budget.allocate(len(out))
    return ev.own(out)


@_register(py.range)
def _range(ev, *args):
    for a in args:
        if type(a) not in (int, bool):
            if not is_safe(a):
                raise Refused(f"range() of {describe(a)} is not evaluated at compile time")
    return range(*args)


@_register(py.slice)
def _slice(ev, *args):
    return slice(*args)


@_register(py.type)
def _type(ev, *args):
    if len(args) != 1:
        raise Refused("type() with three arguments (a new class) is not evaluated at compile time")
    return type(args[0])


# ---- inspection ----------------------------------------------------------------------------

# len(), hash() and repr() are the object model's (they call user special methods interpreted).
_register(py.len)(objects.length)
_register(py.hash)(objects.hash_of)
_register(py.repr)(objects.to_repr)
_register(py.callable)(lambda ev, x: callable(x))


@_register(py.isinstance)
def _isinstance(ev, obj, classes):
    return _subclass_check(ev, type(obj), classes, obj)


@_register(py.issubclass)
def _issubclass(ev, cls, classes):
    if not issubclass(type(cls), type):
        raise TypeError("issubclass() arg 1 must be a class")
    return _subclass_check(ev, cls, classes, None)


def _subclass_check(ev, cls, classes, obj):
    targets = classes if type(classes) is tuple else (classes,)
    for c in targets:
        if not issubclass(type(c), type):
            if type(c) in (types.GenericAlias, types.UnionType) or trusted_class(type(c)):
                return isinstance(obj, classes) if obj is not None else issubclass(cls, classes)
            raise TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")
        meta = type(c)
        if meta is type or issubclass(meta, enum.EnumMeta):
            if issubclass(cls, c):
                return True
        elif trusted_class(meta) and trusted_class(c) and trusted_class(cls):
            if obj is not None and isinstance(obj, c) or obj is None and issubclass(cls, c):
                return True
        elif trusted_class(meta):
            if issubclass(cls, c):
                return True
        else:
            raise Refused(f"isinstance() with {describe(c)} (a custom metaclass) is not evaluated at "
                          f"compile time")
    return False


def getattr_or_default(lookup: Callable[[Any, str], Any], obj: Any, name: str, default: tuple,
                       missing=AttributeError) -> Any:
    """Python's getattr(obj, name[, default]) over an evaluator's own attribute lookup: the
    default (when `default` holds one) where `lookup` raises `missing`."""
    try:
        return lookup(obj, name)
    except missing:
        if default:
            return default[0]
        raise


def has_attribute(lookup: Callable[[Any, str], Any], obj: Any, name: str, missing=AttributeError) -> bool:
    """Python's hasattr(obj, name) over an evaluator's own attribute lookup."""
    try:
        lookup(obj, name)
        return True
    except missing:
        return False


def _attribute_name(name: Any) -> str:
    if type(name) is not str:
        raise TypeError("attribute name must be string")
    return name


@_register(py.getattr)
def _getattr(ev, obj, name, *default):
    return getattr_or_default(functools.partial(objects.get_attribute, ev), obj, _attribute_name(name), default)


@_register(py.hasattr)
def _hasattr(ev, obj, name):
    return has_attribute(functools.partial(objects.get_attribute, ev), obj, _attribute_name(name))


# ---- arithmetic ------------------------------------------------------------------------------

@_register(py.abs)
def _abs(ev, x):
    if is_safe(x):
        return abs(x)
    result = objects._special(ev, x, "__abs__", [])
    if result is NotImplemented:
        raise TypeError(f"bad operand type for abs(): '{type(x).__name__}'")
    return result


@_register(py.round)
def _round(ev, x, *ndigits):
    if is_safe(x):
        return round(x, *ndigits)
    result = objects._special(ev, x, "__round__", list(ndigits))
    if result is NotImplemented:
        raise TypeError(f"type {type(x).__name__} doesn't define __round__ method")
    return result


@_register(py.divmod)
def _divmod(ev, a, b):
    if is_safe(a) and is_safe(b):
        return divmod(a, b)
    return objects.binary(ev, "floordiv", a, b), objects.binary(ev, "mod", a, b)


@_register(py.pow)
def _pow(ev, base, exp, mod=None):
    if mod is None:
        return objects.binary(ev, "pow", base, exp)
    if all(type(x) in (int, bool) for x in (base, exp, mod)):
        return pow(check_int(base), check_int(exp), check_int(mod))
    if all(is_plain(x) for x in (base, exp, mod)):
        return pow(base, exp, mod)        # Python's TypeError, at once (only integers take a modulus)
    raise Refused("three-argument pow() of user objects is not evaluated at compile time")


def _numbers_sum(ev, items, start):
    total = start
    for x in items:
        total = objects.binary(ev, "add", total, x)
    return total


@_register(py.sum)
def _sum(ev, iterable, start=0):
    if type(iterable) is range:
        ev.budget.charge(len(iterable))
        return sum(iterable, start)
    return _numbers_sum(ev, items_of(ev, iterable), start)


def _extreme(name: str, pick: Callable):
    def impl(ev, *args, key=None, default=objects._MISSING):
        items = items_of(ev, args[0]) if len(args) == 1 else list(args)
        if not items:
            if default is not objects._MISSING:
                return default
            raise ValueError(f"{name}() arg is an empty sequence")
        keys = items if key is None else [_call(ev, key, x) for x in items]
        best = 0
        for i in range(1, len(items)):
            if objects.truth(ev, objects.compare(ev, pick, keys[i], keys[best])):
                best = i
        return items[best]
    return impl


BUILTINS[id(py.min)] = (py.min, _extreme("min", "lt"))
BUILTINS[id(py.max)] = (py.max, _extreme("max", "gt"))


@_register(py.any)
def _any(ev, iterable):
    return any(objects.truth(ev, x) for x in objects.iterate(ev, iterable))


@_register(py.all)
def _all(ev, iterable):
    return all(objects.truth(ev, x) for x in objects.iterate(ev, iterable))


@_register(py.sorted)
def _sorted(ev, iterable, *, key=None, reverse=False):
    items = items_of(ev, iterable)
    return ev.own(_sort(ev, items, key, reverse))


def _sort(ev, items: List[Any], key, reverse) -> List[Any]:
    keys = items if key is None else [_call(ev, key, x) for x in items]
    ev.budget.charge(len(items) * max(1, len(items).bit_length()))
    if not is_safe(keys):
        cmp = functools.cmp_to_key(lambda a, b: -1 if objects.truth(ev, objects.compare(ev, "lt", a, b)) else
                                   (1 if objects.truth(ev, objects.compare(ev, "lt", b, a)) else 0))
        order = sorted(range(len(items)), key=lambda i: cmp(keys[i]), reverse=reverse)
    else:
        order = sorted(range(len(items)), key=lambda i: keys[i], reverse=reverse)
    return [items[i] for i in order]


# ---- iterators -------------------------------------------------------------------------------

@_register(py.iter)
def _iter(ev, x):
    return objects.EvalIterator(objects.iterate(ev, x))


@_register(py.next)
def _next(ev, it, *default):
    if type(it) is not objects.EvalIterator and type(it) not in objects._BUILTIN_ITERATORS:
        raise TypeError(f"'{type(it).__name__}' object is not an iterator")
    ev.budget.charge()
    try:
        return next(it)
    except StopIteration:
        if default:
            return default[0]
        raise


@_register(py.enumerate)
def _enumerate(ev, iterable, start=0):
    return objects.EvalIterator(zip(itertools.count(start), objects.iterate(ev, iterable)))


@_register(py.zip)
def _zip(ev, *iterables, strict=False):
    return objects.EvalIterator(zip(*(objects.iterate(ev, i) for i in iterables), strict=strict))


@_register(py.reversed)
def _reversed(ev, seq):
    if type(seq) in (tuple, list, str, range):
        ev.budget.charge(len(seq))
        return objects.EvalIterator(iter(seq[::-1]))
    if type(seq) is dict:
        return objects.EvalIterator(iter(items_of(ev, seq)[::-1]))
    if is_plain(seq):
        raise TypeError(f"'{type(seq).__name__}' object is not reversible")
    raise Refused(f"reversed() of {describe(seq)} is not evaluated at compile time")


@_register(py.map)
def _map(ev, fn, *iterables):
    return objects.EvalIterator(_call(ev, fn, *xs) for xs in zip(*(objects.iterate(ev, i) for i in iterables)))


@_register(py.filter)
def _filter(ev, fn, iterable):
    test = (lambda x: objects.truth(ev, x)) if fn is None else (lambda x: objects.truth(ev, _call(ev, fn, x)))
    return objects.EvalIterator(x for x in objects.iterate(ev, iterable) if test(x))


@_register(py.chr)
def _chr(ev, i):
    return chr(i)


@_register(py.ord)
def _ord(ev, c):
    return ord(c)


for _fn in (py.bin, py.oct, py.hex):
    BUILTINS[id(_fn)] = (_fn, (lambda f: lambda ev, x: f(x) if is_safe(x) else f(_int(ev, x)))(_fn))


# ---- methods of plain values -----------------------------------------------------------------

def call_value_method(ev, obj: Any, name: str, args: List[Any], kwargs: Dict[str, Any]) -> Any:
    t = type(obj)
    if name not in VALUE_METHODS.get(t, ()):
        raise Refused(f"calling {t.__name__}.{name}() is not allowed in compile-time Python")
    if name in MUTATING and t in (list, dict, set) and not ev.owns(obj):
        raise Refused(f"compile-time Python may only change objects it created, not this {t.__name__}")
    special = _VALUE_SPECIAL.get((t, name)) or _VALUE_SPECIAL.get((None, name))
    if special is not None:
        return special(ev, obj, *args, **kwargs)
    args = [items_of(ev, a) if type(a) not in ATOMS and type(a) not in CONTAINERS else a for a in args]
    for a in list(args) + list(kwargs.values()):
        if not is_safe(a, ev.budget):
            raise Refused(f"{t.__name__}.{name}() of {describe(a)} is not evaluated at compile time")
    if not is_safe(obj, ev.budget) and name in ("index", "count", "remove"):
        needle = args[0] if args else None
        hits = [i for i, x in enumerate(obj) if x is needle or objects.truth(ev, objects.compare(ev, "eq", x, needle))]
        if name == "count":
            return len(hits)
        if not hits:
            raise ValueError(f"{t.__name__}.{name}(x): x not in {t.__name__}")
        if name == "remove":
            del obj[hits[0]]
            return None
        return hits[0]
    ev.budget.charge(len(obj) if t in CONTAINERS or t is str else 1)
    return objects._checked_result(ev, getattr(obj, name)(*args, **kwargs))


def _str_replace(ev, s, old, new, count=-1):
    if type(old) is not str or type(new) is not str:
        raise TypeError("replace() arguments must be str")
    hits = (len(s) + 1 if old == "" else s.count(old)) if count < 0 else count
    if len(s) + hits * max(0, len(new) - len(old)) > MAX_ITEMS:
        raise OverBudget(f"str.replace() would build more than {MAX_ITEMS:,} characters")
    return s.replace(old, new, count)


def _str_pad(name):
    def impl(ev, s, width, *fill):
        if type(width) is int and width > MAX_ITEMS:
            raise OverBudget(f"str.{name}() to width {width:,} builds more than {MAX_ITEMS:,} characters")
        return getattr(s, name)(width, *fill)
    return impl


def _str_expandtabs(ev, s, tabsize=8):
    if type(tabsize) is int and tabsize > 0 and len(s) * tabsize > MAX_ITEMS:
        raise OverBudget("str.expandtabs() would build too long a string")
    return s.expandtabs(tabsize)


def _str_join(ev, sep, iterable):
    parts = items_of(ev, iterable)
    for p in parts:
        if type(p) is not str:
            raise TypeError(f"sequence item: expected str instance, {type(p).__name__} found")
    if sum(map(len, parts)) + len(sep) * len(parts) > MAX_ITEMS:
        raise OverBudget(f"str.join() would build more than {MAX_ITEMS:,} characters")
    return sep.join(parts)


class _Formatter(string.Formatter):
    """str.format with fields read and formatted by the evaluator."""

    def __init__(self, ev):
        self.ev = ev

    def get_field(self, field_name, args, kwargs):
        first, rest = _string.formatter_field_name_split(field_name)
        obj = self.get_value(first, args, kwargs)
        for is_attr, key in rest:
            obj = objects.get_attribute(self.ev, obj, key) if is_attr else objects.get_item(self.ev, obj, key)
        return obj, first

    def convert_field(self, value, conversion):
        if conversion == "r":
            return objects.to_repr(self.ev, value)
        if conversion == "s":
            return objects.to_str(self.ev, value)
        if conversion == "a":
            return ascii(objects.to_repr(self.ev, value))
        return super().convert_field(value, conversion)

    def format_field(self, value, format_spec):
        return objects.format_value(self.ev, value, format_spec)


def _str_format(ev, template, *args, **kwargs):
    check_format_spec("")
    text = _Formatter(ev).vformat(template, args, kwargs)
    ev.budget.allocate(len(text) // 8)
    return text


def _list_sort(ev, lst, *, key=None, reverse=False):
    lst[:] = _sort(ev, list(lst), key, reverse)


def _list_extend(ev, lst, iterable):
    items = items_of(ev, iterable)
    if len(lst) + len(items) > MAX_ITEMS:
        raise OverBudget(f"the list would hold more than {MAX_ITEMS:,} items")
    lst.extend(items)


def _append(ev, lst, x):
    ev.budget.allocate(1)
    lst.append(x)


def _insert(ev, lst, i, x):
    ev.budget.allocate(1)
    lst.insert(i, x)


def _dict_get(ev, d, key, default=None):
    if not is_safe(key):
        raise Refused(f"{describe(key)} is not a plain dictionary key")
    return ev.host.adapt(d.get(key, default))


_VALUE_SPECIAL = {
    (str, "replace"): _str_replace, (str, "expandtabs"): _str_expandtabs, (str, "join"): _str_join,
    (str, "format"): _str_format, (str, "center"): _str_pad("center"), (str, "ljust"): _str_pad("ljust"),
    (str, "rjust"): _str_pad("rjust"), (str, "zfill"): _str_pad("zfill"),
    (list, "sort"): _list_sort, (list, "extend"): _list_extend, (list, "append"): _append,
    (list, "insert"): _insert, (dict, "get"): _dict_get,
}
