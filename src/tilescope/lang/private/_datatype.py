"""`cuda.tile._datatype`: dtype objects and predicates."""
from ...dtypes import (DType, bfloat16, bool_, float4_e2m1fn, float8_e4m3fn, float8_e5m2, float8_e5m3fnu,  # noqa: F401
                       float8_e8m0fnu, float16, float32, float64, int8, int16, int32, int64, promote,
                       tfloat32, uint8, uint16, uint32, uint64)
from .. import foreign_pointer_dtype  # noqa: F401

default_int_type = int32
default_float_type = float32
unsigned_integral_dtypes = [uint64, uint32, uint16, uint8]
signed_integral_dtypes = [int64, int32, int16, int8]


def is_boolean(t: DType) -> bool:
    return t.is_bool


def is_integral(t: DType) -> bool:
    return t.is_int


def is_signed(t: DType) -> bool:
    return t.is_signed


def is_float(t: DType) -> bool:
    return t.is_float


def is_restricted_float(t: DType) -> bool:
    return t.is_float and t.is_restricted


def is_unrestricted_float(t: DType) -> bool:
    return t.is_float and not t.is_restricted


def is_arithmetic(t: DType) -> bool:
    return t.is_arithmetic


def is_numeric(t: DType) -> bool:
    return t.is_bool or t.is_int or t.is_float


def is_pointer_dtype(t) -> bool:
    return False


def integer_dtype(bitwidth: int, *, signed: bool) -> DType:
    table = signed_integral_dtypes if signed else unsigned_integral_dtypes
    for t in table:
        if t.bitwidth == bitwidth:
            return t
    raise ValueError(f"no {'signed' if signed else 'unsigned'} integer dtype of {bitwidth} bits")


def integer_dtype_min(t: DType) -> int:
    return t.min


def integer_dtype_max(t: DType) -> int:
    return t.max


def promote_dtypes(t1: DType, t2: DType, force_float: bool = False) -> DType:
    return promote(t1, t2, force_float=force_float)
