"""Typing helpers shared by the op families: operands, promotion, broadcasting, shapes.

Every helper takes the inference context `ctx` first and raises located
`Tile*Error`s through it. Loose Python numbers ("loose constants") adapt to the
typed operand they meet, as in cuTile.
"""
from __future__ import annotations

import enum
import types
from typing import Any, Optional, Sequence, Tuple

from .. import dtypes as D
from ..ir.core import Value
from ..ir.primitive import TypingError
from ..ir.types import ArrayType, TileType
from .bridge import translate
from .registry import SurfaceFunction
from ..targets import DEFAULT_TARGET

Shape = Tuple[int, ...]


def is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float)) and not isinstance(x, enum.Enum)


def is_tile(x: Any) -> bool:
    return isinstance(x, Value) and isinstance(x.type, TileType)


def is_array(x: Any) -> bool:
    return isinstance(x, Value) and isinstance(x.type, ArrayType)


def tile_operand(ctx, x: Any, what: str = "operand") -> Value:
    """A tile Value from a tile or a loose Python number (materialised with its default dtype)."""
    if is_tile(x):
        return x
    if is_number(x):
        return ctx.to_value(x)
    raise ctx.type_error(f"{what} must be a tile or a scalar, got {describe(x)}")


def require_tile(ctx, x: Any, what: str = "argument") -> Value:
    if is_tile(x):
        return x
    raise ctx.type_error(f"{what} must be a tile, got {describe(x)}")


def require_array(ctx, x: Any, what: str = "array") -> Value:
    if is_array(x):
        return x
    raise ctx.type_error(f"{what} must be an array, got {describe(x)}")


def require_dtype(ctx, x: Any, what: str = "dtype") -> D.DType:
    x = translate(x)
    if isinstance(x, D.DType):
        return x
    foreign = foreign_dtype(x)
    if foreign is not None:
        return foreign
    raise ctx.type_error(f"{what} must be a cuda.tile dtype, got {describe(x)}")


def foreign_dtype(x: Any):
    """The cuTile dtype of a torch/NumPy dtype object (upstream accepts them as dtype specs), else None."""
    mod = type(x).__module__ or ""
    if not (mod.startswith("torch") or mod.startswith("numpy") or
            (isinstance(x, type) and (x.__module__ or "").startswith("numpy"))):
        return None
    try:
        return D.as_dtype(x)
    except (TypeError, ValueError):
        return None


def argument_error(ctx, what: str, message: str, cls: str = "type"):
    """An error about argument `what`, phrased as upstream's: `Invalid argument "what" of fn(): ...`
    when `what` is a parameter of the cuTile function being typed, else `what: ...`."""
    prefix = ctx.argument_prefix(what) or (f"{what}: " if what else "")
    return (ctx.value_error if cls == "value" else ctx.type_error)(prefix + message)


def _type_text(x: Any) -> str:
    """A value's type as error messages show it (`None`, `Tile[int32,()]`, `float (0.1)`)."""
    if isinstance(x, Value):
        return str(x.type)
    if x is None:
        return "None"
    if isinstance(x, tuple):
        return f"a tuple of {len(x)} items"
    return f"{type(x).__name__} ({x!r})"


def _require_const(ctx, x: Any, what: str, expected: str) -> Any:
    if not ctx.is_constant(x):
        raise argument_error(ctx, what, f"Expected {expected}, but given value is not constant")
    return ctx.const_value(x)


def const_int(ctx, x: Any, what: str) -> int:
    v = _require_const(ctx, x, what, "an integer constant")
    if isinstance(v, bool) or not isinstance(v, int):
        raise argument_error(ctx, what, f"Expected an integer constant, but given value has type "
                                        f"{_type_text(x if isinstance(x, Value) else v)}")
    return v


def const_bool(ctx, x: Any, what: str) -> bool:
    v = _require_const(ctx, x, what, "a boolean constant")
    if not isinstance(v, bool):
        raise argument_error(ctx, what, f"Expected a boolean constant, but given value has type "
                                        f"{_type_text(x if isinstance(x, Value) else v)}")
    return v


