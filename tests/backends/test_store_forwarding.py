"""Arithmetic computed straight into the array a store writes (backends/numpy/forwarding.py):
the same values as the ordinary path, bit for bit, and only where nothing can tell."""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import launcher
from tilescope.backends.numpy.forwarding import store_of, streams_only
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor
from tests.backends.test_fusion import three_ways


@ct.kernel
def add(a, b, c, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(c, index=(i,), tile=ct.load(a, index=(i,), shape=(T,)) + ct.load(b, index=(i,), shape=(T,)))


@ct.kernel
def add_in_place(a, T: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(a, index=(i,), shape=(T,))
    ct.store(a, index=(i,), tile=t + t)


@ct.kernel
def read_between(a, c, T: ct.Constant[int]):
    i = ct.bid(0)
    s = ct.load(a, index=(i,), shape=(T,)) * 2.0
    old = ct.load(c, index=(i,), shape=(T,))       # reads the destination before the store
    ct.store(c, index=(i,), tile=s)
    ct.store(a, index=(i,), tile=old)


def forwarded(kernel, args):
    fn = compile_kernel(kernel, args).final
    return [op.attrs["fn"] for op in fn.walk() if op.name == "binary" and store_of(fn, op) is not None]


def test_which_results_are_computed_in_place():
    f32 = MetaTensor((64,), "float32")
    assert forwarded(add, [f32, f32, f32, 16]) == ["add"]
    assert forwarded(add_in_place, [f32, 16]) == ["add"]
    assert forwarded(read_between, [f32, f32, 16]) == []


def test_same_bits_including_canonical_nans(tmp_path):
    a = np.array([np.inf, 1, -np.inf, 2] * 16, np.float32)
    b = np.array([-np.inf, 3, np.inf, 4] * 16, np.float32)
    c = three_ways(tmp_path, (4,), add, lambda: (a, b, np.zeros(64, np.float32), 16))[2]
    nan = np.isnan(a + b)
    assert (c.view(np.uint32)[nan] == np.uint32(0x7FFFFFFF)).all()
    assert np.array_equal(c[~nan], (a + b)[~nan])


def test_in_place_update_and_a_read_of_the_destination(tmp_path):
    a = np.arange(64, dtype=np.float32)
    out = three_ways(tmp_path, (4,), add_in_place, lambda: (a.copy(), 16))[0]
    assert np.array_equal(out, a + a)
    c0 = np.full(64, 7, np.float32)
    a2, c2 = three_ways(tmp_path, (4,), read_between, lambda: (a.copy(), c0.copy(), 16))[:2]
    assert np.array_equal(c2, a * 2) and np.array_equal(a2, c0)


@ct.kernel
def scale_shift(x, w, b, y, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,)) * ct.load(w, index=(0,), shape=(T,))
             + ct.load(b, index=(0,), shape=(T,)))


def test_fma_into_the_destination(tmp_path):
    f32 = MetaTensor((64,), "float32")
    fn = compile_kernel(scale_shift, [f32, f32, f32, f32, 16]).final
    fmas = [op for op in fn.walk() if op.name == "fma"]
    assert len(fmas) == 1 and store_of(fn, fmas[0]) is not None
    rng = np.random.default_rng(3)
    x = rng.standard_normal(1 << 18).astype(np.float32)          # large enough for sliced fma
    w, b = (rng.standard_normal(1024).astype(np.float32) for _ in range(2))
    y = three_ways(tmp_path, (256,), scale_shift, lambda: (x, w, b, np.zeros_like(x), 1024))[3]
    exact = x.astype(np.float64).reshape(256, 1024) * w + b       # within half an f32 ulp of fma
    assert np.all(np.abs(y.reshape(256, 1024) - exact) <= np.spacing(np.abs(exact).astype(np.float32)))


def test_nans_in_any_slice_of_a_large_destination_are_canonical(tmp_path):
    # 2^20 elements: the sum is computed and checked slice by slice; NaNs in the first and a
    # middle slice only, from a NaN with a payload (NumPy keeps it) and from inf - inf (NumPy
    # makes a negative NaN).
    n = 1 << 20
    a = np.ones(n, np.float32)
    b = np.ones(n, np.float32)
    a[5] = np.uint32(0x7FC01234).view(np.float32)
    a[n // 2], b[n // 2] = np.inf, -np.inf
    nan = np.zeros(n, bool)
    nan[[5, n // 2]] = True
    whole = np.zeros(n, np.float32)
    run_kernel((n // 1024,), add, (a, b, whole, 1024), group=n // 1024)       # one group, many slices
    for c in (three_ways(tmp_path, (n // 1024,), add, lambda: (a, b, np.zeros(n, np.float32), 1024))[2], whole):
        assert (c.view(np.uint32)[nan] == 0x7FFFFFFF).all()
        assert np.array_equal(c[~nan], np.full(n - 2, 2, np.float32))


@ct.kernel
def add_then_sum(a, b, c, s, T: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(a, index=(i,), shape=(T,)) + ct.load(b, index=(i,), shape=(T,))
    ct.store(c, index=(i,), tile=t)
    ct.store(s, index=(i,), tile=ct.sum(t))


@pytest.mark.numpy_executor
def test_streaming_kernels_run_in_larger_groups(monkeypatch):
    f32 = MetaTensor((64,), "float32")
    kernels = {"add": (add, [f32, f32, f32, 16]), "add_in_place": (add_in_place, [f32, 16]),
               "scale_shift": (scale_shift, [f32, f32, f32, f32, 16]),
               "read_between": (read_between, [f32, f32, 16]), "add_then_sum": (add_then_sum, [f32] * 4 + [16])}
    streaming = {name for name, (k, args) in kernels.items() if streams_only(compile_kernel(k, args).final)}
    # a result also read by a reduction, or a load read by something other than forwarded
    # arithmetic, is held whole
    assert streaming == {"add", "add_in_place", "scale_shift"}

    groups = []
    real = launcher.Executor
    monkeypatch.setattr(launcher, "Executor", lambda *a: groups.append(len(a[2])) or real(*a))

    def sizes(kernel, n, extra=()):
        groups.clear()
        a = np.ones(n, np.float32)
        run_kernel((-(-n // 1024),), kernel, (a, a, np.zeros(n, np.float32)) + extra + (1024,))
        return list(groups)

    n = 1 << 22
    assert sizes(add, n) == [n // 1024]                               # one group
    assert len(sizes(add_then_sum, n, (np.zeros(n // 1024, np.float32),))) > 1
    assert len(sizes(add, n - 5)) > 1              # a partial last tile: groups stay small (partial.py)


def test_a_ragged_streaming_kernel(tmp_path):
    # the last tile is partial: its group is read and written through a copy (partial.py)
    rng = np.random.default_rng(5)
    n = 100_003
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c = three_ways(tmp_path, (-(-n // 1024),), add, lambda: (a, b, np.zeros(n, np.float32), 1024))[2]
    assert np.array_equal(c, a + b)
