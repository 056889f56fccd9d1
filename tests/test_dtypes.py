"""Tests for tilescope.dtypes.

The promotion table and the literal rules below were produced by compiling tiny kernels
with the upstream cuda.tile 1.7.0 front end (``ct.where`` for the full table, ``+`` and
``/`` for arithmetic, ``tile + <python constant>`` for literals). ``test_against_upstream``
re-checks them when cuda.tile is importable.
"""

import copy
import pickle

import numpy as np
import pytest

from tilescope import dtypes as D
from tilescope.dtypes import (
    ALL_DTYPES, DType, LiteralRangeError, PromotionError, adapt_literal, as_dtype,
    dtype_from_name, dtype_from_numpy, literal_dtype, promote,
)

# Row dtype combined with column dtype; "-" means implicit promotion is an error.
PROMOTION_TABLE = """
                  b8        u8       u16       u32       u64        i8       i16       i32       i64       f16      bf16       f32       f64      tf32  f8e4m3fn    f8e5m2 f8e8m0fnu f8e5m3fnu  f4e2m1fn
b8                b8        u8       u16       u32       u64        i8       i16       i32       i64       f16      bf16       f32       f64         -         -         -         -         -         -
u8                u8        u8       u16       u32       u64         -         -         -         -       f16      bf16       f32       f64         -         -         -         -         -         -
u16              u16       u16       u16       u32       u64         -         -         -         -       f16      bf16       f32       f64         -         -         -         -         -         -
u32              u32       u32       u32       u32       u64         -         -         -         -       f16      bf16       f32       f64         -         -         -         -         -         -
u64              u64       u64       u64       u64       u64         -         -         -         -       f16      bf16       f32       f64         -         -         -         -         -         -
i8                i8         -         -         -         -        i8       i16       i32       i64       f16      bf16       f32       f64         -         -         -         -         -         -
i16              i16         -         -         -         -       i16       i16       i32       i64       f16      bf16       f32       f64         -         -         -         -         -         -
i32              i32         -         -         -         -       i32       i32       i32       i64       f16      bf16       f32       f64         -         -         -         -         -         -
i64              i64         -         -         -         -       i64       i64       i64       i64       f16      bf16       f32       f64         -         -         -         -         -         -
f16              f16       f16       f16       f16       f16       f16       f16       f16       f16       f16         -       f32       f64         -         -         -         -         -         -
bf16            bf16      bf16      bf16      bf16      bf16      bf16      bf16      bf16      bf16         -      bf16       f32       f64         -         -         -         -         -         -
f32              f32       f32       f32       f32       f32       f32       f32       f32       f32       f32       f32       f32       f64         -         -         -         -         -         -
f64              f64       f64       f64       f64       f64       f64       f64       f64       f64       f64       f64       f64       f64         -         -         -         -         -         -
tf32               -         -         -         -         -         -         -         -         -         -         -         -         -      tf32         -         -         -         -         -
f8e4m3fn           -         -         -         -         -         -         -         -         -         -         -         -         -         -  f8e4m3fn         -         -         -         -
f8e5m2             -         -         -         -         -         -         -         -         -         -         -         -         -         -         -    f8e5m2         -         -         -
f8e8m0fnu          -         -         -         -         -         -         -         -         -         -         -         -         -         -         -         - f8e8m0fnu         -         -
f8e5m3fnu          -         -         -         -         -         -         -         -         -         -         -         -         -         -         -         -         - f8e5m3fnu         -
f4e2m1fn           -         -         -         -         -         -         -         -         -         -         -         -         -         -         -         -         -         -  f4e2m1fn
"""


def _table():
    lines = [ln.split() for ln in PROMOTION_TABLE.strip().splitlines()]
    cols = [dtype_from_name(n) for n in lines[0]]
    out = {}
    for row in lines[1:]:
        a = dtype_from_name(row[0])
        for b, cell in zip(cols, row[1:]):
            out[a, b] = None if cell == "-" else dtype_from_name(cell)
    return out


TABLE = _table()


def test_table_covers_all_dtypes():
    assert len(TABLE) == len(ALL_DTYPES) ** 2


@pytest.mark.parametrize("a", ALL_DTYPES, ids=lambda d: d.name)
def test_promotion_table(a):
    for b in ALL_DTYPES:
        expected = TABLE[a, b]
        if expected is None:
            with pytest.raises(PromotionError):
                promote(a, b)
        else:
            assert promote(a, b) is expected, (a, b)