MAX_TILE_DIM = 2 ** 31 - 1      # TileIR encodes tile dimensions as int32


def const_shape(ctx, x: Any, what: str = "shape", *, pow2: bool = True) -> Shape:
    """A compile-time tuple of positive ints (an int means a 1-tuple); powers of two when required."""
    v = _require_const(ctx, x, what, "a constant integer tuple")
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,)
    if not isinstance(v, tuple):
        raise argument_error(ctx, what, f"Expected a tuple, but given value has type {_type_text(v)}")
    for i, d in enumerate(v):
        if isinstance(d, bool) or not isinstance(d, int):
            raise argument_error(ctx, what, f"Expected a tuple of integers, but element #{i} has type "
                                            f"{_type_text(d)}")
    for i, d in enumerate(v):
        if d <= 0:
            raise argument_error(ctx, what, f"Dimension #{i} of {what} {v} is not positive")
        if pow2 and d & (d - 1):
            raise argument_error(ctx, what, f"Dimension #{i} of {what} {v} is not a power of two")
        if d > MAX_TILE_DIM:
            # upstream fails later, encoding the dimension (TileInternalError "int too big to convert")
            raise argument_error(ctx, what, f"Dimension #{i} of {what} {v} is too large (at most 2**31 - 1)",
                                 cls="value")
    return v


def normalize_axis(ctx, axis: Any, ndim: int, what: str = "axis") -> int:
    a = const_int(ctx, axis, what)
    if not -ndim <= a < ndim:
        # upstream's wording, stray quote included (its tests match on it)
        raise argument_error(ctx, what, f"Axis {a} is out of range for rank {ndim}'")
    return a % ndim if ndim else 0


def broadcast_pair(a: Shape, b: Shape) -> Optional[Shape]:
    """The shape `a` and `b` broadcast to (NumPy rules), or None when they do not."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    if any(da != db and 1 not in (da, db) for da, db in zip(a, b)):
        return None
    return tuple(db if da == 1 else da for da, db in zip(a, b))


def broadcast_shapes(ctx, a: Shape, b: Shape) -> Shape:
    out = broadcast_pair(a, b)
    if out is None:
        raise ctx.type_error(f"shapes {a} and {b} are not broadcastable")
    return out


def common_shape(ctx, tiles: Sequence[Value], noun: str) -> Shape:
    """The shape all `tiles` broadcast to, or a type error naming them ("Index shapes ...")."""
    shape: Shape = ()
    for v in tiles:
        shape = broadcast_pair(shape, v.type.shape)
        if shape is None:
            shapes = ", ".join(str(t.type.shape) for t in tiles)
            raise ctx.type_error(f"{noun} shapes {shapes} are not broadcastable to a common shape")
    return shape


def broadcast_to(ctx, v: Value, shape: Shape) -> Value:
    """Broadcast a tile to `shape` (NumPy rules), emitting reshape + broadcast ops as needed."""
    src = v.type.shape
    if src == tuple(shape):
        return v
    if len(src) > len(shape) or any(s != d and s != 1 for s, d in zip(src[::-1], shape[::-1])):
        raise ctx.type_error(f"Shape {src} is not broadcastable to {tuple(shape)}")
    if len(src) < len(shape):
        padded = (1,) * (len(shape) - len(src)) + src
        v = reshape(ctx, v, padded)
    if v.const is not None and not isinstance(v.const, tuple):
        out = ctx.emit1("broadcast", [v], TileType(v.type.dtype, tuple(shape)))
        out.const = v.const
        return out
    return ctx.emit1("broadcast", [v], TileType(v.type.dtype, tuple(shape)))


def reshape(ctx, v: Value, shape: Shape) -> Value:
    if v.type.shape == tuple(shape):
        return v
    out = ctx.emit1("reshape", [v], TileType(v.type.dtype, tuple(shape)))
    if v.const is not None and not v.type.shape:
        out.const = v.const          # a splat of a constant stays a known constant
    return out


def convert(ctx, v: Value, dtype: D.DType, rounding_mode=None) -> Value:
    """Element type conversion (no-op when already `dtype`)."""
    if v.type.dtype is dtype:
        return v
    if v.const is not None and rounding_mode is None and not v.type.shape:
        return ctx.constant(v.const, dtype)
    attrs = {"dtype": dtype}
    if rounding_mode is not None:
        attrs["rounding_mode"] = rounding_mode
    out = ctx.emit1("astype", [v], TileType(dtype, v.type.shape), **attrs)
    return out


def operand_dtype(x: Any) -> Optional[D.DType]:
    return x.type.dtype if is_tile(x) else None


def common_dtype(ctx, x: Any, y: Any, *, force_float: bool = False, what: str = "operands") -> D.DType:
    """Result dtype of combining x and y: promotion for typed operands, adaptation for loose constants."""
    tx, ty = operand_dtype(x), operand_dtype(y)
    try:
        if tx is not None and ty is not None:
            return D.promote(tx, ty, force_float=force_float)
        if tx is not None:
            return D.adapt_literal(_loose(ctx, y, what), tx, force_float=force_float)
        if ty is not None:
            return D.adapt_literal(_loose(ctx, x, what), ty, force_float=force_float)
        dt = D.promote(D.literal_dtype(_loose(ctx, x, what)), D.literal_dtype(_loose(ctx, y, what)),
                       force_float=force_float)
        return dt
    except D.PromotionError as e:
        raise ctx.type_error(str(e)) from None
    except D.LiteralRangeError as e:
        raise ctx.value_error(str(e)) from None


def _loose(ctx, x, what):
    if is_number(x):
        return x
    raise ctx.type_error(f"{what} must be tiles or scalars, got {describe(x)}")


def coerce(ctx, x: Any, dtype: D.DType, shape: Shape) -> Value:
    """Convert and broadcast an operand (tile or loose constant) to dtype and shape."""
    if is_tile(x):
        return broadcast_to(ctx, convert(ctx, x, dtype), shape)
    v = ctx.constant(x, dtype)
    return broadcast_to(ctx, v, shape) if shape else v


def shape_of(x: Any) -> Shape:
    return x.type.shape if is_tile(x) else ()


def type_or_describe(x: Any) -> str:
    """A value as memory ops' messages name it: its IR type, else as describe() says."""
    return str(x.type) if isinstance(x, Value) else describe(x)


