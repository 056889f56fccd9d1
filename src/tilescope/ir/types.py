"""Types of typed-IR values. Every SSA value carries exactly one of these."""
from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Optional, Tuple

from ..dtypes import DType, int32


class Type:
    """Base class; types are immutable and compared by value."""


def _dims(shape) -> str:
    return "(" + ",".join("?" if d is None else str(d) for d in shape) + ")"


class TileShaped:
    """What follows from a tile's `shape` (a tuple of ints): its rank, size, whether it is a scalar."""
    shape: Tuple[int, ...]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def is_scalar(self) -> bool:
        return not self.shape


@dataclass(frozen=True)
class TileType(TileShaped, Type):
    """An immutable n-d tile held by a block. Scalars are 0-d tiles."""
    dtype: DType
    shape: Tuple[int, ...] = ()

    def with_shape(self, shape) -> "TileType":
        return TileType(self.dtype, tuple(shape))

    def with_dtype(self, dtype: DType) -> "TileType":
        return TileType(dtype, self.shape)

    def __str__(self) -> str:
        return f"Tile[{self.dtype.name},{_dims(self.shape)}]"


@dataclass(frozen=True)
class ArrayType(Type):
    """A global-memory array parameter (or a view of one).

    `shape`/`strides` hold known values or None; only `static_*` dims are
    compile-time constants, the rest are shown for information.
    """
    dtype: DType
    ndim: int
    shape: Tuple[Optional[int], ...] = ()
    strides: Tuple[Optional[int], ...] = ()
    index_dtype: DType = int32
    static_shape: Tuple[bool, ...] = ()
    static_strides: Tuple[bool, ...] = ()

    def __post_init__(self):
        if not self.shape:
            object.__setattr__(self, "shape", (None,) * self.ndim)
        if not self.strides:
            object.__setattr__(self, "strides", (None,) * self.ndim)
        if not self.static_shape:
            object.__setattr__(self, "static_shape", (False,) * self.ndim)
        if not self.static_strides:
            object.__setattr__(self, "static_strides", (False,) * self.ndim)

    def static_dim(self, axis: int) -> Optional[int]:
        return self.shape[axis] if self.static_shape[axis] else None

    def static_stride(self, axis: int) -> Optional[int]:
        return self.strides[axis] if self.static_strides[axis] else None

    def erase_facts(self) -> "ArrayType":
        """The same array with nothing known about its shape and strides."""
        return ArrayType(self.dtype, self.ndim, index_dtype=self.index_dtype)

    def __str__(self) -> str:
        return f"Array[{self.dtype.name},{_dims(self.shape)}]"


@dataclass(frozen=True)
class ListType(Type):
    """A list-of-arrays kernel parameter; its length is known only at run time."""
    item: ArrayType

    def __str__(self) -> str:
        return f"List[{self.item}]"


@dataclass(frozen=True)
class TiledViewType(Type):
    """`Array.tiled_view(...)`: the array seen as a grid of tiles."""
    array: ArrayType
    tile_shape: Tuple[int, ...]
    order: Tuple[int, ...]
    padding_mode: object
    traversal_steps: Tuple[int, ...] = ()

    @property
    def dtype(self) -> DType:
        return self.array.dtype

    def __str__(self) -> str:
        return (f"TiledView[{self.array.dtype.name},tile={_dims(self.tile_shape)},"
                f"order={_dims(self.order)},padding={getattr(self.padding_mode, 'name', self.padding_mode)}]")


@dataclass(frozen=True)
class RawMemoryType(Type):
    """`Array.get_raw_memory()`: flat element-offset access to an array's storage."""
    array: ArrayType

    @property
    def dtype(self) -> DType:
        return self.array.dtype

    def __str__(self) -> str:
        return f"RawMemory[{self.array.dtype.name}]"


@dataclass(frozen=True)
class TokenType(Type):
    """Memory-ordering token (introduced by the TileIR lowering)."""

    def __str__(self) -> str:
        return "Token"


def scalar(dtype: DType) -> TileType:
    return TileType(dtype, ())