def test_promotion_is_symmetric():
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            assert TABLE[a, b] == TABLE[b, a]


def test_promotion_error_messages():
    with pytest.raises(PromotionError, match=r"^Implicit promotion of int8 and uint8 is not supported; "):
        promote(D.int8, D.uint8)
    with pytest.raises(PromotionError, match="float16 and bfloat16"):
        promote(D.float16, D.bfloat16)
    with pytest.raises(PromotionError, match="restricted float"):
        promote(D.tfloat32, D.float32)
    with pytest.raises(TypeError):  # PromotionError is a TypeError
        promote(D.float8_e4m3fn, D.float8_e5m2)
    assert "\n" not in str(pytest.raises(PromotionError, promote, D.int8, D.uint8).value)


def test_force_float_true_division():
    # x / y: a non-float common dtype becomes float32; floats are kept.
    assert promote(D.int8, D.int8, force_float=True) is D.float32
    assert promote(D.bool_, D.bool_, force_float=True) is D.float32
    assert promote(D.int64, D.int32, force_float=True) is D.float32
    assert promote(D.uint64, D.uint8, force_float=True) is D.float32
    assert promote(D.int32, D.float16, force_float=True) is D.float16
    assert promote(D.bfloat16, D.bool_, force_float=True) is D.bfloat16
    assert promote(D.float64, D.float64, force_float=True) is D.float64
    assert promote(D.tfloat32, D.tfloat32, force_float=True) is D.tfloat32
    with pytest.raises(PromotionError):
        promote(D.int8, D.uint8, force_float=True)


def test_promote_accepts_names():
    assert promote("i16", "f16") is D.float16


# --- literals ---------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    (True, D.bool_), (False, D.bool_), (0, D.int32), (-2**31, D.int32), (2**31 - 1, D.int32),
    (2**31, D.int64), (-2**31 - 1, D.int64), (2**63 - 1, D.int64), (2**63, D.uint64),
    (2**64 - 1, D.uint64), (1.5, D.float32), (0.0, D.float32), (1e300, D.float32),
])
def test_literal_dtype(value, expected):
    assert literal_dtype(value) is expected


@pytest.mark.parametrize("value", [2**64, -2**63 - 1])
def test_literal_dtype_out_of_every_range(value):
    with pytest.raises(LiteralRangeError, match="out of range of any supported integer type"):
        literal_dtype(value)


def test_literal_dtype_rejects_non_literals():
    with pytest.raises(TypeError):
        literal_dtype("3")
    with pytest.raises(TypeError):
        literal_dtype(np.int32(3))


# (tile dtype, python constant, result) -- None means LiteralRangeError.
LITERAL_CASES = [
    # same category: the typed operand wins; ints must fit
    (D.int8, 127, D.int8), (D.int8, -128, D.int8), (D.int8, 128, None), (D.int8, -129, None),
    (D.uint8, 255, D.uint8), (D.uint8, 256, None), (D.uint8, -1, None),
    (D.int16, 32767, D.int16), (D.int16, 32768, None), (D.uint16, 65535, D.uint16),
    (D.int32, 2**31 - 1, D.int32), (D.int32, 2**31, None), (D.int32, -2**31, D.int32),
    (D.uint32, 2**32 - 1, D.uint32), (D.uint32, 2**32, None),
    (D.int64, 2**63 - 1, D.int64), (D.int64, 2**63, None),
    (D.uint64, 2**64 - 1, D.uint64), (D.uint64, -1, None),
    (D.float16, 1.5, D.float16), (D.bfloat16, 1e300, D.bfloat16), (D.float64, 0.5, D.float64),
    (D.bool_, True, D.bool_), (D.tfloat32, 1.5, D.tfloat32),
    # bool constants are the lowest category
    (D.int8, True, D.int8), (D.uint64, False, D.uint64), (D.float16, True, D.float16),
    # ints into floats: the float wins, no range check
    (D.float16, 3, D.float16), (D.float16, 2**64 - 1, D.float16), (D.bfloat16, -7, D.bfloat16),
    (D.float32, 2**40, D.float32), (D.float8_e4m3fn, 2, D.float8_e4m3fn),
    # higher-category constant wins with its own default dtype
    (D.int8, 2.5, D.float32), (D.uint64, 0.0, D.float32), (D.int64, float("inf"), D.float32),
    (D.bool_, 3, D.int32), (D.bool_, 2**31, D.int64), (D.bool_, 2**63, D.uint64),
    (D.bool_, 1.5, D.float32),
]


