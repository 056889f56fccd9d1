"""The cuTile data types, their storage in NumPy, and the implicit promotion rules.

Each dtype exists exactly once (compare with ``is`` or ``==``, which is identity).
The promotion rules reproduce ``cuda.tile`` 1.7.0 and were checked by compiling
small kernels with the upstream front end (see ``tests/test_dtypes.py``).
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = [
    "DType", "PromotionError", "LiteralRangeError",
    "bool_", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "float16", "bfloat16", "float32", "float64", "tfloat32",
    "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float8_e5m3fnu", "float4_e2m1fn",
    "ALL_DTYPES", "dtype_from_name", "dtype_from_numpy", "as_dtype",
    "promote", "literal_dtype", "adapt_literal",
    "DEFAULT_INT", "DEFAULT_FLOAT",
]


class PromotionError(TypeError):
    """Two typed operands whose dtypes have no implicit common dtype."""


class LiteralRangeError(ValueError):
    """A Python integer constant that does not fit the dtype it must take."""


class DType:
    """One cuTile element type. Instances are unique; do not construct new ones."""

    __slots__ = ("name", "short", "bitwidth", "kind", "is_restricted", "_storage")

    def __init__(self, name, short, bitwidth, kind, restricted, storage):
        for attr, val in (("name", name), ("short", short), ("bitwidth", bitwidth),
                          ("kind", kind), ("is_restricted", restricted), ("_storage", storage)):
            object.__setattr__(self, attr, val)

    def __setattr__(self, attr, value):
        raise AttributeError(f"DType is immutable (cannot set {attr!r})")

    # Upstream prints ``<DType 'float32'>`` for repr() and ``float32`` for str().
    def __repr__(self):
        return f"<DType {self.name!r}>"

    def __str__(self):
        return self.name

    # Identity semantics survive copying and pickling.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (dtype_from_name, (self.name,))

    # --- classification -------------------------------------------------------------
    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_signed(self) -> bool:
        # Same answer as upstream's is_signed(): true for signed ints and every float.
        return self.kind in ("int", "float")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_arithmetic(self) -> bool:
        # Restricted floats are storage/MMA formats: upstream rejects +,-,* etc. on them.
        return not self.is_restricted

    @property
    def itemsize(self) -> int:
        """Bytes one element takes in NumPy storage (fp4 is stored one per byte)."""
        return self.numpy.itemsize

    @property
    def min(self) -> int:
        if not self.is_int:
            raise TypeError(f"'{self.name}' is not an integer dtype")
        return -(1 << (self.bitwidth - 1)) if self.kind == "int" else 0

    @property
    def max(self) -> int:
        if not self.is_int:
            raise TypeError(f"'{self.name}' is not an integer dtype")
        bits = self.bitwidth - 1 if self.kind == "int" else self.bitwidth
        return (1 << bits) - 1

    @property
    def numpy(self) -> np.dtype:
        """The NumPy (or ml_dtypes) dtype used to hold values of this dtype."""
        storage = self._storage
        if storage.startswith("ml_dtypes."):
            import ml_dtypes
            return np.dtype(getattr(ml_dtypes, storage.split(".", 1)[1]))
        return np.dtype(storage)

    def to_upstream(self):
        """The matching ``cuda.tile`` dtype object (needs cuda-tile installed)."""
        try:
            import cuda.tile as ct
        except ImportError as e:
            raise RuntimeError("to_upstream() needs the 'cuda-tile' package, "
                               "which is not installed") from e
        return getattr(ct, self.name)


def _make(name, short, bits, kind, restricted=False, storage=None):
    return DType(name, short, bits, kind, restricted, storage or name)


bool_ = _make("bool_", "b8", 8, "bool", storage="bool")
uint8 = _make("uint8", "u8", 8, "uint")
uint16 = _make("uint16", "u16", 16, "uint")
uint32 = _make("uint32", "u32", 32, "uint")
uint64 = _make("uint64", "u64", 64, "uint")
int8 = _make("int8", "i8", 8, "int")
int16 = _make("int16", "i16", 16, "int")
int32 = _make("int32", "i32", 32, "int")
int64 = _make("int64", "i64", 64, "int")
float16 = _make("float16", "f16", 16, "float")
bfloat16 = _make("bfloat16", "bf16", 16, "float", storage="ml_dtypes.bfloat16")
float32 = _make("float32", "f32", 32, "float")
float64 = _make("float64", "f64", 64, "float")
# tf32 values are float32 bit patterns whose low mantissa bits are ignored.
tfloat32 = _make("tfloat32", "tf32", 32, "float", True, storage="float32")
float8_e4m3fn = _make("float8_e4m3fn", "f8e4m3fn", 8, "float", True,
                      storage="ml_dtypes.float8_e4m3fn")
float8_e5m2 = _make("float8_e5m2", "f8e5m2", 8, "float", True, storage="ml_dtypes.float8_e5m2")
float8_e8m0fnu = _make("float8_e8m0fnu", "f8e8m0fnu", 8, "float", True,
                       storage="ml_dtypes.float8_e8m0fnu")
# ml_dtypes 0.6 has no float8_e5m3fnu, so its values are kept as raw uint8 bit patterns.
float8_e5m3fnu = _make("float8_e5m3fnu", "f8e5m3fnu", 8, "float", True, storage="uint8")
# ml_dtypes stores one fp4 value per byte (unpacked).
float4_e2m1fn = _make("float4_e2m1fn", "f4e2m1fn", 4, "float", True,
                      storage="ml_dtypes.float4_e2m1fn")

ALL_DTYPES = (bool_, uint8, uint16, uint32, uint64, int8, int16, int32, int64,
              float16, bfloat16, float32, float64, tfloat32,
              float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float8_e5m3fnu, float4_e2m1fn)

# The dtypes bare Python constants take when materialised.
DEFAULT_INT = int32
DEFAULT_FLOAT = float32

_BY_NAME: dict[str, DType] = {}
for _d in ALL_DTYPES:
    _BY_NAME[_d.name] = _d
    _BY_NAME[_d.short] = _d
_ALIASES = {
    "bool": bool_, "b1": bool_, "i1": bool_,
    "int": int32, "uint": uint32,
    "float": float32, "fp32": float32, "single": float32,
    "half": float16, "fp16": float16,
    "bf": bfloat16, "fp64": float64, "double": float64,
    "fp4": float4_e2m1fn, "f4": float4_e2m1fn,
}
# The minifloats by their format: fp8e4m3, fp8_e4m3, e4m3, e4m3fn, f8e4m3 (and so on).
for _d in (float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float8_e5m3fnu, float4_e2m1fn):
    _bits, _format = _d.name[5], _d.name.split("_")[1]          # "8", "e4m3fn"
    _code = _format.rstrip("fnu")                               # "e4m3"
    for _spelling in (f"fp{_bits}{_code}", f"fp{_bits}_{_code}", _code, _format, f"f{_bits}{_code}"):
        _ALIASES[_spelling] = _d
_BY_NAME.update(_ALIASES)
# Upstream's mangled-name codes for fp8 (e.g. ``A1f8m3fn``) are accepted too.
_BY_NAME.update({"f8m3fn": float8_e4m3fn, "f8m2": float8_e5m2, "f8m0fnu": float8_e8m0fnu})


def dtype_from_name(name: str) -> DType:
    """Look up a dtype by canonical name, short name or common alias (case-insensitive)."""
    if not isinstance(name, str):
        raise TypeError(f"dtype name must be a str, got {type(name).__name__}")
    key = name.strip().lower()
    for prefix in ("torch.", "np.", "numpy.", "ct.", "cuda.tile."):
        if key.startswith(prefix):
            key = key[len(prefix):]
    try:
        return _BY_NAME[key]
    except KeyError:
        known = ", ".join(d.name for d in ALL_DTYPES)
        raise ValueError(f"unknown dtype {name!r} (known: {known})") from None


# NumPy dtype name -> DType. Only dtypes with a faithful NumPy storage are listed, so
# uint8 maps back to uint8 (not float8_e5m3fnu) and float32 to float32 (not tfloat32).
# Built on first use so that importing this module does not import ml_dtypes.
_FROM_NUMPY: dict | None = None


def _numpy_table() -> dict:
    global _FROM_NUMPY
    if _FROM_NUMPY is None:
        # by storage name (ml_dtypes' dtypes are named as their types), so that launches on
        # NumPy's own dtypes never import ml_dtypes (most of a first launch's time otherwise)
        _FROM_NUMPY = {d._storage.rsplit(".", 1)[-1]: d for d in ALL_DTYPES
                       if d not in (tfloat32, float8_e5m3fnu)}
    return _FROM_NUMPY


def dtype_from_numpy(np_dtype) -> DType:
    """Map a NumPy/ml_dtypes dtype (or a torch dtype, by its name) to a cuTile dtype."""
    if isinstance(np_dtype, DType):
        return np_dtype
    mod = type(np_dtype).__module__ or ""
    if mod.startswith("torch"):
        # torch.dtype objects print as e.g. "torch.float32"; no torch import needed.
        name = str(np_dtype)
        try:
            return dtype_from_name(name)
        except ValueError:
            raise ValueError(f"torch dtype {name} has no cuTile equivalent") from None
    try:
        dt = np.dtype(np_dtype)
    except TypeError:
        raise TypeError(f"cannot interpret {np_dtype!r} as a NumPy dtype") from None
    if dt.byteorder == ">" or (dt.byteorder == "=" and sys.byteorder == "big"):
        raise ValueError(f"non little-endian dtype {dt.str} is not supported")
    try:
        return _numpy_table()[dt.name]
    except KeyError:
        raise ValueError(f"NumPy dtype {dt.name} has no cuTile equivalent") from None


def as_dtype(x) -> DType:
    """Accept a DType, a dtype name, a NumPy/ml_dtypes dtype or a torch dtype."""
    if isinstance(x, DType):
        return x
    if isinstance(x, str):
        return dtype_from_name(x)
    return dtype_from_numpy(x)


# ---------------------------------------------------------------------------------------
# Promotion of two typed operands.
# ---------------------------------------------------------------------------------------

# Float "ranks": f16 and bf16 share a rank, which makes them incompatible with each other.
_FLOAT_RANK = {float16: 1, bfloat16: 1, float32: 2, float64: 3}


def _common(a: DType, b: DType) -> DType | None:
    if a is b:
        return a
    if a.is_bool:
        return b
    if b.is_bool:
        return a
    if a.is_int and b.is_int:
        # Mixed signedness never promotes, even when a wider type could hold both.
        if a.kind != b.kind:
            return None
        return a if a.bitwidth >= b.bitwidth else b
    if a.is_int:
        return b  # any int with a float takes the float, even f16/bf16
    if b.is_int:
        return a
    ra, rb = _FLOAT_RANK[a], _FLOAT_RANK[b]
    if ra == rb:
        return None  # float16 vs bfloat16
    return a if ra > rb else b


def promote(a: DType, b: DType, *, force_float: bool = False) -> DType:
    """Common dtype of two typed operands of a binary op, as cuTile computes it.

    ``force_float`` models true division: a non-float result becomes float32.
    Raises PromotionError for mixed signedness, float16 with bfloat16, and any mix
    that involves a restricted float (tf32, fp8, fp4) other than with itself.
    """
    a, b = as_dtype(a), as_dtype(b)
    if a is b and (not force_float or a.is_float):
        return a
    if a.is_restricted or b.is_restricted:
        raise PromotionError(
            f"Implicit promotion of {a} and {b} is not supported as it involves restricted "
            f"float dtypes (tfloat32, fp8, fp4); cast explicitly")
    ret = _common(a, b)
    if ret is None:
        raise PromotionError(f"Implicit promotion of {a} and {b} is not supported; cast one "
                             f"operand explicitly")
    if force_float and not ret.is_float:
        return DEFAULT_FLOAT
    return ret


# ---------------------------------------------------------------------------------------
# Loosely typed Python constants.
# ---------------------------------------------------------------------------------------

_CATEGORY = {"bool": 0, "int": 1, "uint": 1, "float": 2}  # restricted floats count as float


def literal_dtype(value) -> DType:
    """The dtype a bare Python bool/int/float constant takes on its own.

    ints pick the first of int32, int64, uint64 that holds them; floats are float32.
    """
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        for dt in (int32, int64, uint64):
            if dt.min <= value <= dt.max:
                return dt
        raise LiteralRangeError(
            f"Integer constant {value} is out of range of any supported integer type")
    if isinstance(value, float):
        return DEFAULT_FLOAT
    raise TypeError(f"expected a Python bool, int or float constant, got "
                    f"{type(value).__name__}")


def adapt_literal(value, other: DType, *, force_float: bool = False) -> DType:
    """Result dtype of a binary op between a Python constant and a typed operand.

    Within the same category (bool / int / float, restricted floats counting as float)
    the typed operand's dtype wins, and an int constant must fit it. Across categories
    the higher one wins: ``int8_tile + 2.5`` is float32, ``f16_tile + 3`` is float16,
    ``bool_tile + 3`` is int32. ``force_float`` (true division) skips the range check
    and turns a non-float result into float32.
    """
    other = as_dtype(other)
    lit = literal_dtype(value)
    lit_cat, cat = _CATEGORY[lit.kind], _CATEGORY[other.kind]
    if lit_cat == cat:
        ret = other
        if other.is_int and not force_float and not other.min <= value <= other.max:
            raise LiteralRangeError(f"Integer constant {value} is out of range of {other} "
                                    f"[{other.min}, {other.max}]")
    else:
        ret = lit if lit_cat > cat else other
    if force_float and not ret.is_float:
        return DEFAULT_FLOAT
    return ret


del _d


def is_integral(dt: DType) -> bool:
    """Integer or bool: the dtypes that index, count and wrap."""
    return dt.is_int or dt.is_bool


def check_literal_fits(value, dtype: DType) -> None:
    """Raise LiteralRangeError when an int literal does not fit an integer dtype."""
    if dtype.is_int and isinstance(value, int) and not isinstance(value, bool):
        if not dtype.min <= value <= dtype.max:
            raise LiteralRangeError(f"Integer constant {value} is out of range of {dtype} "
                                    f"[{dtype.min}, {dtype.max}]")


def cast_python_scalar(value, dtype: DType):
    """The Python value a constant of `dtype` holds: ints wrap, floats round to the dtype."""
    if dtype.is_bool:
        return bool(value)
    if dtype.is_int:
        v = int(value)
        bits = dtype.bitwidth
        v &= (1 << bits) - 1
        if dtype.kind == "int" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return v
    if dtype is float64:
        return float(value)
    with np.errstate(over="ignore", invalid="ignore"):   # out-of-range literals become inf, as on the GPU
        return float(np.asarray(value, dtype=np.float64).astype(dtype.numpy).astype(np.float64))
