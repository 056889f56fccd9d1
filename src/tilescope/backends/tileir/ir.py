"""A small in-memory model of TileIR (the `cuda_tile` MLIR dialect).

The lowering builds it, the text printer and the bytecode writer consume it, and the
bytecode reader rebuilds it -- so a round trip compares like with like.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union


# ---- types ------------------------------------------------------------------

@dataclass(frozen=True)
class Scalar:
    """An element type: i1, i8, ..., f32, bf16, f8E4M3FN, ... or the `token` type."""
    name: str

    def __str__(self) -> str:
        return self.name


TOKEN = Scalar("token")


@dataclass(frozen=True)
class Ptr:
    elem: Scalar

    def __str__(self) -> str:
        return f"ptr<{self.elem}>"


@dataclass(frozen=True)
class Tile:
    shape: Tuple[int, ...]
    elem: Union[Scalar, Ptr]

    def __str__(self) -> str:
        dims = "".join(f"{d}x" for d in self.shape)
        return f"tile<{dims}{self.elem}>"


def _dyn(d) -> str:
    return "?" if d is None else str(d)


@dataclass(frozen=True)
class TensorView:
    elem: Scalar
    shape: Tuple[Optional[int], ...]
    strides: Tuple[Optional[int], ...]

    def __str__(self) -> str:
        dims = "".join(f"{_dyn(d)}x" for d in self.shape)
        return f"tensor_view<{dims}{self.elem}, strides=[{','.join(_dyn(s) for s in self.strides)}]>"


def _view_tail(padding: Optional[str], view: "TensorView", dim_map: Tuple[int, ...]) -> str:
    """Shared `, padding_value = .., <view>, dim_map=[..]>` tail of the tiled view types."""
    text = ""
    if padding is not None:
        text += f", padding_value = {padding}"
    text += f", {view}"
    if tuple(dim_map) != tuple(range(len(dim_map))):
        text += f", dim_map=[{', '.join(map(str, dim_map))}]"
    return text + ">"


@dataclass(frozen=True)
class PartitionView:
    tile: Tuple[int, ...]
    view: TensorView
    dim_map: Tuple[int, ...]
    padding: Optional[str] = None      # zero, neg_zero, nan, pos_inf, neg_inf, or None

    def __str__(self) -> str:
        head = f"partition_view<tile=({'x'.join(map(str, self.tile))})"
        return head + _view_tail(self.padding, self.view, self.dim_map)


@dataclass(frozen=True)
class StridedView:
    """Tiles of `tile` shape whose origins are `steps` elements apart (overlapping or gapped)."""
    tile: Tuple[int, ...]
    steps: Tuple[int, ...]
    view: TensorView
    dim_map: Tuple[int, ...]
    padding: Optional[str] = None

    def __str__(self) -> str:
        head = (f"strided_view<tile=({'x'.join(map(str, self.tile))}), "
                f"traversal_strides=[{','.join(map(str, self.steps))}]")
        return head + _view_tail(self.padding, self.view, self.dim_map)


@dataclass(frozen=True)
class GatherScatterView:
    """Tiles whose rows along `sparse_dim` are picked by an index tile, dense elsewhere."""
    tile: Tuple[int, ...]
    view: TensorView
    sparse_dim: int
    padding: Optional[str] = None

    def __str__(self) -> str:
        text = f"gather_scatter_view<tile=({'x'.join(map(str, self.tile))})"
        if self.padding is not None:
            text += f", padding_value = {self.padding}"
        return text + f", {self.view}, sparse_dim={self.sparse_dim}>"


@dataclass(frozen=True)
class FuncType:
    params: Tuple[Any, ...]
    results: Tuple[Any, ...] = ()


TType = Union[Scalar, Ptr, Tile, TensorView, PartitionView, StridedView, GatherScatterView, FuncType]


def tile(elem, shape=()) -> Tile:
    return Tile(tuple(shape), elem if not isinstance(elem, str) else Scalar(elem))


# ---- attribute values ---------------------------------------------------------

@dataclass(frozen=True)
class Dense:
    """A `constant` value: raw little-endian element bytes (one element when `splat`)."""
    elem: Scalar
    data: bytes
    splat: bool = True


@dataclass(frozen=True)
class FloatAttr:
    elem: Scalar
    bits: int


@dataclass(frozen=True)
class IntAttr:
    elem: Scalar
    value: int           # as stored: the value masked to the bit width


@dataclass(frozen=True)
class Bounded:
    lb: Optional[int]
    ub: Optional[int]


@dataclass(frozen=True)
class DivBy:
    divisor: int
    every: Optional[int] = None
    along: Optional[int] = None


@dataclass(frozen=True)
class Hints:
    """Optimization hints per target ('default', 'sm_90', ...): {target: {key: int|bool}}."""
    by_target: Tuple[Tuple[str, Tuple[Tuple[str, Any], ...]], ...]


# ---- values, ops, blocks --------------------------------------------------------

class TValue:
    __slots__ = ("type", "hint")

    def __init__(self, type: TType, hint: str = ""):
        self.type = type
        self.hint = hint

    def __repr__(self) -> str:
        return f"<TValue {self.hint}: {self.type}>"


class TBlock:
    def __init__(self, args: Sequence[TValue] = ()):
        self.args: List[TValue] = list(args)
        self.ops: List["TOp"] = []


class TOp:
    """One TileIR op. `args` maps operand-group names to a value, a list, or None (absent)."""

    def __init__(self, name: str, args: Dict[str, Any], result_types: Sequence[TType],
                 attrs: Optional[Dict[str, Any]] = None, regions: Sequence[TBlock] = (),
                 loc=None, hints: Sequence[str] = ()):
        self.name = name
        self.args = dict(args)
        self.results = [TValue(t, h) for t, h in zip(result_types, list(hints) + [""] * len(result_types))]
        self.attrs = dict(attrs or {})
        self.regions = list(regions)
        self.loc = loc

    @property
    def operands(self) -> List[TValue]:
        out: List[TValue] = []
        for v in self.args.values():
            if v is None:
                continue
            out.extend(v if isinstance(v, list) else [v])
        return out

    @property
    def result(self) -> TValue:
        assert len(self.results) == 1, self.name
        return self.results[0]

    def __repr__(self) -> str:
        return f"<TOp {self.name}>"


@dataclass
class TFunc:
    name: str
    params: List[TValue]
    body: TBlock
    entry: bool = True
    hints: Optional[Hints] = None
    loc: Any = None
    source_name: str = ""          # the kernel's Python name (for debug info)
    first_line: int = 0            # the kernel's first source line, decorators included (debug info)


@dataclass
class TModule:
    name: str
    funcs: List[TFunc] = field(default_factory=list)