def describe(x: Any) -> str:
    """A compile-time value as error messages name it ("a value of type Tile[...]", "the constant 3")."""
    if isinstance(x, Value):
        return f"a value of type {x.type}"
    if x is None:
        return "None"
    if isinstance(x, bool):
        return f"the constant {x}"
    if isinstance(x, (int, float)):
        return f"the constant {x!r}"
    if isinstance(x, str):
        return f"the string {x!r}"
    if isinstance(x, tuple):
        return f"a tuple of {len(x)} items"
    if isinstance(x, D.DType):
        return f"the dtype {x.name}"
    if isinstance(x, enum.Enum):
        return f"<enum constant {type(x).__name__}.{x.name}>"
    if isinstance(x, SurfaceFunction):
        return f"cuda.tile.{x.name}"
    if isinstance(x, types.ModuleType):
        return f"module '{x.__name__}'"
    if isinstance(x, type):
        return f"class '{x.__name__}'"
    if callable(x):
        return f"function '{callable_name(x)}'"
    return f"a {type(x).__name__} object"


def callable_name(fn) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)




_CATEGORY = {"bool": 0, "int": 1, "uint": 1, "float": 2}


def implicit_cast(ctx, x: Any, dtype: D.DType, context: str) -> Value:
    """Convert for storing: only conversions promotion would make (or fitting literals) are implicit."""
    if is_number(x):
        lit = D.literal_dtype(x)
        src, dst = _CATEGORY[lit.kind], _CATEGORY[dtype.kind]
        if dst == 0:
            if src == 2 or x not in (0, 1):
                raise ctx.type_error(f"{context}: cannot implicitly cast {x} to {dtype}")
        elif src > dst:
            raise ctx.type_error(f"{context}: cannot implicitly cast {x} to {dtype}")
        elif src == dst == 1 and not dtype.min <= x <= dtype.max:
            raise ctx.value_error(f"{context}: {x} is out of range of {dtype}")
        return ctx.constant(x, dtype)
    v = require_tile(ctx, x, "the stored value")
    src_dt = v.type.dtype
    if src_dt is not dtype:
        try:
            ok = D.promote(src_dt, dtype) is dtype
        except D.PromotionError:
            ok = False
        if not ok:
            raise ctx.type_error(f"{context}: cannot implicitly cast {src_dt} to {dtype}")
    return convert(ctx, v, dtype)


