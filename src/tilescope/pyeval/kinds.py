"""What the evaluator knows about a value: plain data, trusted objects, user objects.

- *plain*: None, bool, int, float, complex, str, and tuples/lists/sets/dicts/ranges/slices of
  plain values. Python's own operations on them run no user code, so they are applied directly.
- *trusted*: objects whose special methods belong to Python itself, the standard-library
  modules in TRUSTED_MODULES, or tilescope (dtypes, `cuda.tile` enums, compile-time views of
  tiles), and enum members whose class adds no special methods.
- everything else is a *user object*: its special methods and properties are user code, which
  the evaluator interprets (see interp.py) rather than calls.

Type checks here use `type(x)` and the MRO, never `isinstance` on an untrusted object (which
may read a user-defined `__class__`) and never a dict keyed by user objects (which would call
their `__hash__`).
"""
from __future__ import annotations

import os
import sys
import sysconfig
import types
from typing import Any, Dict, Optional, Tuple

ATOMS = frozenset({type(None), bool, int, float, complex, str, type(Ellipsis), type(NotImplemented)})
SEQUENCES = frozenset({tuple, list})
CONTAINERS = frozenset({tuple, list, set, frozenset, dict})
TRUSTED_MODULES = frozenset({"builtins", "enum", "typing", "types", "dataclasses", "functools",
                             "collections", "abc", "math", "operator", "itertools", "numbers"})
_HEAPTYPE = 1 << 9
_C_MODULES = frozenset({"builtins", "types", "itertools", "functools", "_functools", "operator", "_operator",
                        "math", "enum", "typing", "collections", "_collections"})

# Special methods whose presence on a user class makes its instances user objects.
SPECIALS = frozenset(
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __len__ __iter__ __next__ "
    "__contains__ __getitem__ __call__ __getattr__ __getattribute__ __str__ __repr__ __format__ "
    "__int__ __float__ __index__ __complex__ __neg__ __pos__ __invert__ __abs__ __round__ "
    "__add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __pow__ __matmul__ __lshift__ "
    "__rshift__ __and__ __or__ __xor__ __divmod__ __radd__ __rsub__ __rmul__ __rtruediv__ "
    "__rfloordiv__ __rmod__ __rpow__ __rmatmul__ __rlshift__ __rrshift__ __rand__ __ror__ "
    "__rxor__ __rdivmod__ __instancecheck__ __subclasscheck__ __class__ __dict__ __setattr__ "
    "__set_name__ __init_subclass__ __class_getitem__ __mro_entries__ __get__".split())

_class_trust: Dict[int, Tuple[Any, bool]] = {}


def is_tilescope_module(name: Optional[str]) -> bool:
    return isinstance(name, str) and (name == "tilescope" or name.startswith("tilescope."))


def trusted_class(cls: type) -> bool:
    """A class whose code is Python's, a trusted standard-library module's or tilescope's."""
    hit = _class_trust.get(id(cls))
    if hit is not None and hit[0] is cls:
        return hit[1]
    result = _compute_trust(cls)
    if len(_class_trust) > 4096:
        _class_trust.clear()
    _class_trust[id(cls)] = (cls, result)
    return result


def _compute_trust(cls: type) -> bool:
    module_name = type.__getattribute__(cls, "__dict__").get("__module__")
    if not (type.__getattribute__(cls, "__flags__") & _HEAPTYPE):
        # A static C type: Python's own, or a NumPy scalar (np.float32...); not arrays or
        # other extension types, whose operations can allocate without bound.
        name = type.__getattribute__(cls, "__module__")
        if name in _C_MODULES:
            return True
        return name == "numpy" and any(type.__getattribute__(c, "__name__") == "generic" for c in mro(cls))
    if not (module_name in TRUSTED_MODULES or is_tilescope_module(module_name)):
        return False
    # The class must really be the one that module defines (a user class could claim the name).
    obj = sys.modules.get(module_name)
    for part in type.__getattribute__(cls, "__qualname__").split("."):
        obj = _static_dict(obj).get(part) if obj is not None else None
    return obj is cls


def _static_dict(obj: Any) -> dict:
    try:
        return object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return {}


def mro(cls: type) -> tuple:
    return type.__getattribute__(cls, "__mro__")


def class_dict(cls: type):
    return type.__getattribute__(cls, "__dict__")


def lookup_in_class(cls: type, name: str) -> Tuple[Optional[type], Any]:
    """(defining class, raw attribute) of `name` along cls's MRO, without running descriptors."""
    for c in mro(cls):
        d = class_dict(c)
        if name in d:
            return c, d[name]
    return None, None


_user_specials: Dict[int, Tuple[Any, bool]] = {}


