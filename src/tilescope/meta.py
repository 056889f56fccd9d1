"""Data-less descriptions of kernel arguments: arrays, scalars, constants, tuples, lists.

Array spec strings (``MetaTensor.parse`` and ``repr(MetaTensor)``)::

    spec   := dtype '[' [dim {',' dim}] ']' [':' '[' [stride {',' stride}] ']'] ['%' INT] ['~'] ['@' index]
    dim    := ('?' | INT) ['!'] ['%' INT]
    stride := ('?' | ['-'] INT) ['!'] ['%' INT]

* ``dtype`` is any name ``dtypes.dtype_from_name`` accepts (``f32``, ``bfloat16``...).
* ``?`` is an unknown (dynamic) size or stride; an ``INT`` is a known value.
  A known value is only a fact about the array, not a compile-time constant, unless
  it is followed by ``!`` (static: the kernel is specialised on it).
* ``%N`` states that the size/stride is divisible by N (in elements).
* The stride list is optional; without it strides are C-contiguous in elements
  (``?`` where an unknown size makes them unknown).
* ``%N`` after the brackets: the base address is divisible by N bytes; ``~``: two in-bounds
  indices may reach the same element (a zero stride, overlapping axes).
* ``@i64`` selects the index dtype (``i32``, the default, or ``i64``).

Examples: ``f32[1024,?]``, ``bf16[?%16,64!]``, ``f16[?,?]:[?,1!]``, ``f32[?]@i64``, and what a launch
derives from a contiguous, 16-byte aligned float32 array: ``f32[?%16,?%16]:[?%4,1!]%16``.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import math
import re
import struct
from typing import Sequence

import numpy as np

from .arraylike import bytes_to_elems, c_strides, describe_array, device_pointer, launch_facts
from .dtypes import DType, as_dtype, dtype_from_numpy, int32, int64, literal_dtype
from .spec_syntax import array_spec, split_top

__all__ = ["MetaTensor", "ScalarSpec", "ConstantSpec", "TupleSpec", "ListSpec",
           "parse_args", "arg_spec_of"]


def _need_upstream():
    try:
        import cuda.tile.compilation as comp
    except ImportError as e:
        raise RuntimeError("to_upstream() needs the 'cuda-tile' package, "
                           "which is not installed") from e
    return comp


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _per_dim(value, ndim: int, what: str, check) -> tuple:
    """Expand a scalar to ndim copies or validate a per-dimension sequence."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        return (check(value, what),) * ndim
    value = tuple(value)
    if len(value) != ndim:
        raise ValueError(f"{what} has {len(value)} entries but the array has {ndim} "
                         f"dimensions")
    return tuple(check(v, f"{what}[{i}]") for i, v in enumerate(value))


def _check_divisor(v, what):
    if not _is_int(v) or v <= 0:
        raise ValueError(f"{what} must be a positive integer, got {v!r}")
    return int(v)


def _check_bool(v, what):
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError(f"{what} must be True or False, got {v!r}")
    return bool(v)


def _check_opt_int(v, what):
    if v is not None and not _is_int(v):
        raise ValueError(f"{what} must be an int or None, got {v!r}")
    return None if v is None else int(v)