@pytest.mark.parametrize("dtype, value, expected", LITERAL_CASES,
                         ids=[f"{d.short}-{v!r}" for d, v, _ in LITERAL_CASES])
def test_adapt_literal(dtype, value, expected):
    if expected is None:
        with pytest.raises(LiteralRangeError, match=f"Integer constant {value} is out of "
                                                    f"range of {dtype.name}"):
            adapt_literal(value, dtype)
    else:
        assert adapt_literal(value, dtype) is expected


def test_adapt_literal_too_big_for_anything():
    for dt in (D.float32, D.bool_, D.uint64):
        with pytest.raises(LiteralRangeError, match="any supported integer type"):
            adapt_literal(2**64, dt)


@pytest.mark.parametrize("dtype, value, expected", [
    (D.int8, 1000, D.float32),   # true division skips the range check
    (D.uint8, -1, D.float32), (D.bool_, True, D.float32), (D.int32, 2.5, D.float32),
    (D.float16, 3, D.float16), (D.bfloat16, 0.5, D.bfloat16), (D.float64, 2, D.float64),
])
def test_adapt_literal_force_float(dtype, value, expected):
    assert adapt_literal(value, dtype, force_float=True) is expected


def test_literal_range_error_is_value_error():
    assert issubclass(LiteralRangeError, ValueError)
    assert issubclass(PromotionError, TypeError)


# --- the DType objects ------------------------------------------------------------------

EXPECTED_ATTRS = {
    # name: (short, bitwidth, kind, restricted, numpy storage name)
    "bool_": ("b8", 8, "bool", False, "bool"),
    "uint8": ("u8", 8, "uint", False, "uint8"),
    "uint16": ("u16", 16, "uint", False, "uint16"),
    "uint32": ("u32", 32, "uint", False, "uint32"),
    "uint64": ("u64", 64, "uint", False, "uint64"),
    "int8": ("i8", 8, "int", False, "int8"),
    "int16": ("i16", 16, "int", False, "int16"),
    "int32": ("i32", 32, "int", False, "int32"),
    "int64": ("i64", 64, "int", False, "int64"),
    "float16": ("f16", 16, "float", False, "float16"),
    "bfloat16": ("bf16", 16, "float", False, "bfloat16"),
    "float32": ("f32", 32, "float", False, "float32"),
    "float64": ("f64", 64, "float", False, "float64"),
    "tfloat32": ("tf32", 32, "float", True, "float32"),
    "float8_e4m3fn": ("f8e4m3fn", 8, "float", True, "float8_e4m3fn"),
    "float8_e5m2": ("f8e5m2", 8, "float", True, "float8_e5m2"),
    "float8_e8m0fnu": ("f8e8m0fnu", 8, "float", True, "float8_e8m0fnu"),
    "float8_e5m3fnu": ("f8e5m3fnu", 8, "float", True, "uint8"),
    "float4_e2m1fn": ("f4e2m1fn", 4, "float", True, "float4_e2m1fn"),
}


def test_all_dtypes_listed_once():
    assert [d.name for d in ALL_DTYPES] == list(EXPECTED_ATTRS)
    assert len(set(ALL_DTYPES)) == len(ALL_DTYPES)
    for d in ALL_DTYPES:
        assert getattr(D, d.name) is d


@pytest.mark.parametrize("d", ALL_DTYPES, ids=lambda d: d.name)
def test_dtype_attributes(d):
    short, bits, kind, restricted, storage = EXPECTED_ATTRS[d.name]
    assert (d.short, d.bitwidth, d.kind, d.is_restricted) == (short, bits, kind, restricted)
    assert d.numpy.name == storage
    assert d.is_arithmetic is not restricted
    assert d.is_int == (kind in ("int", "uint"))
    assert d.is_float == (kind == "float")
    assert d.is_bool == (kind == "bool")
    assert d.is_signed == (kind in ("int", "float"))


def test_repr_and_str_match_upstream():
    assert repr(D.float32) == "<DType 'float32'>"
    assert str(D.float32) == "float32"
    assert str(D.bool_) == "bool_"
    assert f"{D.bfloat16}" == "bfloat16"