def has_user_specials(cls: type) -> bool:
    """Does some untrusted class in cls's MRO define a special method (or a metaclass do)?"""
    hit = _user_specials.get(id(cls))
    if hit is not None and hit[0] is cls:
        return hit[1]
    result = any(not trusted_class(c) and any(n in SPECIALS and not trusted_code(v) for n, v in class_dict(c).items())
                 for c in mro(cls))
    if not result and not trusted_class(type(cls)):
        result = True
    if len(_user_specials) > 4096:
        _user_specials.clear()
    _user_specials[id(cls)] = (cls, result)
    return result


_C_CALLABLES = (types.WrapperDescriptorType, types.MethodDescriptorType, types.BuiltinFunctionType,
                types.MethodWrapperType, types.ClassMethodDescriptorType)
_STDLIB_DIR = sysconfig.get_paths()["stdlib"] + os.sep
TILESCOPE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def trusted_code(value: Any) -> bool:
    """A special method Python, the standard library or tilescope wrote (enum classes get
    `__new__`/`__format__` copied in from enum and int)."""
    if type(value) in (staticmethod, classmethod):
        value = value.__func__
    if type(value) in _C_CALLABLES or value is None:
        return True
    if type(value) is types.FunctionType:
        filename = value.__code__.co_filename
        return filename.startswith(_STDLIB_DIR) or filename.startswith(TILESCOPE_DIR)
    return False


_LIBRARY_DIRS = tuple(sorted({p + os.sep for key in ("purelib", "platlib")
                              for p in [sysconfig.get_paths()[key]]}))


def is_user_code(filename: str) -> bool:
    """Source the user wrote: not the standard library, an installed package or tilescope."""
    return not (filename.startswith(_STDLIB_DIR) or filename.startswith(TILESCOPE_DIR)
                or filename.startswith(_LIBRARY_DIRS))


def is_plain(x: Any, budget=None, _depth: int = 0) -> bool:
    """Plain data all the way down (charging one step per item to `budget`)."""
    t = type(x)
    if t in ATOMS:
        return True
    if _depth > 64:
        return False
    parts = _parts_all(is_plain, x, budget, _depth)
    return parts if parts is not None else t is range


def _parts_all(check, x: Any, budget, depth: int):
    """Whether `check` holds for every item of a container (keys and values of a dict) or for a
    slice's bounds; None when `x` is neither."""
    t = type(x)
    if t in CONTAINERS:
        if budget is not None:
            budget.charge(len(x))
        if t is dict:
            return all(check(k, budget, depth + 1) and check(v, budget, depth + 1) for k, v in x.items())
        return all(check(i, budget, depth + 1) for i in x)
    if t is slice:
        return all(check(p, budget, depth + 1) for p in (x.start, x.stop, x.step))
    return None


def is_safe(x: Any, budget=None, _depth: int = 0) -> bool:
    """Python's own operators may be applied to `x` (plain data, trusted objects, enum members
    without user special methods, classes, modules and functions compared by identity)."""
    t = type(x)
    if t in ATOMS or t is range:
        return True
    if _depth > 64:
        return False
    parts = _parts_all(is_safe, x, budget, _depth)
    if parts is not None:
        return parts
    if t in (types.FunctionType, types.BuiltinFunctionType, types.ModuleType, types.MethodType):
        return True        # equality and hashing by identity
    if isinstance(x, type):
        return not has_user_specials(t)
    return not has_user_specials(t)


def is_user_function(x: Any) -> bool:
    return type(x) is types.FunctionType and not is_tilescope_module(getattr(x, "__module__", None))


def generated_by_dataclass(fn: Any) -> bool:
    """A method `dataclasses` generated (`__init__`, `__eq__`, `__repr__` -- wrapped by
    reprlib --, `__hash__`...)."""
    if type(fn) is not types.FunctionType:
        return False
    wrapped = fn.__dict__.get("__wrapped__")
    if type(wrapped) is types.FunctionType and fn.__code__.co_filename.startswith(_STDLIB_DIR):
        fn = wrapped
    return fn.__code__.co_filename == "<string>"


def describe(x: Any) -> str:
    """A short, safe description of a value for messages (no user __repr__ runs)."""
    t = type(x)
    if t in ATOMS:
        text = repr(x) if t is not int or x.bit_length() < 64 else f"<{x.bit_length()}-bit int>"
        return text if len(text) <= 40 else text[:37] + "..."
    if t is types.ModuleType:
        return f"module '{x.__name__}'"
    if t in (types.FunctionType, types.BuiltinFunctionType):
        return f"{_qualified(x)}()"
    if isinstance(x, type):
        return f"class '{type.__getattribute__(x, '__qualname__')}'"
    return f"a '{type.__getattribute__(t, '__qualname__')}' object"


def _qualified(fn: Any) -> str:
    module = getattr(fn, "__module__", None)
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "?")
    self = getattr(fn, "__self__", None)
    if type(self) is types.ModuleType:
        module = self.__name__
    if module in (None, "builtins", "__main__"):
        return name
    return f"{module}.{name}"
