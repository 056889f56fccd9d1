"""Classes named in kernel code (`ct.Tile`, `ct.Array`...) for annotations and isinstance()."""
from __future__ import annotations

from typing import Union

from ..ir.types import ArrayType, ListType, TiledViewType, TileType


class Tile:
    """An immutable multi-dimensional value held by a block (type annotation only)."""


class Array:
    """A global-memory array argument of a kernel (type annotation only)."""


class TiledView:
    """An array seen as a grid of tiles, from `Array.tiled_view` (type annotation only)."""


class Slice:
    """A sub-range of an array along one axis, from `Array.slice` (type annotation only)."""


class StaticException(Exception):
    """Marker type of `ct.static_exception` results."""


Scalar = Union[int, float, bool]


def value_is_instance(value, cls) -> bool:
    t = value.type
    if cls is Tile:
        return isinstance(t, TileType)
    if cls is Array:
        return isinstance(t, ArrayType)
    if cls is TiledView:
        return isinstance(t, TiledViewType)
    if cls in (int, float, bool):
        return isinstance(t, TileType) and t.shape == () and (
            (cls is bool and t.dtype.is_bool) or (cls is int and t.dtype.is_int)
            or (cls is float and t.dtype.is_float))
    if cls is list:
        return isinstance(t, ListType)
    return False
