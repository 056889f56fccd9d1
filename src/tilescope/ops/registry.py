"""The op registry: one entry per cuTile operation, rules side by side.

A *surface function* is what kernel code calls (`ct.load`, `Tile.reshape`, the
`+` operator). It owns the Python signature, the docstring and the typing rule,
which checks arguments and emits typed-IR ops.

A *primitive* is an IR op name (`load_tile`, `binary`, `reduce`...). It owns
the rules that give the op meaning: `numpy` (CPU executor), `tileir` (TileIR
lowering) and optionally `fold` (constant folding). Backends look rules up
here, so adding an op touches one family file.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Optional, Tuple


class SurfaceFunction:
    """A public `cuda.tile` function. Calling it outside a kernel is an error, as upstream."""

    def __init__(self, stub: Callable, name: str, family: str):
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

    def __call__(self, *args, **kwargs):
        if self.host is not None:
            return self.host(*args, **kwargs)
        # Only trusted compile-time Python calls ops natively (the restricted evaluator calls
        # the typing rule itself).
        from ..lang.trusted import call_in_trusted_python
        done, result = call_in_trusted_python(self.name, self.name in STATIC_EVAL_OK, args, kwargs)
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

# Operations compile-time Python (static_eval, static_assert...) may call, as in cuTile.
STATIC_EVAL_OK = frozenset(
    "matmul add sub mul truediv floordiv pow mod divmod bitwise_and bitwise_or bitwise_xor bitwise_lshift "
    "bitwise_rshift bitwise_not minimum maximum cdiv greater greater_equal less less_equal equal not_equal "
    "negative".split())


def surface(family: str, name: Optional[str] = None, *, raw_args: bool = False):
    """Decorator: turn a stub `def f(x, /, axis=None): '''doc'''` into a SurfaceFunction."""
    def wrap(stub: Callable) -> SurfaceFunction:
        fn_name = name or stub.__name__
        sf = SurfaceFunction(stub, fn_name, family)
        sf.raw_args = raw_args
        SURFACE[fn_name] = sf
        return sf
    return wrap


class Primitive:
    """Meaning of one IR op name, filled in by the families and backends."""

    def __init__(self, name: str):
        self.name = name
        self.numpy: Optional[Callable] = None
        self.tileir: Optional[Callable] = None
        self.fold: Optional[Callable] = None
        self.doc: str = ""

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"


PRIMITIVES: Dict[str, Primitive] = {}


def primitive(name: str, doc: str = "") -> Primitive:
    p = PRIMITIVES.get(name)
    if p is None:
        p = PRIMITIVES[name] = Primitive(name)
    if doc:
        p.doc = doc
    return p


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


def numpy_rule(name: str):
    """Decorator: the CPU executor's rule for IR op `name`: `rule(ex, op, *inputs) -> result(s)`.

    Inputs and results carry a leading block axis (size B, or 1 when uniform).
    """
    def wrap(fn: Callable) -> Callable:
        primitive(name).numpy = fn
        return fn
    return wrap