def test_identity_survives_copy_and_pickle():
    for d in ALL_DTYPES:
        assert copy.copy(d) is d
        assert copy.deepcopy(d) is d
        assert pickle.loads(pickle.dumps(d)) is d
        assert hash(d) == hash(pickle.loads(pickle.dumps(d)))


def test_dtype_is_immutable():
    with pytest.raises(AttributeError):
        D.float32.bitwidth = 16


def test_int_ranges():
    assert (D.int8.min, D.int8.max) == (-128, 127)
    assert (D.uint8.min, D.uint8.max) == (0, 255)
    assert (D.int64.min, D.int64.max) == (-2**63, 2**63 - 1)
    assert D.uint64.max == 2**64 - 1
    for d in ALL_DTYPES:
        if d.is_int:
            info = np.iinfo(d.numpy)
            assert (d.min, d.max) == (info.min, info.max)
    with pytest.raises(TypeError):
        D.float32.min
    with pytest.raises(TypeError):
        D.bool_.max


def test_numpy_storage_values():
    assert np.array([1.5], dtype=D.bfloat16.numpy).astype(np.float32)[0] == 1.5
    assert D.float8_e5m3fnu.numpy == np.uint8  # ml_dtypes 0.6 lacks this format
    assert D.bfloat16.itemsize == 2 and D.float4_e2m1fn.itemsize == 1


# --- names ------------------------------------------------------------------------------

@pytest.mark.parametrize("alias, expected", [
    ("float32", D.float32), ("f32", D.float32), ("fp32", D.float32), ("float", D.float32),
    ("F32", D.float32), (" f32 ", D.float32),
    ("f16", D.float16), ("half", D.float16), ("fp16", D.float16),
    ("bf16", D.bfloat16), ("bfloat16", D.bfloat16),
    ("f64", D.float64), ("double", D.float64),
    ("i8", D.int8), ("i16", D.int16), ("i32", D.int32), ("i64", D.int64), ("int", D.int32),
    ("u8", D.uint8), ("u16", D.uint16), ("u32", D.uint32), ("u64", D.uint64),
    ("bool", D.bool_), ("bool_", D.bool_), ("b8", D.bool_),
    ("tf32", D.tfloat32), ("tfloat32", D.tfloat32),
    ("fp8e4m3", D.float8_e4m3fn), ("e4m3", D.float8_e4m3fn), ("f8e4m3fn", D.float8_e4m3fn),
    ("fp8e5m2", D.float8_e5m2), ("e5m2", D.float8_e5m2),
    ("e8m0", D.float8_e8m0fnu), ("e5m3", D.float8_e5m3fnu),
    ("fp4", D.float4_e2m1fn), ("e2m1", D.float4_e2m1fn),
    ("torch.float16", D.float16), ("np.int8", D.int8),
])
def test_dtype_from_name_aliases(alias, expected):
    assert dtype_from_name(alias) is expected


def test_every_canonical_and_short_name_resolves():
    for d in ALL_DTYPES:
        assert dtype_from_name(d.name) is d
        assert dtype_from_name(d.short) is d


def test_unknown_name():
    with pytest.raises(ValueError) as ei:
        dtype_from_name("xyz")
    msg = str(ei.value)
    assert msg.startswith("unknown dtype 'xyz' (known: bool_, uint8")
    assert "\n" not in msg and "float4_e2m1fn" in msg
    with pytest.raises(TypeError):
        dtype_from_name(32)


def test_dtype_from_numpy():
    import ml_dtypes
    assert dtype_from_numpy(np.float32) is D.float32  # never tfloat32
    assert dtype_from_numpy(np.dtype("uint8")) is D.uint8  # never float8_e5m3fnu
    assert dtype_from_numpy(np.bool_) is D.bool_
    assert dtype_from_numpy("<f2") is D.float16
    assert dtype_from_numpy(ml_dtypes.bfloat16) is D.bfloat16
    assert dtype_from_numpy(ml_dtypes.float8_e4m3fn) is D.float8_e4m3fn
    assert dtype_from_numpy(ml_dtypes.float8_e5m2) is D.float8_e5m2
    assert dtype_from_numpy(ml_dtypes.float8_e8m0fnu) is D.float8_e8m0fnu
    assert dtype_from_numpy(ml_dtypes.float4_e2m1fn) is D.float4_e2m1fn
    for d in ALL_DTYPES:
        if d not in (D.tfloat32, D.float8_e5m3fnu):
            assert dtype_from_numpy(d.numpy) is d
    with pytest.raises(ValueError, match="complex64 has no cuTile"):
        dtype_from_numpy(np.complex64)
    with pytest.raises(ValueError, match="little-endian"):
        dtype_from_numpy(">f4")
    with pytest.raises(TypeError):
        dtype_from_numpy(object())