class MetaTensor:
    """An array described without data: shape, dtype, strides and compile-time facts.

    Args:
        shape: sizes, each a non-negative int (known) or None (dynamic).
        dtype: a DType, a dtype name or a NumPy/torch dtype.
        strides: per-dimension strides in elements (int or None); default C-contiguous.
        index_dtype: int32 (default) or int64, the type of shapes, strides and indices.
        static_shape / static_strides: bool or per-dimension bools; a static entry is
            compiled in as a constant and must be known.
        shape_divisible_by / stride_divisible_by: positive int or per-dimension ints.
        base_addr_divisible_by: positive int, in bytes.
        stride_lower_bound: inclusive lower bound per dimension (int or None). The
            default is 0 for every dimension whose stride is not known to be negative.
        alias_groups: parameters may alias each other iff they share a group name;
            the empty default means "aliases nothing".
        may_alias_internally: whether two in-bounds indices may address the same element.
    """

    __slots__ = ("shape", "dtype", "strides", "index_dtype", "static_shape",
                 "static_strides", "shape_divisible_by", "stride_divisible_by",
                 "base_addr_divisible_by", "stride_lower_bound", "alias_groups",
                 "may_alias_internally")

    def __init__(self, shape, dtype, strides=None, *, index_dtype=int32,
                 static_shape=False, static_strides=False, shape_divisible_by=1,
                 stride_divisible_by=1, base_addr_divisible_by=1, stride_lower_bound=None,
                 alias_groups=(), may_alias_internally=False):
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
            raise ValueError(f"shape must be a sequence of ints/None, got {shape!r}")
        dims = []
        for i, d in enumerate(shape):
            if d is not None and not _is_int(d):
                raise ValueError(f"shape[{i}] must be a non-negative int or None, got {d!r}")
            if d is not None and d < 0:
                raise ValueError(f"shape[{i}] is negative ({d})")
            dims.append(None if d is None else int(d))
        shape = tuple(dims)
        ndim = len(shape)
        dtype = as_dtype(dtype)

        if strides is None:
            strides = c_strides(shape)
        else:
            if isinstance(strides, (str, bytes)) or not isinstance(strides, Sequence):
                raise ValueError(f"strides must be a sequence of ints/None, got {strides!r}")
            if len(strides) != ndim:
                raise ValueError(f"got {len(strides)} strides for a {ndim}-d shape")
            strides = tuple(_check_opt_int(s, f"strides[{i}]") for i, s in enumerate(strides))

        try:
            index_dtype = as_dtype(index_dtype)
        except (TypeError, ValueError):
            raise ValueError(f"index_dtype must be int32 or int64, got {index_dtype!r}") \
                from None
        if index_dtype not in (int32, int64):
            raise ValueError(f"index_dtype must be int32 or int64, got {index_dtype}")

        static_shape = _per_dim(static_shape, ndim, "static_shape", _check_bool)
        static_strides = _per_dim(static_strides, ndim, "static_strides", _check_bool)
        shape_div = _per_dim(shape_divisible_by, ndim, "shape_divisible_by", _check_divisor)
        stride_div = _per_dim(stride_divisible_by, ndim, "stride_divisible_by",
                              _check_divisor)
        base_div = _check_divisor(base_addr_divisible_by, "base_addr_divisible_by")
        if stride_lower_bound is None:
            lower = tuple(None if s is not None and s < 0 else 0 for s in strides)
        else:
            lower = _per_dim(stride_lower_bound, ndim, "stride_lower_bound", _check_opt_int)

        for i in range(ndim):
            for kind, vals, static, div in (("shape", shape, static_shape, shape_div),
                                            ("stride", strides, static_strides, stride_div)):
                v = vals[i]
                if static[i] and v is None:
                    raise ValueError(f"{kind} of dimension {i} is static but unknown")
                if v is not None and v % div[i] != 0:
                    raise ValueError(f"{kind} of dimension {i} is {v}, which is not "
                                     f"divisible by {div[i]}")
            if strides[i] is not None and lower[i] is not None and strides[i] < lower[i]:
                raise ValueError(f"stride of dimension {i} is {strides[i]}, below its lower "
                                 f"bound {lower[i]}")
        limit = index_dtype.max
        for kind, vals in (("shape", shape), ("stride", strides)):
            for i, v in enumerate(vals):
                if v is not None and abs(v) > limit:
                    raise ValueError(f"{kind} of dimension {i} ({v}) does not fit index dtype "
                                     f"{index_dtype}; use index_dtype=int64")

        if isinstance(alias_groups, str):
            raise ValueError("alias_groups must be a sequence of names, not a single string")
        alias_groups = tuple(alias_groups)
        for g in alias_groups:
            if not isinstance(g, str):
                raise ValueError(f"alias group names must be strings, got {g!r}")
        if len(set(alias_groups)) != len(alias_groups):
            raise ValueError(f"alias_groups has duplicates: {alias_groups}")

        set_("shape", shape)
        set_("dtype", dtype)
        set_("strides", strides)
        set_("index_dtype", index_dtype)
        set_("static_shape", static_shape)
        set_("static_strides", static_strides)
        set_("shape_divisible_by", shape_div)
        set_("stride_divisible_by", stride_div)
        set_("base_addr_divisible_by", base_div)
        set_("stride_lower_bound", lower)
        set_("alias_groups", alias_groups)
        set_("may_alias_internally", bool(may_alias_internally))

    def __setattr__(self, k, v):
        raise AttributeError("MetaTensor is immutable; use replace()")

    # --- derived ------------------------------------------------------------------
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int | None:
        """Number of elements, or None if a dimension is dynamic."""
        return None if None in self.shape else math.prod(self.shape)

    @property
    def nbytes(self) -> int | None:
        """Bytes of element data (size * bitwidth / 8, rounded up), None if dynamic."""
        n = self.size
        return None if n is None else (n * self.dtype.bitwidth + 7) // 8

    @property
    def is_c_contiguous(self) -> bool | None:
        """True/False when decidable from the known sizes and strides, else None."""
        if len(self.shape) == 0:
            return True
        expected = c_strides(self.shape)
        unknown = False
        for d, s, e in zip(self.shape, self.strides, expected):
            if d is not None and d <= 1:
                continue  # stride of a size-0/1 dimension does not matter
            if s is None or e is None:
                unknown = True
            elif s != e:
                return False
        return None if unknown else True

    def _fields(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__)

    def __eq__(self, other):
        if not isinstance(other, MetaTensor):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())

    def replace(self, **changes) -> "MetaTensor":
        """A copy with some constructor arguments changed."""
        kw = {k: getattr(self, k) for k in self.__slots__}
        if "shape" in changes and "strides" not in changes:
            kw["strides"] = None
        if "strides" in changes and "stride_lower_bound" not in changes:
            kw["stride_lower_bound"] = None
        kw.update(changes)
        shape, dtype, strides = kw.pop("shape"), kw.pop("dtype"), kw.pop("strides")
        return MetaTensor(shape, dtype, strides, **kw)

    # --- spec strings -------------------------------------------------------------
    @property
    def spec(self) -> str:
        """The spec string (see module docstring); omits facts it cannot express."""
        def item(v, static, div):
            s = "?" if v is None else str(v)
            if static:
                s += "!"
            if div != 1:
                s += f"%{div}"
            return s
        out = self.dtype.short + "[" + ",".join(
            item(*t) for t in zip(self.shape, self.static_shape, self.shape_divisible_by)) + "]"
        if (self.strides != c_strides(self.shape) or any(self.static_strides)
                or any(d != 1 for d in self.stride_divisible_by)):
            out += ":[" + ",".join(item(*t) for t in zip(
                self.strides, self.static_strides, self.stride_divisible_by)) + "]"
        if self.base_addr_divisible_by != 1:
            out += f"%{self.base_addr_divisible_by}"
        if self.may_alias_internally:
            out += "~"
        if self.index_dtype is int64:
            out += "@i64"
        return out

    def __repr__(self):
        default_lower = tuple(None if s is not None and s < 0 else 0 for s in self.strides)
        extra = []
        if self.stride_lower_bound != default_lower:
            extra.append(f"stride_lower_bound={self.stride_lower_bound!r}")
        if self.alias_groups:
            extra.append(f"alias_groups={self.alias_groups!r}")
        if not extra:
            return self.spec
        return f"MetaTensor.parse({self.spec!r}, {', '.join(extra)})"

    __str__ = __repr__


    @classmethod
    def parse(cls, spec: str, **overrides) -> "MetaTensor":
        """Build a MetaTensor from a spec string (spec_syntax.py); keyword arguments set further facts."""
        shape, dtype, strides, kw = array_spec(spec)
        kw.update(overrides)
        try:
            return cls(shape, dtype, strides, **kw)
        except ValueError as e:
            raise ValueError(f"bad array spec {spec!r}: {e}") from None

    # --- from real arrays -----------------------------------------------------------
    @classmethod
    def like(cls, x, **overrides) -> "MetaTensor":
        """Describe an existing array: NumPy, torch (any device, incl. "meta"), CuPy,
        ``__cuda_array_interface__`` objects, ``jax.ShapeDtypeStruct``/jax arrays, or
        objects NumPy can import through ``__dlpack__``. Nothing is imported eagerly:
        a library is only consulted when it is already loaded.
        """
        if isinstance(x, MetaTensor):
            return x.replace(**overrides) if overrides else x
        if type(x) is np.ndarray and not overrides and cls is MetaTensor:
            return _ndarray_meta(x.dtype, x.shape, x.strides)      # every launch describes its arrays
        shape, dtype, strides = describe_array(x)
        ptr = device_pointer(x)
        if ptr is not None:
            # a GPU array: what a launch derives from it (see launch_facts)
            overrides = {**launch_facts(ptr, shape, strides, as_dtype(dtype)), **overrides}
        return cls(shape, dtype, strides, **overrides)

    def signature(self) -> "MetaTensor":
        """Only what a kernel signature carries: the facts, without the informational sizes and
        strides (a launch compiles one kernel for every array with the same facts)."""
        return MetaTensor(tuple(d if st else None for d, st in zip(self.shape, self.static_shape)), self.dtype,
                          tuple(v if st else None for v, st in zip(self.strides, self.static_strides)),
                          index_dtype=self.index_dtype, static_shape=self.static_shape,
                          static_strides=self.static_strides, shape_divisible_by=self.shape_divisible_by,
                          stride_divisible_by=self.stride_divisible_by,
                          base_addr_divisible_by=self.base_addr_divisible_by,
                          stride_lower_bound=self.stride_lower_bound, alias_groups=self.alias_groups,
                          may_alias_internally=self.may_alias_internally)

    # --- upstream ---------------------------------------------------------------------
    def to_upstream(self):
        """The equivalent ``cuda.tile.compilation.ArrayConstraint``."""
        comp = _need_upstream()
        return comp.ArrayConstraint(
            self.dtype.to_upstream(), self.ndim,
            index_dtype=self.index_dtype.to_upstream(),
            stride_lower_bound_incl=self.stride_lower_bound,
            alias_groups=self.alias_groups,
            may_alias_internally=self.may_alias_internally,
            stride_constant=tuple(s if st else None
                                  for s, st in zip(self.strides, self.static_strides)),
            shape_constant=tuple(d if st else None
                                 for d, st in zip(self.shape, self.static_shape)),
            stride_divisible_by=self.stride_divisible_by,
            shape_divisible_by=self.shape_divisible_by,
            base_addr_divisible_by=self.base_addr_divisible_by)


