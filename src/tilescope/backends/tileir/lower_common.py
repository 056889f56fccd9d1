"""Tables and helpers the TileIR lowering rules share (element types, enum spellings)."""
from __future__ import annotations

import enum

from ... import dtypes as D
from ...ir.types import TileType
from .ir import Scalar, Tile

ELEM = {
    "bool_": "i1", "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16", "int32": "i32",
    "uint32": "i32", "int64": "i64", "uint64": "i64", "float16": "f16", "bfloat16": "bf16",
    "float32": "f32", "float64": "f64", "tfloat32": "tf32", "float8_e4m3fn": "f8E4M3FN",
    "float8_e5m2": "f8E5M2", "float8_e8m0fnu": "f8E8M0FNU", "float4_e2m1fn": "f4E2M1FN",
}
PADDING = {"ZERO": "zero", "NEG_ZERO": "neg_zero", "NAN": "nan", "POS_INF": "pos_inf", "NEG_INF": "neg_inf"}
SCOPE = {"NONE": None, "BLOCK": "tl_blk", "DEVICE": "device", "SYS": "sys"}
PRED = {"eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_than_or_equal",
        "gt": "greater_than", "ge": "greater_than_or_equal"}
RMW_INT = {"add": "add", "max": "max", "min": "min", "and": "and", "or": "or", "xor": "xor", "xchg": "xchg"}


def elem_of(dt: D.DType) -> Scalar:
    return Scalar(ELEM[dt.name])


def ttype(t: TileType) -> Tile:
    return Tile(tuple(t.shape), elem_of(t.dtype))


def is_float(dt: D.DType) -> bool:
    return dt.kind == "float"


def sign_of(dt: D.DType) -> str:
    return "signed" if dt.kind == "int" else "unsigned"


def enum_name(x) -> str:
    return x.name if isinstance(x, enum.Enum) else str(x)


def rounding_of(x, default="nearest_even") -> str:
    return x.value if isinstance(x, enum.Enum) else default


NARROW_FLOATS = {"float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float4_e2m1fn"}
WIDENED_OPS = {"binary", "unary", "compare", "fma"}

