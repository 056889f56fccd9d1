"""Shape ops on the CPU executor: permute/transpose, cat, extract/insert, bitcast, byte packing, assume.

References are computed with plain NumPy; every kernel also runs one block at a time and must
agree bit for bit.
"""
import io

import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.numpy.executor import ExecutionError
from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_shape as K


def both_ways(grid, kernel, make_args, **kw):
    a1 = make_args()
    run_kernel(grid, kernel, a1, **kw)
    a2 = make_args()
    run_kernel(grid, kernel, a2, sequential=True, **kw)
    for x, y in zip(a1, a2):
        if isinstance(x, np.ndarray):
            assert x.tobytes() == y.tobytes()
    return a1


@pytest.fixture
def old_target(monkeypatch):
    # ct.insert needs tileiras 13.4; the CPU executor has no such gate whatever the target says.
    monkeypatch.setenv("TILESCOPE_TILEIRAS_VERSION", "13.3")


INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]


def values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    v = rng.standard_normal(shape) * 100
    v.flat[::7] = np.nan
    v.flat[3::11] = -np.inf
    return v.astype(dtype)


# ---- permute / transpose / cat ------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.float32, ml_dtypes.bfloat16, np.bool_])
def test_permute(dtype):
    x = values((6, 4, 8), np.int16).astype(dtype)
    y = both_ways((3,), K.permute_3d, lambda: (x.copy(), np.zeros((24, 2, 4), dtype)))[1]
    for b in range(3):
        assert np.array_equal(y[8 * b:8 * b + 8], np.transpose(x[2 * b:2 * b + 2], (2, 0, 1)), equal_nan=True) \
            if dtype is not np.bool_ else np.array_equal(y[8 * b:8 * b + 8], np.transpose(x[2 * b:2 * b + 2], (2, 0, 1)))


def test_transpose_ragged_edges():
    x = values((10, 12), np.float64)
    y = both_ways((3, 2), K.transpose_2d, lambda: (x.copy(), np.full((12, 10), -7.0), 4, 8))[1]
    assert np.array_equal(y, x.T, equal_nan=True)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.uint64])
def test_cat(axis, dtype):
    x, y = values((8, 8), dtype, 1), values((8, 8), dtype, 2)
    out_shape = (16, 8) if axis == 0 else (8, 16)
    z = both_ways((2,), K.cat_axis, lambda: (x.copy(), y.copy(), np.zeros(out_shape, dtype), axis))[2]
    for b in range(2):
        want = np.concatenate([x[4 * b:4 * b + 4], y[4 * b:4 * b + 4]], axis=axis)
        got = z[8 * b:8 * b + 8] if axis == 0 else z[4 * b:4 * b + 4]
        assert got.tobytes() == want.tobytes()


def test_cat_uniform_and_per_block_operands():
    x = np.arange(-8, 8, dtype=np.int32)
    z = both_ways((4,), K.cat_uniform_with_block_values, lambda: (x.copy(), np.zeros(32, np.int32)))[1]
    assert z.reshape(4, 8).tolist() == [[7] * 4 + list(x[4 * b:4 * b + 4]) for b in range(4)]


# ---- extract / insert ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.float32, ml_dtypes.float8_e4m3fn])
def test_extract_index_differs_per_block(dtype):
    x = values(64, np.float32).astype(dtype)
    y = both_ways((8,), K.extract_per_block, lambda: (x.copy(), np.zeros(16, dtype), 8, 2))[1]
    for b in range(8):
        k = b % 4
        assert y[2 * b:2 * b + 2].tobytes() == x[8 * b + 2 * k:8 * b + 2 * k + 2].tobytes()


def test_extract_2d_and_scalar():
    x = np.arange(32, dtype=np.int64).reshape(4, 8)
    y = both_ways((8,), K.extract_2d, lambda: (x.copy(), np.zeros((4, 8), np.int64)))[1]
    assert np.array_equal(y, x)
    v = np.arange(8, dtype=np.float32) * 1.5
    out = both_ways((8,), K.extract_scalar, lambda: (v.copy(), np.zeros(8, np.float32)))[1]
    assert np.array_equal(out, v)


def test_extract_out_of_range_is_reported_and_stays_inside():
    x = np.arange(8, dtype=np.int32)
    y = np.zeros(12, np.int32)
    chk = run_kernel((3,), K.extract_out_of_range, (x, y), checks={"bounds": True, "races": False})
    assert y[:8].tolist() == list(range(8))
    assert any("extract at sub-tile index (2,)" in r and "block (2, 0, 0)" in r for r in chk.reports)
    with pytest.raises(ExecutionError, match="outside the grid"):
        run_kernel((3,), K.extract_out_of_range, (x, np.zeros(12, np.int32)),
                   checks={"bounds": True, "races": False, "strict": True})


@pytest.mark.parametrize("dtype", [np.int16, np.float64])
def test_insert_index_differs_per_block(dtype, old_target):
    x = values(64, np.int16).astype(dtype)
    y = both_ways((8,), K.insert_per_block, lambda: (x.copy(), np.zeros(64, dtype), 8, 4))[1]
    for b in range(8):
        want = x[8 * b:8 * b + 8].copy()
        k = b % 2
        want[4 * k:4 * k + 4] = -(b + 1)
        assert y[8 * b:8 * b + 8].tobytes() == want.tobytes()


def test_insert_scalar_into_2d(old_target):
    x = np.arange(16, dtype=np.int32).reshape(4, 4)
    y = both_ways((4,), K.insert_2d_scalar, lambda: (x.copy(), np.zeros((16, 4), np.int32)))[1]
    for b in range(4):
        want = x.copy()
        want[b, b] = 100 + b
        assert np.array_equal(y[4 * b:4 * b + 4], want)


