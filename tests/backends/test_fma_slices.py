"""float32 fma on arrays large enough to be computed in cache-sized slices: still the correctly
rounded fma of every element (checked against the exact pair arithmetic), whatever the shapes."""
import numpy as np
import pytest

from tilescope import dtypes as D
from tilescope.semantics import numerics as N


@pytest.fixture(autouse=True)
def small_slices(monkeypatch):
    """Slices of 16K elements, so that arrays of a few hundred thousand take the sliced path."""
    monkeypatch.setattr(N, "_SLICE_ELEMENTS", 1 << 14)


def exact_fma32(a, b, c):
    hi, lo = N.two_sum(a.astype(np.float64) * b, np.broadcast_to(c, np.broadcast_shapes(a.shape, b.shape,
                                                                                       c.shape)).astype(np.float64))
    return N.round_pair(hi, np.where(np.isfinite(hi), lo, 0.0), D.float32, N.RN)


@pytest.mark.parametrize("shapes", [((3000, 1, 64), (3000, 1, 64), (1, 1, 64)),
                                    ((140000,), (140000,), (1,)),
                                    ((5, 40000), (1, 40000), (5, 40000))], ids=["rows", "flat", "broadcast"])
def test_sliced_fma_is_exact(shapes):
    rng = np.random.default_rng(7)
    sa, sb, sc = shapes
    a = (rng.standard_normal(sa) * 2.0 ** rng.integers(-70, 10, sa)).astype(np.float32)
    b = (rng.standard_normal(sb) * 2.0 ** rng.integers(-70, 10, sb)).astype(np.float32)
    c = rng.standard_normal(sc).astype(np.float32) * np.float32(1e-30)
    c.reshape(-1)[::3] = 0
    got = N.fma(a, b, c, D.float32)
    want = exact_fma32(a, b, c)
    assert got.shape == want.shape
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    assert np.prod(got.shape) > 2 * N._SLICE_ELEMENTS      # the sliced path ran


@pytest.mark.numpy_executor
def test_double_rounding_through_float64_is_avoided():
    """a*b + c = 1 + 2**-24 + 2**-64: float64 rounds it onto the float32 halfway point 1 + 2**-24,
    which would round to even (1.0); the fma's true result is 1 + 2**-23. Exact halfway sums
    (1 + 2**-24 itself) do round to even."""
    a = np.float32(2.0 ** -12 * (1 + 2.0 ** -20))
    b = np.float32(-(2.0 ** -12) * (1 - 2.0 ** -20))
    c = np.float32(1 + 2.0 ** -23)
    for n in (5, 3 * N._SLICE_ELEMENTS):                      # one slice, and the sliced path
        aa, bb, cc = np.full(n, a), np.full(n, b), np.full(n, c)
        aa[1::2], bb[1::2], cc[1::2] = np.float32(2.0 ** -24), np.float32(1.0), np.float32(1.0)
        got = N.fma(aa, bb, cc, D.float32)
        assert (got[0::2] == np.float32(1 + 2.0 ** -23)).all()
        assert (got[1::2] == np.float32(1.0)).all()


@pytest.mark.parametrize("n", [4096, 3 * (1 << 14)], ids=["one-slice", "sliced"])
def test_zeros_among_tiny_results_stay_exact(n):
    """Mostly-zero operands (the padding of a wide tile) next to results below float32's
    smallest normal: exact zeros keep their sign and skip the exact re-computation, results that
    round into or below the subnormal range are still rounded correctly."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal(n).astype(np.float32)
    b = (rng.standard_normal(n) * 2.0 ** -70).astype(np.float32)
    c = (rng.standard_normal(n) * 2.0 ** -140).astype(np.float32)
    a[n // 8:], c[n // 8:] = 0, 0                        # the padded part
    a[n // 8::7], c[n // 8::7] = np.float32(-0.0), np.float32(-0.0)
    got = N.fma(a, b, c, D.float32)
    want = exact_fma32(a, b, c)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    assert (got[:n // 8] != 0).sum() > n // 16           # the tiny results are there
    assert np.signbit(got[n // 8::7]).any()              # and so are negative zeros
