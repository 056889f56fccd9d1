"""What kernel code annotates with: parameter annotations (`ct.Constant[int]`,
`ct.IndexedWithInt64`, `ct.ScalarInt64`...) and the classes it names (`ct.Tile`, `ct.Array`...,
for annotations and isinstance()). `tilescope.lang` exports them as `cuda.tile` does."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Tuple, TypeVar, Union, get_origin

from .dtypes import DType, int32, int64


class ConstantAnnotation:
    """`typing.Annotated` metadata: the parameter is a compile-time constant embedded in the code."""

    def __repr__(self) -> str:
        return "ConstantAnnotation()"

    def __eq__(self, other) -> bool:
        return isinstance(other, ConstantAnnotation)

    def __hash__(self) -> int:
        return hash(ConstantAnnotation)


@dataclass(frozen=True)
class ArrayAnnotation:
    """`typing.Annotated` metadata for array parameters: index dtype and static dims."""
    index_dtype: DType = int32
    static_shape_dims: Tuple[int, ...] = ()
    static_stride_dims: Tuple[int, ...] = ()

    def __post_init__(self):
        if self.index_dtype not in (int32, int64):
            raise ValueError(f"`index_dtype` must be int32 or int64, got {self.index_dtype}")
        for what in ("static_shape_dims", "static_stride_dims"):
            dims = getattr(self, what)
            if not isinstance(dims, tuple) or not all(isinstance(d, int) and not isinstance(d, bool)
                                                      for d in dims):
                raise TypeError(f"each axis in `{what}` must be int, got {dims!r}")


@dataclass(frozen=True)
class ScalarAnnotation:
    """`typing.Annotated` metadata for scalar parameters: their dtype (int32 or int64)."""
    dtype: DType

    def __post_init__(self):
        if self.dtype not in (int32, int64):
            raise ValueError(f"`dtype` must be int32 or int64, got {self.dtype}")


@dataclass(frozen=True)
class ListAnnotation:
    """`typing.Annotated` metadata for list-of-arrays parameters."""
    element: Any = field(default_factory=ArrayAnnotation)

    def __post_init__(self):
        element = self.element
        if get_origin(element) is Annotated:
            found = [m for m in element.__metadata__ if isinstance(m, ArrayAnnotation)]
            if len(found) != 1:
                raise TypeError(f"`element` must contain exactly one ArrayAnnotation, got {element!r}")
            object.__setattr__(self, "element", found[0])
        elif not isinstance(element, ArrayAnnotation):
            raise TypeError(f"`element` must be an ArrayAnnotation, got {type(element).__name__}")


T = TypeVar("T")
Constant = Annotated[T, ConstantAnnotation()]
IndexedWithInt64 = Annotated[T, ArrayAnnotation(index_dtype=int64)]
ScalarInt64 = Annotated[T, ScalarAnnotation(dtype=int64)]


def metadata_of(annotation: Any) -> Tuple[Any, ...]:
    """The `Annotated` metadata of a parameter annotation (upstream's objects included)."""
    if annotation is None:
        return ()
    if get_origin(annotation) is Annotated:
        return tuple(annotation.__metadata__)
    return ()


def is_constant_annotation(annotation: Any) -> bool:
    return any(type(m).__name__ == "ConstantAnnotation" for m in metadata_of(annotation))


def array_annotation(annotation: Any):
    for m in metadata_of(annotation):
        if type(m).__name__ == "ArrayAnnotation":
            return m
    return None


def scalar_annotation(annotation: Any):
    for m in metadata_of(annotation):
        if type(m).__name__ == "ScalarAnnotation":
            return m
    return None


# ---- classes named in kernel code ----------------------------------------------------------

class Tile:
    """An immutable multi-dimensional value held by a block (type annotation only)."""


class Array:
    """A global-memory array argument of a kernel (type annotation only)."""


class TiledView:
    """An array seen as a grid of tiles, from `Array.tiled_view` (type annotation only)."""


class Slice:
    """A sub-range of an array along one axis, from `Array.slice` (type annotation only)."""


Scalar = Union[int, float, bool]