# ---- bitcast -------------------------------------------------------------------------


BITCASTS = [
    (np.float32, np.uint32), (np.float32, np.int32), (np.int32, np.float32), (np.float64, np.int64),
    (np.uint64, np.float64), (np.float16, np.int16), (np.int16, np.float16),
    (ml_dtypes.bfloat16, np.uint16), (np.uint16, ml_dtypes.bfloat16), (ml_dtypes.bfloat16, np.float16),
    (ml_dtypes.float8_e4m3fn, np.uint8), (np.uint8, ml_dtypes.float8_e5m2), (np.int8, ml_dtypes.float8_e4m3fn),
    (ml_dtypes.float8_e5m2, np.int8), (np.uint32, np.int32),
]


@pytest.mark.parametrize("src,dst", BITCASTS, ids=lambda d: np.dtype(d).name)
def test_bitcast_is_numpy_view(src, dst):
    raw = values(32, np.uint64).view(np.uint8)[:32 * np.dtype(src).itemsize]
    x = raw.view(src).copy()
    if np.dtype(src).kind == "f":
        x[::5] = np.asarray(np.nan, src)
    y = both_ways((4,), K.bitcast_to, lambda: (x.copy(), np.zeros(32, dst), 8))[1]
    assert y.tobytes() == x.tobytes()


def test_bitcast_doc_value():
    x = np.array([1.0] * 4, np.float32)
    y = both_ways((1,), K.bitcast_to, lambda: (x.copy(), np.zeros(4, np.uint32), 4))[1]
    assert y.tolist() == [0x3F800000] * 4


# ---- pack_to_bytes / unpack_from_bytes ---------------------------------------------------

BYTE_DTYPES = INTS + FLOATS + [ml_dtypes.float8_e4m3fn,
                               ml_dtypes.float8_e5m2]


@pytest.mark.parametrize("dtype", BYTE_DTYPES, ids=lambda d: np.dtype(d).name)
def test_pack_to_bytes_little_endian(dtype):
    x = values(32, np.float32).astype(dtype) if np.dtype(dtype).kind not in "iu" else values(32, dtype)
    n = 8 * np.dtype(dtype).itemsize
    y = both_ways((4,), K.pack_bytes, lambda: (x.copy(), np.zeros(32 * np.dtype(dtype).itemsize, np.uint8), 8))[1]
    assert y.tobytes() == x.tobytes()                 # the host is little-endian, like GPU memory
    assert len(y) == 4 * n


def test_pack_doc_value_and_2d_row_major():
    x = np.array([0x04030201, -1], np.int32)
    y = both_ways((2,), K.pack_bytes, lambda: (x.copy(), np.zeros(8, np.uint8), 1))[1]
    assert y.tolist() == [1, 2, 3, 4, 255, 255, 255, 255]
    m = np.arange(16, dtype=np.int16).reshape(4, 4) * 257
    out = both_ways((2,), K.pack_bytes_2d, lambda: (m.copy(), np.zeros(32, np.uint8)))[1]
    assert out.tobytes() == m.tobytes()


@pytest.mark.parametrize("dtype", BYTE_DTYPES, ids=lambda d: np.dtype(d).name)
def test_unpack_from_bytes(dtype):
    raw = values(64, np.uint8, seed=3)
    k = np.dtype(dtype).itemsize
    y = both_ways((4,), K.unpack_bytes, lambda: (raw.copy(), np.zeros(64 // k, dtype), 16))[1]
    assert y.tobytes() == raw.tobytes()


def test_unpack_doc_value():
    raw = np.array([1, 2, 3, 4], np.uint8)
    y = both_ways((1,), K.unpack_bytes, lambda: (raw.copy(), np.zeros(1, np.int32), 4))[1]
    assert y.tolist() == [0x04030201]


F4_TABLE = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]


def test_fp4_two_values_per_byte_low_nibble_first():
    raw = np.arange(256, dtype=np.uint8)
    y, z = both_ways((8,), K.fp4_roundtrip, lambda: (raw.copy(), np.zeros(256, np.uint8),
                                                     np.zeros(512, np.float32), 32))[1:3]
    assert y.tobytes() == raw.tobytes()
    want = np.array([[F4_TABLE[b & 15], F4_TABLE[b >> 4]] for b in range(256)], np.float32).ravel()
    assert z.tobytes() == want.tobytes()


def test_fp4_pack_from_floats():
    x = np.array(F4_TABLE * 2, np.float32)
    y = both_ways((2,), K.fp4_from_floats, lambda: (x.copy(), np.zeros(16, np.uint8), 16))[1]
    assert y.tolist() == [lo | (hi << 4) for lo, hi in zip(range(0, 16, 2), range(1, 16, 2))] * 2


# ---- assume_divisible_by ---------------------------------------------------------------

def test_assume_is_identity():
    x = both_ways((4,), K.assume_multiple, lambda: (np.zeros(4, np.int32), 12))[0]
    assert x.tolist() == [12, 13, 14, 15]


def test_violated_assumption_is_reported():
    x = np.zeros(2, np.int32)
    chk = run_kernel((2,), K.assume_multiple, (x, 10), checks={"bounds": True, "races": False})
    assert x.tolist() == [10, 11]
    assert any("value 10 is not a multiple of 4" in r for r in chk.reports)
    chk = run_kernel((2,), K.assume_multiple, (np.zeros(2, np.int32), 10), checks={"bounds": False, "races": False})
    assert chk.reports == []
