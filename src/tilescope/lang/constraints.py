"""Parameter constraints of `cuda.tile.compilation` (what an ahead-of-time compilation assumes
about each kernel parameter) and calling conventions, as upstream's; `constraint_of_spec` maps
tilescope's argument specs onto them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Tuple, Union

from ..dtypes import DType, int32, int64, uint32
from ..meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec


ConstantValue = Union[bool, int, float]


class CallingConvention:
    """How a compiled kernel takes its arguments (`cutile_python_v1` is what `ct.launch` uses)."""

    _KNOWN = {"t1": ("cutile_python_v1", 1), "t2": ("cutile_python_v2", 2)}

    def __init__(self, code: str):
        if code not in self._KNOWN:
            raise ValueError(f"Unknown calling convention code '{code}'")
        self._code = code

    @staticmethod
    def cutile_python_v1() -> "CallingConvention":
        return CallingConvention("t1")

    @staticmethod
    def cutile_python_v2() -> "CallingConvention":
        return CallingConvention("t2")

    @staticmethod
    def from_code(code: str, /) -> "CallingConvention":
        return CallingConvention(code)

    @property
    def name(self) -> str:
        return self._KNOWN[self._code][0]

    @property
    def code(self) -> str:
        return self._code

    @property
    def version(self) -> int:
        return self._KNOWN[self._code][1]

    def __eq__(self, other):
        return isinstance(other, CallingConvention) and other._code == self._code

    def __hash__(self):
        return hash(self._code)

    def __repr__(self):
        return f"CallingConvention.{self.name}()"


def _per_dim(value, ndim: int, what: str, default, check) -> tuple:
    if value is None or isinstance(value, int):
        values = (default if value is None else value,) * ndim
    else:
        values = tuple(value)
        if len(values) != ndim:
            raise ValueError(f"`{what}` has {len(values)} entries for an array of {ndim} dimensions")
    for i, v in enumerate(values):
        check(i, v, what)
    return values


def _optional_int(i, v, what):
    if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
        raise TypeError(f"Element #{i} of `{what}` must be an integer or None, got {v!r}")


def _divisor(i, v, what):
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise ValueError(f"Element #{i} of `{what}` must be a positive integer, got {v!r}")


def _groups(alias_groups) -> Tuple[str, ...]:
    if isinstance(alias_groups, str):
        raise TypeError("`alias_groups` cannot be a string")
    groups = tuple(alias_groups)
    for i, g in enumerate(groups):
        if not isinstance(g, str):
            raise TypeError(f"Element #{i} of `alias_groups` has non-string type {type(g)}")
    return groups


def _dtype(dtype, what: str) -> DType:
    if not isinstance(dtype, DType):
        raise TypeError(f"Expected a DType for the `{what}` parameter, got '{dtype}'")
    return dtype


@dataclass(frozen=True, init=False)
class ScalarConstraint:
    """A scalar parameter of this dtype."""
    dtype: DType

    def __init__(self, dtype: DType):
        object.__setattr__(self, "dtype", _dtype(dtype, "dtype"))

    def to_spec(self):
        return ScalarSpec(self.dtype)


@dataclass(frozen=True, init=False)
class ArrayConstraint:
    """An array parameter: dtype, rank and what may be assumed of its layout (as upstream's)."""
    dtype: DType
    ndim: int
    index_dtype: DType
    stride_lower_bound_incl: Tuple[Any, ...]
    alias_groups: Tuple[str, ...]
    may_alias_internally: bool
    stride_constant: Tuple[Any, ...]
    shape_constant: Tuple[Any, ...]
    stride_divisible_by: Tuple[int, ...]
    shape_divisible_by: Tuple[int, ...]
    base_addr_divisible_by: int

    def __init__(self, dtype: DType, ndim: int, *, index_dtype: DType, stride_lower_bound_incl,
                 alias_groups: Sequence[str], may_alias_internally: bool, stride_constant=None,
                 shape_constant=None, stride_divisible_by=1, shape_divisible_by=1, base_addr_divisible_by=1):
        _dtype(dtype, "dtype")
        if isinstance(ndim, bool) or not isinstance(ndim, int):
            raise TypeError(f"Expected an integer for `ndim`, got '{ndim}'")
        if ndim < 0:
            raise ValueError("`ndim` cannot be negative")
        if index_dtype not in (int32, uint32, int64):
            raise ValueError(f"`index_dtype` must be int32 or int64, got {index_dtype}")
        if isinstance(base_addr_divisible_by, bool) or not isinstance(base_addr_divisible_by, int):
            raise TypeError(f"Expected an integer for the `base_addr_divisible_by` parameter, "
                            f"got {base_addr_divisible_by}")
        if base_addr_divisible_by <= 0:
            raise ValueError(f"`base_addr_divisible_by` must be strictly positive, got {base_addr_divisible_by}")
        stride_constant = _per_dim(stride_constant, ndim, "stride_constant", None, _optional_int)
        shape_constant = _per_dim(shape_constant, ndim, "shape_constant", None, _optional_int)
        for i, v in enumerate(shape_constant):
            if v is not None and v < 0:
                raise ValueError(f"Element #{i} of `shape_constant` cannot be negative")
        lower = _per_dim(stride_lower_bound_incl, ndim, "stride_lower_bound_incl", None, _optional_int)
        # A known stride makes its lower bound and divisor redundant (dropped, as upstream does).
        lower = tuple(None if c is not None else v for c, v in zip(stride_constant, lower))
        stride_div = tuple(1 if c is not None else v for c, v in zip(
            stride_constant, _per_dim(stride_divisible_by, ndim, "stride_divisible_by", 1, _divisor)))
        shape_div = tuple(1 if c is not None else v for c, v in zip(
            shape_constant, _per_dim(shape_divisible_by, ndim, "shape_divisible_by", 1, _divisor)))
        for name, value in (("dtype", dtype), ("ndim", ndim), ("index_dtype", index_dtype),
                            ("stride_lower_bound_incl", lower), ("alias_groups", _groups(alias_groups)),
                            ("may_alias_internally", bool(may_alias_internally)),
                            ("stride_constant", stride_constant), ("shape_constant", shape_constant),
                            ("stride_divisible_by", stride_div), ("shape_divisible_by", shape_div),
                            ("base_addr_divisible_by", base_addr_divisible_by)):
            object.__setattr__(self, name, value)

    def to_spec(self) -> MetaTensor:
        return MetaTensor(self.shape_constant, self.dtype, self.stride_constant,
                          index_dtype=int64 if self.index_dtype is int64 else int32,
                          static_shape=tuple(c is not None for c in self.shape_constant),
                          static_strides=tuple(c is not None for c in self.stride_constant),
                          shape_divisible_by=self.shape_divisible_by, stride_divisible_by=self.stride_divisible_by,
                          base_addr_divisible_by=self.base_addr_divisible_by,
                          stride_lower_bound=self.stride_lower_bound_incl, alias_groups=self.alias_groups,
                          may_alias_internally=self.may_alias_internally)


@dataclass(frozen=True, init=False)
class ListConstraint:
    """A list-of-arrays parameter."""
    element: ArrayConstraint
    alias_groups: Tuple[str, ...]
    elements_may_alias: bool

    def __init__(self, element: ArrayConstraint, *, alias_groups: Sequence[str] = (),
                 elements_may_alias: bool = False):
        if not isinstance(element, ArrayConstraint):
            raise TypeError(f"List element constraint must be an ArrayConstraint, got {type(element).__name__}")
        object.__setattr__(self, "element", element)
        object.__setattr__(self, "alias_groups", _groups(alias_groups))
        object.__setattr__(self, "elements_may_alias", bool(elements_may_alias))

    def to_spec(self):
        return ListSpec(self.element.to_spec(), alias_groups=self.alias_groups,
                        elements_may_alias=self.elements_may_alias)


@dataclass(frozen=True, init=False)
class TupleConstraint:
    """A tuple parameter, one constraint per item."""
    items: Tuple[Any, ...]

    def __init__(self, items: Sequence[Any]):
        object.__setattr__(self, "items", tuple(_to_constraint(e) for e in items))

    def to_spec(self):
        return TupleSpec([e.to_spec() for e in self.items])


@dataclass(frozen=True)
class ConstantConstraint:
    """A compile-time constant parameter (`ct.Constant[...]`) with this value."""
    value: Any

    def __post_init__(self):
        if not isinstance(self.value, (bool, int, float)):
            raise TypeError(f"Unsupported constant value {self.value!r} of type {type(self.value).__name__}")

    def to_spec(self):
        return ConstantSpec(self.value)


ParameterConstraint = Union[ScalarConstraint, ArrayConstraint, ListConstraint, TupleConstraint, ConstantConstraint]


def to_constraint(c):
    if isinstance(c, (ScalarConstraint, ArrayConstraint, ListConstraint, TupleConstraint, ConstantConstraint)):
        return c
    if isinstance(c, tuple):
        return TupleConstraint(c)
    if isinstance(c, (bool, int, float)):
        return ConstantConstraint(c)
    raise TypeError(f"Unsupported parameter constraint {c!r} of type {type(c).__name__}")


def constraint_of_spec(spec):
    """The constraint equivalent to a tilescope argument spec (MetaTensor, ScalarSpec, ...)."""
    if isinstance(spec, MetaTensor):
        return ArrayConstraint(
            spec.dtype, spec.ndim, index_dtype=spec.index_dtype, stride_lower_bound_incl=spec.stride_lower_bound,
            alias_groups=spec.alias_groups, may_alias_internally=spec.may_alias_internally,
            stride_constant=tuple(s if st else None for s, st in zip(spec.strides, spec.static_strides)),
            shape_constant=tuple(d if st else None for d, st in zip(spec.shape, spec.static_shape)),
            stride_divisible_by=spec.stride_divisible_by, shape_divisible_by=spec.shape_divisible_by,
            base_addr_divisible_by=spec.base_addr_divisible_by)
    if isinstance(spec, ScalarSpec):
        return ScalarConstraint(spec.dtype)
    if isinstance(spec, ConstantSpec):
        return ConstantConstraint(spec.value)
    if isinstance(spec, ListSpec):
        return ListConstraint(constraint_of_spec(spec.item), alias_groups=spec.alias_groups,
                              elements_may_alias=spec.elements_may_alias)
    if isinstance(spec, TupleSpec):
        return TupleConstraint([constraint_of_spec(s) for s in spec])
    raise TypeError(f"no cuda.tile.compilation constraint for {spec!r}")