def index_tuple(ctx, index: Any, ndim: int, what: str = "Index") -> list:
    """Tile-index operands: a scalar or tuple of integer scalars, one per array axis."""
    items = index if isinstance(index, tuple) else (index,)
    if len(items) != ndim:
        raise ctx.type_error(f"{what} size {len(items)} does not match the array rank {ndim}")
    out = []
    for i in items:
        if is_tile(i):
            if i.type.shape or not D.is_integral(i.type.dtype) or i.type.dtype.is_bool:
                raise ctx.type_error(f"index must be an integer scalar, got {i.type}")
            out.append(i)
        elif isinstance(i, int) and not isinstance(i, bool):
            out.append(ctx.to_value(i, D.int32))
        else:
            raise ctx.type_error(f"index must be an integer scalar, got {describe(i)}")
    return out


def const_enum(ctx, x: Any, cls, what: str):
    x = translate(ctx.require_constant(x, what))
    if not isinstance(x, cls):
        raise ctx.type_error(f"{what} must be a {cls.__name__}, got {describe(x)}")
    return x


def axis_order(ctx, order: Any, ndim: int) -> Tuple[int, ...]:
    """'C', 'F' or a permutation of range(ndim)."""
    o = _require_const(ctx, order, "order", "a constant string or integer tuple")
    if o == "C":
        return tuple(range(ndim))
    if o == "F":
        return tuple(reversed(range(ndim)))
    if isinstance(o, tuple) and len(o) == ndim and all(isinstance(i, int) and not isinstance(i, bool)
                                                        and -ndim <= i < ndim for i in o):
        axes = tuple(i % ndim for i in o)      # negative axes count from the end, as upstream
        if sorted(axes) == list(range(ndim)):
            return axes
        twice = next(a for a in axes if axes.count(a) > 1)
        raise argument_error(ctx, "order", f"Axis order must be a permutation, but axis {twice} is used "
                                           f"at least twice")
    raise argument_error(ctx, "order", f"Expected 'C', 'F' or a permutation of {tuple(range(ndim))}, "
                                       f"got {o!r}")


def target_version(ctx) -> Tuple[int, int]:
    return ctx.target_version or DEFAULT_TARGET


def require_bytecode(ctx, version: Tuple[int, int], feature: str) -> None:
    """Upstream rejects some features below a tileiras version (TileUnsupportedFeatureError)."""
    have = target_version(ctx)
    if have < tuple(version):
        raise ctx.unsupported(f"{feature} requires tileiras {version[0]}.{version[1]} or later. "
                              f"Current version is {have[0]}.{have[1]}.")


# ---- typing rules (the verifier's: result types from operand types and attributes) --------

def expect(condition: bool, message: str) -> None:
    """In a typing rule: the op is malformed unless `condition` holds."""
    if not condition:
        raise TypingError(message)


def tile_type(op, i: int = 0) -> TileType:
    t = op.operands[i].type
    expect(isinstance(t, TileType), f"operand #{i} must be a tile, got {t}")
    return t


def same_as_operand(op):
    """Typing rule: one result of operand 0's type, every operand of that type."""
    t = tile_type(op)
    for i, v in enumerate(op.operands):
        expect(v.type == t, f"operand #{i} has type {v.type}, expected {t}")
    return [t]


def scalar_result(dtype):
    """Typing rule: one 0-d result of `dtype`."""
    return lambda op: [TileType(dtype, ())]


def no_results(op):
    return []