@functools.lru_cache(maxsize=1024)
def _ndarray_meta(dtype: np.dtype, shape: tuple, strides: tuple) -> "MetaTensor":
    """MetaTensor.like of a NumPy array with this dtype, shape and byte strides (immutable,
    so one per distinct description)."""
    return MetaTensor(shape, dtype_from_numpy(dtype), bytes_to_elems(strides, dtype.itemsize, "array"))


# ---------------------------------------------------------------------------------------
# Non-array argument specs.
# ---------------------------------------------------------------------------------------

class ScalarSpec:
    """A runtime scalar kernel parameter of the given dtype."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        object.__setattr__(self, "dtype", as_dtype(dtype))

    def __setattr__(self, k, v):
        raise AttributeError("ScalarSpec is immutable")

    def __eq__(self, other):
        return isinstance(other, ScalarSpec) and other.dtype is self.dtype

    def __hash__(self):
        return hash(("scalar", self.dtype.name))

    def __repr__(self):
        return self.dtype.short

    def to_upstream(self):
        return _need_upstream().ScalarConstraint(self.dtype.to_upstream())


_CONST_TYPES = (bool, int, float, str, type(None))


def _is_constant_value(value) -> bool:
    """Hashable compile-time values a kernel can be specialised on (Constant parameters)."""
    if isinstance(value, tuple):
        return all(_is_constant_value(v) for v in value)
    if isinstance(value, (_CONST_TYPES, DType, enum.Enum)):
        return True
    try:
        hash(value)
    except TypeError:
        return False
    return not isinstance(value, np.ndarray)


def _constant_key(v):
    if isinstance(v, tuple):
        return (tuple, tuple(_constant_key(i) for i in v))
    return (type(v), struct.pack("=d", v) if isinstance(v, float) else v)


class ConstantSpec:
    """A compile-time constant argument (bool, int, float, str or None).

    Like upstream, equality takes the Python type into account (1, 1.0 and True differ)
    and treats a float NaN as equal to itself.
    """

    __slots__ = ("value",)

    def __init__(self, value):
        if isinstance(value, np.generic):
            value = value.item()
        if not _is_constant_value(value):
            raise TypeError(f"a constant must be a bool, int, float, str, None, a dtype, an enum member "
                            f"or a tuple of those, got {type(value).__name__}")
        object.__setattr__(self, "value", value)

    def __setattr__(self, k, v):
        raise AttributeError("ConstantSpec is immutable")

    def _key(self):
        return _constant_key(self.value)

    def __eq__(self, other):
        return isinstance(other, ConstantSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return repr(self.value)

    def to_upstream(self):
        return _need_upstream().ConstantConstraint(self.value)


def _to_spec(x):
    if isinstance(x, (MetaTensor, ScalarSpec, ConstantSpec, TupleSpec, ListSpec)):
        return x
    if isinstance(x, tuple):
        return TupleSpec(x)
    if isinstance(x, _CONST_TYPES):
        return ConstantSpec(x)
    raise TypeError(f"cannot use {x!r} as an argument spec")


class TupleSpec:
    """A tuple argument; items are specs (plain constants and tuples are wrapped)."""

    __slots__ = ("items",)

    def __init__(self, items):
        object.__setattr__(self, "items", tuple(_to_spec(i) for i in items))

    def __setattr__(self, k, v):
        raise AttributeError("TupleSpec is immutable")

    def __eq__(self, other):
        return isinstance(other, TupleSpec) and self.items == other.items

    def __hash__(self):
        return hash(("tuple", self.items))

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __repr__(self):
        if len(self.items) == 1:
            return f"({self.items[0]!r},)"
        return "(" + ", ".join(repr(i) for i in self.items) + ")"

    def to_upstream(self):
        return _need_upstream().TupleConstraint([i.to_upstream() for i in self.items])


class DataclassSpec(TupleSpec):
    """A frozen dataclass instance argument: its fields, in order, flattened like a tuple's items."""

    __slots__ = ("cls",)

    def __init__(self, cls, items):
        super().__init__(items)
        object.__setattr__(self, "cls", cls)

    def __eq__(self, other):
        return isinstance(other, DataclassSpec) and self.cls is other.cls and self.items == other.items

    def __hash__(self):
        return hash(("dataclass", self.cls, self.items))

    def __repr__(self):
        names = [f.name for f in dataclasses.fields(self.cls)]
        fields = ", ".join(f"{n}={s!r}" for n, s in zip(names, self.items))
        return f"{self.cls.__qualname__}({fields})"

    def to_upstream(self):
        raise TypeError("dataclass arguments have no upstream constraint description in tilescope")


