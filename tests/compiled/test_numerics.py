"""The compiled backend's numerics against the NumPy executor, bit for bit, on many values:
every float16 and bfloat16 bit pattern, every float8 one, large random samples of float32 and
float64 (special values included), and transcendentals on arguments whose float64 results
lie near float32 rounding boundaries (where the executor's own rule is called back)."""
import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.compiled import toolchain
from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_elementwise as K

pytestmark = pytest.mark.skipif(not toolchain.available(), reason="no C compiler")

BF16, E4M3, E5M2 = (np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2))
T = 1024


def patterns(dtype) -> np.ndarray:
    """Every bit pattern of a 16- or 8-bit float; for float32/float64 a random sample of bit
    patterns (NaN payloads, subnormals, infinities, both zeros) and of ordinary values."""
    dtype = np.dtype(dtype)
    if dtype.itemsize <= 2:
        bits = np.arange(1 << (8 * dtype.itemsize), dtype=f"u{dtype.itemsize}")
        return bits.view(dtype)
    rng = np.random.default_rng(5)
    u = f"u{dtype.itemsize}"
    raw = rng.integers(0, np.iinfo(u).max, 1 << 15, dtype=u, endpoint=True).view(dtype)
    normal = (rng.standard_normal(1 << 15) * rng.choice([1e-3, 1, 300, 7e4], 1 << 15)).astype(dtype)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504, 65520, 65519.99, 2 ** -24, 2 ** -25,
                        3 * 2 ** -26, 448, 464, 480, 57344, 61440, 1e-40, -1e-45], dtype)
    return np.concatenate([raw, normal, special])


def padded(x: np.ndarray) -> np.ndarray:
    n = -(-len(x) // T) * T
    out = np.zeros(n, x.dtype)
    out[:len(x)] = x
    return out


def both(kernel, inputs, out_dtype):
    """(compiled, executor) outputs of an element-wise kernel over 1-D inputs."""
    n = len(inputs[0])
    outs = []
    for engine in ("compiled", "numpy"):
        o = np.zeros(n, out_dtype)
        with np.errstate(all="ignore"):
            run_kernel((n // T,), kernel, tuple(x.copy() for x in inputs) + (o, T), engine=engine)
        outs.append(o)
    return outs


FLOATS = [np.float16, BF16, np.float32, np.float64, E4M3, E5M2]
TARGETS = FLOATS + [np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.bool_]


@pytest.mark.parametrize("src", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dst", TARGETS, ids=lambda d: np.dtype(d).name)
def test_conversions_from_floats_every_pattern(src, dst):
    if np.dtype(src) == np.dtype(dst):
        return
    x = padded(patterns(src))
    got, want = both(K.un_astype, (x,), dst)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("src", [np.int8, np.int16, np.int32, np.int64, np.uint32, np.uint64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dst", FLOATS, ids=lambda d: np.dtype(d).name)
def test_conversions_from_integers(src, dst):
    rng = np.random.default_rng(3)
    info = np.iinfo(src)
    x = rng.integers(info.min, info.max, 1 << 14, dtype=src, endpoint=True)
    x[:6] = [info.min, info.max, 0, 1, info.max - 1, (1 << (8 * x.itemsize - 2)) + 3]
    got, want = both(K.un_astype, (padded(x),), dst)
    assert got.tobytes() == want.tobytes()


def near_midpoints(fn, n: int = 4096) -> np.ndarray:
    """float32 arguments whose float64 `fn` value lies within a few float64 units of a point
    halfway between two float32 values (found by search: about one argument in 10^6)."""
    rng = np.random.default_rng(11)
    found = []
    lo, hi = (0.01, 80.0) if fn in (np.log, np.log2) else (-20.0, 20.0)
    for _ in range(40):
        x = rng.uniform(lo, hi, 1 << 21).astype(np.float32)
        with np.errstate(all="ignore"):
            d = fn(x.astype(np.float64))
        low = d.view(np.uint64) & np.uint64(0x1FFFFFFF)
        near = np.abs(low.astype(np.int64) - 0x10000000) <= 8
        found.append(x[near])
        if sum(len(f) for f in found) >= 8:
            break
    return np.concatenate(found)[:n]


@pytest.mark.parametrize("name", ["exp", "exp2", "log", "log2", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                  "sqrt", "rsqrt"])
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_unary_math(name, dtype):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(1 << 15) * rng.choice([0.01, 1, 10, 90], 1 << 15)).astype(np.float32)
    if np.dtype(dtype) == np.float32 and name not in ("sqrt", "rsqrt"):
        x = np.concatenate([x, near_midpoints(getattr(np, name))])
    x = np.concatenate([x, np.array([0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 88.7, 89, -103, -87.5], np.float32)])
    got, want = both(getattr(K, f"un_{name}"), (padded(x.astype(dtype)),), dtype)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", ["pow", "atan2"])
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_binary_math(name, dtype):
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(1 << 14) * 4).astype(dtype)
    y = (rng.standard_normal(1 << 14) * 3).astype(dtype)
    if name == "pow":
        x = np.abs(x)
    got, want = both(getattr(K, f"bin_{name}"), (padded(x), padded(y)), dtype)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name,fn,ulps", [("ts_exp64", np.exp, 1), ("ts_tanh64", np.tanh, 4), ("ts_log64", np.log, 2)])
def test_runtime_functions_are_within_a_few_units_of_numpys(name, fn, ulps):
    # the rounding-boundary band (transcendental._ULPS) rests on this
    import ctypes
    from tilescope.backends.compiled import runtime_math, runtime_types
    src = runtime_types.SOURCE + runtime_math.SOURCE + (
        '__attribute__((visibility("default"))) void f(const double *x, double *y, long n) '
        f'{{ for (long i = 0; i < n; i++) y[i] = {name}(x[i]); }}')
    lib = ctypes.CDLL(toolchain.library_for(src))
    rng = np.random.default_rng(0)
    if fn is np.log:
        x = np.concatenate([np.exp(rng.uniform(-100, 88, 1 << 19)), rng.uniform(0.5, 2, 1 << 18)])
    else:
        x = np.concatenate([rng.uniform(-104, 89, 1 << 19), rng.uniform(-1, 1, 1 << 18),
                            rng.uniform(-1e-6, 1e-6, 1 << 14)])
    x = x.astype(np.float32).astype(np.float64)
    y = np.empty_like(x)
    lib.f(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(len(x)))
    with np.errstate(all="ignore"):
        ref = fn(x)
    assert np.abs(y.view(np.int64) - ref.view(np.int64)).max() <= ulps
