"""flush_to_zero in compiled kernels (float32 only, as cuTile allows it), bit for bit against
the NumPy executor, on values that are or make subnormals."""
import numpy as np
import pytest

import tilescope.lang as ct
from tilescope.backends.compiled import toolchain
from tilescope.backends.numpy.launcher import run_kernel

pytestmark = pytest.mark.skipif(not toolchain.available(), reason="no C compiler")

T = 1024
RMd = ct.RoundingMode


@ct.kernel
def binary_ftz(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    s = ct.add(a, c, flush_to_zero=True)
    d = ct.sub(a, c, flush_to_zero=True)
    p = ct.mul(a, c, flush_to_zero=True)
    q = ct.truediv(a, c, flush_to_zero=True, rounding_mode=RMd.APPROX)
    m = ct.maximum(a, c, flush_to_zero=True) + ct.minimum(p, d, flush_to_zero=True)
    ct.store(o, index=(b, 0), tile=ct.reshape(s, (1, T)))
    ct.store(o, index=(b, 1), tile=ct.reshape(d, (1, T)))
    ct.store(o, index=(b, 2), tile=ct.reshape(p, (1, T)))
    ct.store(o, index=(b, 3), tile=ct.reshape(q, (1, T)))
    ct.store(o, index=(b, 4), tile=ct.reshape(m, (1, T)))


@ct.kernel
def unary_ftz(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    e = ct.exp2(a, flush_to_zero=True)
    r = ct.sqrt(ct.abs(a), flush_to_zero=True)
    s = ct.rsqrt(ct.abs(c), flush_to_zero=True)
    f = ct.add(ct.mul(a, c, flush_to_zero=True), e, flush_to_zero=True)     # fused into one fma
    ct.store(o, index=(b, 0), tile=ct.reshape(e, (1, T)))
    ct.store(o, index=(b, 1), tile=ct.reshape(r, (1, T)))
    ct.store(o, index=(b, 2), tile=ct.reshape(s, (1, T)))
    ct.store(o, index=(b, 3), tile=ct.reshape(f, (1, T)))
    ct.store(o, index=(b, 4), tile=ct.reshape(ct.exp2(c, flush_to_zero=True), (1, T)))


@ct.kernel
def scalar_ftz(x, y, o):
    b = ct.bid(0)
    a = ct.gather(x, b)
    c = ct.gather(y, b)
    v = ct.exp2(ct.truediv(a, c, flush_to_zero=True), flush_to_zero=True) + ct.mul(a, c, flush_to_zero=True)
    ct.scatter(o, b, v)


def _values(n: int) -> np.ndarray:
    """Subnormals, values whose sums, products, quotients and exp2 are subnormal, the smallest
    normals, zeros of both signs, infinities, NaN and ordinary numbers, shuffled."""
    rng = np.random.default_rng(8)
    tiny = float(np.finfo(np.float32).tiny)
    parts = [
        rng.uniform(-1, 1, n // 4) * tiny,                     # subnormals
        rng.uniform(-4, 4, n // 4) * tiny,                     # around the smallest normal
        rng.uniform(-1, 1, n // 8) * 2e-20,                    # products below tiny
        rng.uniform(-150, -120, n // 8),                       # exp2 of these is subnormal
        rng.standard_normal(n // 8),
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, 1e30, -1e30]),
    ]
    x = np.concatenate(parts).astype(np.float32)
    x = np.resize(x, n)
    rng.shuffle(x)
    return x


def _both(kernel, x, y, shape, grid):
    outs = []
    for engine in ("compiled", "numpy"):
        o = np.zeros(shape, x.dtype)
        with np.errstate(all="ignore"):
            run_kernel(grid, kernel, (x.copy(), y.copy(), o) + ((T,) if len(shape) == 2 else ()), engine=engine)
        outs.append(o)
    return outs


@pytest.mark.parametrize("kernel", [binary_ftz, unary_ftz], ids=lambda k: k.__name__)
def test_tiles_flush_as_the_executor_does(kernel):
    n = 8 * T
    x, y = _values(n), np.roll(_values(n), 37)
    got, want = _both(kernel, x, y, (n // T, 5 * T), (n // T,))
    assert got.tobytes() == want.tobytes()
    if kernel is binary_ftz:
        # the flush took effect: products of subnormal-scale values are zeros, not subnormals
        products = got[:, 2 * T:3 * T]
        assert not ((np.abs(products) < np.finfo(np.float32).tiny) & (products != 0)).any()
        assert (products == 0).sum() > n // 8


def test_scalars_flush_as_the_executor_does():
    n = 4096
    x, y = _values(n), np.roll(_values(n), 11)
    got, want = _both(scalar_ftz, x, y, (n,), (n,))
    assert got.tobytes() == want.tobytes()