class ListSpec:
    """A list-of-arrays argument, every element described by ``item``."""

    __slots__ = ("item", "alias_groups", "elements_may_alias")

    def __init__(self, item, *, alias_groups=(), elements_may_alias=False):
        if isinstance(item, str):
            item = MetaTensor.parse(item)
        if not isinstance(item, MetaTensor):
            raise TypeError(f"list elements must be described by a MetaTensor, got {item!r}")
        if isinstance(alias_groups, str) or not all(isinstance(g, str) for g in alias_groups):
            raise ValueError("alias_groups must be a sequence of names")
        object.__setattr__(self, "item", item)
        object.__setattr__(self, "alias_groups", tuple(alias_groups))
        object.__setattr__(self, "elements_may_alias", bool(elements_may_alias))

    def __setattr__(self, k, v):
        raise AttributeError("ListSpec is immutable")

    def _key(self):
        return (self.item, self.alias_groups, self.elements_may_alias)

    def __eq__(self, other):
        return isinstance(other, ListSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(("list",) + self._key())

    def __repr__(self):
        return f"list[{self.item!r}]"

    def to_upstream(self):
        return _need_upstream().ListConstraint(self.item.to_upstream(),
                                               alias_groups=self.alias_groups,
                                               elements_may_alias=self.elements_may_alias)


# ---------------------------------------------------------------------------------------
# Parsing argument lists and describing real arguments.
# ---------------------------------------------------------------------------------------

_NONFINITE = re.compile(r"[+-]?(inf|nan)", re.IGNORECASE)


def _parse_one(elem: str):
    s = elem.strip()
    if s.startswith("(") and s.endswith(")"):
        inner = s[1:-1].strip()
        if not inner:
            return TupleSpec(())
        parts = split_top(inner)
        if parts[-1].strip() == "":  # "(x,)"
            parts = parts[:-1]
        return TupleSpec([_parse_one(p) for p in parts])
    if s[:5] in ("list[", "List[") and s.endswith("]"):        # (List[...]: how the IR prints it)
        item = _parse_one(s[5:-1])
        if not isinstance(item, MetaTensor):
            raise ValueError(f"list elements must be arrays, got {s[5:-1].strip()!r}")
        return ListSpec(item)
    if "[" in s:
        return MetaTensor.parse(s)
    if _NONFINITE.fullmatch(s):    # repr() of a float constant such as -inf; literal_eval has no name for it
        return _to_spec(float(s))
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", s) and s not in ("True", "False", "None"):
        return ScalarSpec(as_dtype(s))  # ValueError lists the known dtypes
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError):
        raise ValueError("not an array spec, dtype name or Python literal") from None
    try:
        return _to_spec(value)
    except TypeError as e:
        raise ValueError(str(e)) from None