def test_as_dtype():
    assert as_dtype(D.int8) is D.int8
    assert as_dtype("f16") is D.float16
    assert as_dtype(np.int64) is D.int64


def test_dtype_from_torch():
    torch = pytest.importorskip("torch")
    assert dtype_from_numpy(torch.float32) is D.float32
    assert dtype_from_numpy(torch.bfloat16) is D.bfloat16
    assert dtype_from_numpy(torch.bool) is D.bool_
    assert dtype_from_numpy(torch.float8_e4m3fn) is D.float8_e4m3fn
    with pytest.raises(ValueError):
        dtype_from_numpy(torch.complex64)


# --- optional re-verification against upstream cuda.tile ---------------------------------

try:
    import cuda.tile as ct
    from cuda.tile.compilation import (ArrayConstraint, CallingConvention, KernelSignature,
                                       export_kernel)
except Exception:  # noqa: BLE001 - upstream missing or broken: the test is skipped
    ct = None

if ct is not None:
    @ct.kernel
    def _where_kernel(a, b):
        x = ct.load(a, index=(0,), shape=(16,))
        y = ct.load(b, index=(0,), shape=(16,))
        z = ct.where(ct.arange(16, dtype=ct.int32) > 3, x, y)
        ct.static_assert(False, z.dtype)

    @ct.kernel
    def _div_kernel(a, b):
        x = ct.load(a, index=(0,), shape=(16,))
        y = ct.load(b, index=(0,), shape=(16,))
        z = x / y
        ct.static_assert(False, z.dtype)

    @ct.kernel
    def _lit_kernel(a, lit: ct.Constant):
        x = ct.load(a, index=(0,), shape=(16,))
        z = x + lit
        ct.static_assert(False, z.dtype)

    @ct.kernel
    def _lit_div_kernel(a, lit: ct.Constant):
        x = ct.load(a, index=(0,), shape=(16,))
        z = x / lit
        ct.static_assert(False, z.dtype)


def _upstream_result(kernel, params, path):
    """Result dtype name reported by the static assertion, or 'TypeError'/'ValueError'."""
    def arr(d):
        return ArrayConstraint(d.to_upstream(), 1, index_dtype=ct.int32,
                               stride_lower_bound_incl=0, alias_groups=(),
                               may_alias_internally=False)
    params = [arr(p) if isinstance(p, DType) else p for p in params]
    sig = KernelSignature(params, calling_convention=CallingConvention.cutile_python_v1(),
                          symbol="k")
    try:
        export_kernel(kernel, [sig], str(path), output_format="tileir_bytecode",
                      bytecode_version="13.3")
    except ct.TileStaticAssertionError as e:
        return str(e).split("failed: ", 1)[1].split()[0]
    except ct.TileTypeError:
        return "TypeError"
    except ct.TileValueError:
        return "ValueError"
    raise AssertionError("static assertion unexpectedly passed")


needs_upstream = pytest.mark.skipif(ct is None, reason="cuda.tile is not installed")


@needs_upstream
def test_against_upstream_promotion(tmp_path):
    out = tmp_path / "k.tilebc"
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            got = _upstream_result(_where_kernel, [a, b], out)
            want = TABLE[a, b]
            assert got == ("TypeError" if want is None else want.name), (a, b)
            if a.is_arithmetic and b.is_arithmetic and want is not None:
                got = _upstream_result(_div_kernel, [a, b], out)
                assert got == promote(a, b, force_float=True).name, (a, b)


@needs_upstream
def test_against_upstream_literals(tmp_path):
    out = tmp_path / "k.tilebc"
    for dtype, value, expected in LITERAL_CASES:
        if not dtype.is_arithmetic or (dtype.is_bool and isinstance(value, bool)):
            continue  # arithmetic on these is rejected before promotion matters
        got = _upstream_result(_lit_kernel, [dtype, value], out)
        assert got == ("ValueError" if expected is None else expected.name), (dtype, value)
        got = _upstream_result(_lit_div_kernel, [dtype, value], out)
        assert got == adapt_literal(value, dtype, force_float=True).name, (dtype, value)
