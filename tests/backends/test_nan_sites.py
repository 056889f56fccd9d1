"""NaNs from arithmetic are the GPU's canonical NaN wherever their bits can be seen, even when
the executor skips the rewrite between arithmetic ops (backends/numpy/nans.py)."""
import numpy as np

import cuda.tile as ct
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.backends.numpy.nans import canonical_sites
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor

CANONICAL = np.uint32(0x7FFFFFFF)


@ct.kernel
def chain(x, y, z, w):
    t = ct.load(x, index=(0,), shape=(8,))
    d = t - t                      # inf - inf: NaN from arithmetic
    e = (d * 2.0) / 4.0            # the product is read only by arithmetic: no rewrite there
    ct.store(y, index=(0,), tile=e)
    ct.store(z, index=(0,), tile=-d)          # the sign flip sees the bits
    ct.store(w, index=(0,), tile=ct.where(e < 0.0, t, e))


def test_bits_seen_only_where_they_matter():
    x = np.array([np.inf, -np.inf, 1, 2, np.inf, 3, 4, -np.inf], np.float32)
    y, z, w = (np.zeros(8, np.float32) for _ in range(3))
    run_kernel((1,), chain, (x, y, z, w))
    nan = np.isnan(x - x)
    assert (y.view(np.uint32)[nan] == CANONICAL).all()
    assert (z.view(np.uint32)[nan] == np.uint32(0xFFFFFFFF)).all()   # -(canonical NaN)
    assert (w.view(np.uint32)[nan] == CANONICAL).all()
    assert not y[~nan].any()


def test_sites_are_the_results_something_non_arithmetic_reads():
    f32 = MetaTensor((8,), "float32")
    fn = compile_kernel(chain, [f32, f32, f32, f32]).final
    sites = canonical_sites(fn)
    named = {op.results[0].name or op.attrs.get("fn"): id(op) in sites for op in fn.walk() if op.name == "binary"}
    assert named == {"d": True, "mul": False, "e": True}   # d: negated; e: stored and selected


@ct.kernel
def carried(x, y, z):
    s = ct.zeros((8,), dtype=ct.float32)
    kept = ct.zeros((8,), dtype=ct.float32)
    for i in range(3):
        t = ct.load(x, index=(i,), shape=(8,))
        s = s + t                          # carried, then only reduced: no rewrite needed
        kept = kept * t                    # carried, then stored: its bits are seen
    ct.store(y, index=(0,), tile=ct.sum(s, axis=0, keepdims=True) + ct.zeros((8,), dtype=ct.float32))
    ct.store(z, index=(0,), tile=kept)


def test_values_carried_by_loops_count_as_read_where_they_end_up():
    f32 = MetaTensor((24,), "float32")
    fn = compile_kernel(carried, [f32, MetaTensor((8,), "float32"), MetaTensor((8,), "float32")]).final
    sites = canonical_sites(fn)
    inner = {op.attrs["fn"]: id(op) in sites for op in fn.walk() if op.name == "binary" and op.results[0].name}
    assert inner == {"add": False, "mul": True}
    x = np.full(24, np.inf, np.float32)
    x[8:16] = -np.inf                      # s: inf + -inf = NaN; kept: 0 * inf = NaN
    y, z = np.zeros(8, np.float32), np.zeros(8, np.float32)
    run_kernel((1,), carried, (x, y, z))
    assert (y.view(np.uint32) == CANONICAL).all() and (z.view(np.uint32) == CANONICAL).all()


@ct.kernel
def moved(x, y, z):
    t = ct.load(x, index=(0,), shape=(8,))
    d = t - t                                          # NaN where t is infinite
    kept = ct.where(t > 0.0, d, 1.0).reshape((2, 4))   # selected and reshaped, then only summed
    ct.store(y, index=(0, 0), tile=(t * t).reshape((2, 4)))     # reshaped, then stored: bits seen
    ct.store(z, index=(0,), tile=ct.sum(kept, axis=1) + 1.0)


def test_values_selected_or_reshaped_count_as_read_where_they_end_up():
    fn = compile_kernel(moved, [MetaTensor((8,), "float32"), MetaTensor((2, 4), "float32"),
                                MetaTensor((2,), "float32")]).final
    sites = canonical_sites(fn)
    binaries = {op.results[0].name or op.attrs["fn"]: id(op) in sites for op in fn.walk() if op.name == "binary"}
    assert binaries["d"] is False and binaries["mul"] is True
    x = np.array([np.inf, 1, -np.inf, 2, np.inf, 3, 4, 5], np.float32)
    y, z = np.zeros((2, 4), np.float32), np.zeros(2, np.float32)
    run_kernel((1,), moved, (x, y, z))
    assert np.isnan(z[0]) and z.view(np.uint32)[0] == CANONICAL
    assert np.array_equal(y.reshape(-1), x * x)