def parse_args(text: str) -> list:
    """Parse a comma-separated argument list such as ``"f32[1024,1024], f32[?], i32, 64"``.

    Elements: an array spec (``MetaTensor.parse``), a bare dtype name (a runtime
    scalar), a Python literal (a constant: int, float, bool, str, None), a
    parenthesised tuple of elements, or ``list[<array spec>]``.
    """
    if not text.strip():
        return []
    out = []
    for pos, elem in enumerate(split_top(text)):
        if not elem.strip():
            raise ValueError(f"argument {pos} is empty in {text!r}")
        try:
            out.append(_parse_one(elem))
        except ValueError as e:
            msg = str(e)
            raise ValueError(f"argument {pos} ({elem.strip()!r}): {msg}") from None
    return out


def _merge(a: tuple, b: tuple) -> tuple:
    return tuple(x if x == y else None for x, y in zip(a, b))


def arg_spec_of(value):
    """The spec of a real runtime argument (what a launch would see)."""
    if isinstance(value, (MetaTensor, ScalarSpec, ConstantSpec, TupleSpec, ListSpec)):
        return value
    if isinstance(value, (bool, int, float)):
        return ScalarSpec(literal_dtype(value))
    if isinstance(value, np.generic):
        return ScalarSpec(dtype_from_numpy(value.dtype))
    if value is None or isinstance(value, str):
        return ConstantSpec(value)
    if isinstance(value, tuple):
        return TupleSpec([arg_spec_of(v) for v in value])
    if isinstance(value, list):
        if not value:
            raise ValueError("cannot describe an empty list argument (element type unknown)")
        metas = [MetaTensor.like(v) for v in value]
        first = metas[0]
        for i, m in enumerate(metas[1:], 1):
            if m.dtype is not first.dtype or m.ndim != first.ndim:
                raise ValueError(f"list element {i} is {m!r} but element 0 is {first!r}; "
                                 f"all elements need the same dtype and rank")
        shape, strides = first.shape, first.strides
        for m in metas[1:]:
            shape, strides = _merge(shape, m.shape), _merge(strides, m.strides)
        # facts every element shares (GPU arrays: as a launch derives them for a list)
        facts = dict(static_strides=tuple(all(f) for f in zip(*(m.static_strides for m in metas))),
                     stride_divisible_by=tuple(min(f) for f in zip(*(m.stride_divisible_by for m in metas))),
                     shape_divisible_by=tuple(min(f) for f in zip(*(m.shape_divisible_by for m in metas))),
                     base_addr_divisible_by=min(m.base_addr_divisible_by for m in metas),
                     may_alias_internally=any(m.may_alias_internally for m in metas))
        return ListSpec(MetaTensor(shape, first.dtype, strides, **facts),
                        elements_may_alias=any(device_pointer(v) is not None for v in value))
    return MetaTensor.like(value)
