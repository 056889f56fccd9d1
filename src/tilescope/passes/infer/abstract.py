"""Abstract values of the interpreter (bound methods, ranges, pending exceptions...), the
frames and loop records it keeps, and how values are described in messages."""
from __future__ import annotations

import dataclasses
import enum
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

from ... import dtypes as D
from ...errors import InlinedScope, Loc, TileError
from ...frontend import hir as H
from ...frontend.source import SourceFunction
from ...ir.core import Value
from ...ir.types import ArrayType, TileType, Type
from ...ops.common import describe
from ...pyeval.kinds import lookup_in_class
from ..values import flatten, same_leaf


class BoundMethod:
    """`value.method` before it is called."""

    def __init__(self, target: Any, self_value: Any, name: str = ""):
        self.target, self.self_value, self.name = target, self_value, name


class RangeValue:
    """`range(start, stop, step)` with abstract bounds; only iterable by `for`."""

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step


class ContextManagerCall:
    """A call of a `@contextmanager` function, entered by `with`."""

    def __init__(self, fn, args, kwargs):
        self.fn, self.args, self.kwargs = fn, args, kwargs


@dataclasses.dataclass
class LoopInfo:
    names: List[str]          # loop-carried variable names
    trees: List[Any]          # their aggregate structure
    leaf_types: List[Any]     # Type for IR leaves, or the constant for constant leaves
    exits: List[Tuple[str, Dict[str, Any], Any, Any]] = dataclasses.field(default_factory=list)
    init_locs: Dict[str, Loc] = dataclasses.field(default_factory=dict)


class Env(dict):
    """Variable bindings plus where each was last assigned (for path-dependent type errors)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.locs: Dict[str, Loc] = dict(getattr(args[0], "locs", {})) if args else {}

    def copy(self) -> "Env":
        return Env(self)


class MaybeUndefined:
    """A name assigned on only some paths of a dynamic `if`, merged at `loc`."""

    def __init__(self, loc: Optional[Loc]):
        self.loc = loc


class Conflict:
    """A name whose type differs between the paths that meet here; an error only if it is used."""

    def __init__(self, error: TileError):
        self.error = error


class Frame:
    """Variables of one (inlined) function activation."""

    def __init__(self, name: str, globals_: Dict[str, Any], closure: Optional[Callable[[str], Any]],
                 hir_fn: Optional[H.FunctionDef], parent: Optional["Frame"] = None,
                 is_entry: bool = False):
        self.name = name
        self.vars: Env = Env()
        self.globals = globals_
        self.closure = closure
        self.hir_fn = hir_fn
        self.parent = parent           # defining frame, for closures
        self.is_entry = is_entry
        self.loops: List[LoopInfo] = []
        self.loop_assigned: List[frozenset] = []   # names assigned by each enclosing loop's body
        self.loop_maybe: set = set()              # names a finished loop may or may not have assigned
        self.retval: Any = None
        self.retloc: Optional[Loc] = None   # where the returned value was made, for type errors
        self.call_site: Optional[Loc] = None
        # An inlined helper: which inlining it is, and its call site inside the caller's own scope
        # (the locations of the ops it emits carry both, for debug info).
        self.scope: Optional[InlinedScope] = None
        self.scoped_site: Optional[Loc] = None


class _Exit(Exception):
    """Internal: a branch ended with break/continue/return (the terminator is already emitted)."""


class NotConstant(Exception):
    """Internal: a value is known only at run time."""


class _AnyType:
    def __repr__(self):
        return "<any>"


_ANY = _AnyType()


class _PendingException:
    """An exception class call inside tile code, to be raised by static_exception."""

    def __init__(self, cls, args, kwargs):
        self.cls, self.args, self.kwargs = cls, args, kwargs


def _leaf_type(x: Any) -> Optional[Type]:
    return x.type if isinstance(x, Value) else None


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum)


def _is_type_like(x: Any) -> bool:
    return isinstance(x, type) or isinstance(x, types.UnionType if hasattr(types, "UnionType") else type)


def _same_binding(a: Any, b: Any) -> bool:
    if a is b:
        return True
    la, ta = flatten(a)
    lb, tb = flatten(b)
    return ta == tb and all(same_leaf(x, y) for x, y in zip(la, lb))


def _short(x: Any) -> str:
    """A type-like description for path-dependent type errors."""
    if isinstance(x, Value):
        return str(x.type)
    if _is_number(x):
        return str(TileType(D.literal_dtype(x), ()))
    if isinstance(x, Type):
        return str(x)
    return describe(x)




def _hashable(x: Any) -> bool:
    try:
        hash(x)
        return True
    except TypeError:
        return False


def _subject(name: str) -> str:
    """A variable in backticks; the merged return value of a helper as plain words (as upstream)."""
    return name if name == "return value" else f"`{name}`"


def _item_assignment_error(obj: Any) -> str:
    """Upstream's wording: tuples and tiles are immutable, arrays are written with store()."""
    if isinstance(obj, tuple):
        return "Tuples are immutable: item assignment is not supported"
    if isinstance(obj, Value) and isinstance(obj.type, TileType):
        return f"Tiles are immutable: item assignment is not supported ({obj.type})"
    if isinstance(obj, Value) and isinstance(obj.type, ArrayType):
        return f"Arrays do not support item assignment. Use store() to write to {obj.type}"
    return f"item assignment is not supported on {describe(obj)}"




def _dataclass_dunder(obj: Any, name: str):
    """A user-defined special method (`__call__`, `__getitem__`...) of a dataclass instance."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return None
    member = _class_member(type(obj), name)
    return member if isinstance(member, (types.FunctionType, SourceFunction)) else None


def _class_member(cls: type, name: str) -> Any:
    """A class attribute as written in the class body (no descriptor runs), or None."""
    return lookup_in_class(cls, name)[1]
