"""The op registry: one entry per cuTile operation, rules side by side.

A *surface function* is what kernel code calls (`ct.load`, `Tile.reshape`, the
`+` operator). It owns the Python signature, the docstring and the typing rule,
which checks arguments and emits typed-IR ops.

A *primitive* is an IR op name (`load_tile`, `binary`, `reduce`...): its schema and
every backend's rule for it, declared in the op's family file (`ir/primitive.py`
describes the table). Backends look rules up there and nowhere else.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Optional, Tuple

from ..dtypes import DType, dtype_from_name
from ..enums import MemoryOrder, MemoryScope, PaddingMode, RoundingMode
from ..ir.primitive import PRIMITIVES, Attr, AttrKind, Primitive, declare, enum_kind  # noqa: F401  (re-exported)


class SurfaceFunction:
    """A public `cuda.tile` function. Calling it outside a kernel is an error, as upstream."""

    def __init__(self, stub: Callable, name: str, family: str, static: bool = False):
        self.__name__ = name
        self.__qualname__ = name
        self.__doc__ = stub.__doc__
        self.__module__ = "cuda.tile"
        self.__wrapped__ = stub
        self.name = name
        self.family = family
        self.signature = inspect.signature(stub)
        self.typing: Optional[Callable] = None
        # Rules that bind arguments themselves (print(*args), static_* helpers).
        self.raw_args = False
        # Host-side implementation for functions also callable from ordinary Python (cdiv).
        self.host: Optional[Callable] = None
        # Callable from compile-time Python (static_eval, static_assert...), as in cuTile.
        self.static = static

    def __call__(self, *args, **kwargs):
        if self.host is not None:
            return self.host(*args, **kwargs)
        # Only trusted compile-time Python calls ops natively (the restricted evaluator calls
        # the typing rule itself).
        done, result = NATIVE_CALL[0](self.name, self.static, args, kwargs)
        if done:
            return result
        raise RuntimeError(f"cuda.tile.{self.name}() can only be called from tile code "
                           f"(a @ct.kernel or a function it calls)")

    def rule(self, fn: Callable) -> Callable:
        self.typing = fn
        return fn

    def __repr__(self) -> str:
        return f"<cuda.tile.{self.name}>"


SURFACE: Dict[str, SurfaceFunction] = {}

# The compile-time forms: their argument is Python source, read where they are written
# (passes/infer/static.py), so they are recognised by name.
STATIC_FORMS = frozenset({"static_eval", "static_assert", "static_iter", "static_exception"})


def _not_in_trusted_python(name: str, allowed: bool, args, kwargs):
    return False, None


# How an op called as ordinary Python answers: (done, result). Trusted compile-time Python
# (passes/infer/trusted.py) installs its own when it is imported: it runs the user's code
# natively, and the ops that code calls are typed in the kernel being compiled.
NATIVE_CALL = [_not_in_trusted_python]

# Rules for Python objects called in tile code (built-ins such as `range`, classes such as
# `ct.Slice`), keyed by the object's id: passes/infer/builtin_calls.py and the op families
# fill it, inference reads it.
PYTHON_CALLS: Dict[int, Callable] = {}


def python_call_rule(fn_obj: Any) -> Optional[Callable]:
    return PYTHON_CALLS.get(id(fn_obj))


def register_python_call(fn_obj: Any, rule: Callable) -> Callable:
    """Give a Python callable (a built-in, a class such as `ct.Slice`) a rule in tile code."""
    PYTHON_CALLS[id(fn_obj)] = rule
    return rule

def surface(family: str, name: Optional[str] = None, *, raw_args: bool = False, static: bool = False):
    """Decorator: turn a stub `def f(x, /, axis=None): '''doc'''` into a SurfaceFunction
    (`static`: also callable from compile-time Python)."""
    def wrap(stub: Callable) -> SurfaceFunction:
        fn_name = name or stub.__name__
        sf = SurfaceFunction(stub, fn_name, family, static)
        sf.raw_args = raw_args
        SURFACE[fn_name] = sf
        return sf
    return wrap


def generated_surface(family: str, qualname: str, stub: Callable, doc: str) -> SurfaceFunction:
    """A surface function whose stub is made in a loop (one per mode): it takes its name from
    the last part of `qualname` ("TiledView.atomic_store_add") and the docstring `doc`."""
    stub.__name__ = qualname.rpartition(".")[2]
    stub.__doc__ = doc
    return surface(family, name=qualname)(stub)


def no_rule(column: str, reason: str, *prims: Primitive) -> None:
    """State why `prims` have no rule for `column` (shown by `tilescope ops`)."""
    for p in prims:
        p.unsupported(column, reason)


def primitive(name: str, doc: str = "", **schema) -> Primitive:
    """Declare IR op `name` with its schema (see `ir.primitive.Primitive`); its family file then
    attaches its rules with the returned primitive's decorators (`@P.numpy`, `@P.transpile`...)."""
    return declare(name, doc, **schema)


# Attribute kinds the families share.
DTYPE = AttrKind("dtype", lambda x: isinstance(x, DType), dtype_from_name)
ROUNDING = enum_kind(RoundingMode)
PADDING = enum_kind(PaddingMode)
MEMORY_ORDER = enum_kind(MemoryOrder)
MEMORY_SCOPE = enum_kind(MemoryScope)


def optional(kind: AttrKind, doc: str = "") -> Attr:
    """An attribute that may be absent (reads as None)."""
    return Attr(kind, None, doc)


# Methods and attributes of IR values, keyed by type class (TileType, ArrayType...).
METHODS: Dict[Tuple[type, str], Any] = {}
ATTRIBUTES: Dict[Tuple[type, str], Callable] = {}


def method(type_cls: type, name: str, target: Any) -> None:
    """`value.name(...)` calls `target` (a SurfaceFunction or rule) with the value first."""
    METHODS[(type_cls, name)] = target


def attribute(type_cls: type, name: str):
    """Decorator: `value.name` evaluates `fn(ctx, value)`."""
    def wrap(fn: Callable) -> Callable:
        ATTRIBUTES[(type_cls, name)] = fn
        return fn
    return wrap


def type_fields(type_cls: type, *names: str) -> None:
    """`value.<name>` is the field of the value's IR type of that name, for each of `names`."""
    for name in names:
        attribute(type_cls, name)(lambda ctx, value, name=name: getattr(value.type, name))
