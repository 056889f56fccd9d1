"""The cuTile dtype table of a transpiled module: `D.float32`, `D.bfloat16`..., each with its name,
kind, bit width and NumPy storage, as `tilescope.dtypes` has them (the semantics modules a
transpiled module carries refer to dtypes as `D.<name>`, as they do inside tilescope).
"""
from types import SimpleNamespace as _NS

import ml_dtypes
import numpy as np


class DType:
    """A cuTile element type: its name, kind ('bool', 'int', 'uint', 'float'), width and storage."""
    __slots__ = ("name", "kind", "bitwidth", "numpy")

    def __init__(self, name, kind, bitwidth, storage):
        self.name, self.kind, self.bitwidth = name, kind, bitwidth
        self.numpy = np.dtype(getattr(ml_dtypes, storage[len("ml_dtypes."):]) if storage.startswith("ml_dtypes.")
                              else storage)

    is_bool = property(lambda self: self.kind == "bool")
    is_int = property(lambda self: self.kind in ("int", "uint"))
    is_float = property(lambda self: self.kind == "float")
    min = property(lambda self: -(1 << (self.bitwidth - 1)) if self.kind == "int" else 0)
    max = property(lambda self: (1 << (self.bitwidth - (self.kind == "int"))) - 1)

    def __repr__(self):
        return f"D.{self.name}"


D = _NS(DType=DType, **{n: DType(n, k, w, s) for n, k, w, s in [
    ("bool_", "bool", 8, "bool"), ("uint8", "uint", 8, "uint8"), ("uint16", "uint", 16, "uint16"),
    ("uint32", "uint", 32, "uint32"), ("uint64", "uint", 64, "uint64"), ("int8", "int", 8, "int8"),
    ("int16", "int", 16, "int16"), ("int32", "int", 32, "int32"), ("int64", "int", 64, "int64"),
    ("float16", "float", 16, "float16"), ("bfloat16", "float", 16, "ml_dtypes.bfloat16"),
    ("float32", "float", 32, "float32"), ("float64", "float", 64, "float64"),
    ("tfloat32", "float", 32, "float32"), ("float8_e4m3fn", "float", 8, "ml_dtypes.float8_e4m3fn"),
    ("float8_e5m2", "float", 8, "ml_dtypes.float8_e5m2"),
    ("float8_e8m0fnu", "float", 8, "ml_dtypes.float8_e8m0fnu"),
    ("float8_e5m3fnu", "float", 8, "uint8"), ("float4_e2m1fn", "float", 4, "ml_dtypes.float4_e2m1fn")]})
