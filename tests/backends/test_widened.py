"""float16 tiles read only by `mma` kept in float32 (widened.py, numerics.f16_values), and
loop-invariant mma operands converted once (fusion.invariant_operands, Executor.once)."""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import debugger, fusion, widened
from tilescope.semantics import numerics, products
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor
from tests.backends.test_fusion import three_ways


def _f32_patterns():
    rng = np.random.default_rng(0)
    edges = [0x33000000, 0x33800000, 0x38800000, 0x387FC000, 0x477FE000, 0x477FF000, 0x7F7FFFFF]
    bits = np.concatenate([rng.integers(0, 2 ** 32, 2_000_000, dtype=np.uint64).astype(np.uint32)]
                          + [np.arange(e - 5000, e + 5000, dtype=np.uint32) for e in edges]
                          + [np.array([0, 1, 0x7F800000, 0x7FC00000, 0x7F800001], np.uint32)])
    return np.concatenate([bits, bits | np.uint32(0x80000000)]).view(np.float32)


def test_f16_values_round_like_numpy():
    """Ties to even, subnormals, overflow to inf at 65520, signed zeros, NaN, inf."""
    x = _f32_patterns()
    with np.errstate(all="ignore"):
        want = x.astype(np.float16).astype(np.float32)
        got = numerics.f16_values(x)
    same = (want.view(np.uint32) == got.view(np.uint32)) | (np.isnan(want) & np.isnan(got))
    assert same.all(), x[~same][:5]
    halves = ((np.arange(2048) + 0.5) * 2.0 ** -24).astype(np.float32)      # exact ties between subnormals
    assert np.array_equal(numerics.f16_values(halves), halves.astype(np.float16).astype(np.float32))


@ct.kernel
def half_product(a, b, c, d):
    p = ct.load(a, index=(0, 0), shape=(16, 16)) * 2.0
    q = p.astype(ct.float16)
    ct.store(c, index=(0, 0), tile=ct.mma(q, ct.load(b, index=(0, 0), shape=(16, 16)),
                                          ct.zeros((16, 16), dtype=ct.float32)))
    ct.store(d, index=(0, 0), tile=(p * 3.0).astype(ct.float16))


@ct.kernel
def half_stored(a, b, c, d):
    q = (ct.load(a, index=(0, 0), shape=(16, 16)) * 2.0).astype(ct.float16)
    ct.store(c, index=(0, 0), tile=ct.mma(q, ct.load(b, index=(0, 0), shape=(16, 16)),
                                          ct.zeros((16, 16), dtype=ct.float32)))
    ct.store(d, index=(0, 0), tile=q)


def _sites(kernel):
    f32, f16 = MetaTensor((16, 16), "float32"), MetaTensor((16, 16), "float16")
    fn = compile_kernel(kernel, [f32, f16, f32, f16]).final
    return [o.results[0].type.dtype.name for o in fn.walk() if id(o) in widened.sites(fn)]


def test_only_astypes_read_by_mma_alone_are_widened():
    assert _sites(half_product) == ["float16"]           # q; not the stored (p * 3).astype
    assert _sites(half_stored) == []                     # q is stored too: a real float16 array


@pytest.mark.parametrize("kernel", [half_product, half_stored])
def test_results_equal_the_float16_path(tmp_path, kernel):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((16, 16)) * 3e4).astype(np.float32)     # some products overflow f16
    b = rng.standard_normal((16, 16)).astype(np.float16)
    c, d = three_ways(tmp_path, (1,), kernel, lambda: (a, b, np.zeros((16, 16), np.float32),
                                                       np.zeros((16, 16), np.float16)))[2:]
    q = (a * np.float32(2)).astype(np.float16).astype(np.float64)
    with np.errstate(all="ignore"):
        want = (q @ b.astype(np.float64)).astype(np.float32)
    assert np.array_equal(c, want, equal_nan=True)


@ct.kernel
def break_on_half(a, b, c):
    q = (ct.load(a, index=(0, 0), shape=(16, 16)) * 2.0).astype(ct.float16)
    breakpoint()
    ct.store(c, index=(0, 0), tile=ct.mma(q, ct.load(b, index=(0, 0), shape=(16, 16)),
                                          ct.zeros((16, 16), dtype=ct.float32)))


def test_debugger_shows_the_declared_dtype():
    seen = []
    previous = debugger.set_interact(lambda ns, banner: seen.append(ns))
    try:
        a = np.random.default_rng(2).standard_normal((16, 16)).astype(np.float32)
        run_kernel((1,), break_on_half, (a, np.ones((16, 16), np.float16), np.zeros((16, 16), np.float32)))
    finally:
        debugger.set_interact(previous)
    assert seen[0]["q"].dtype == np.float16
    assert np.array_equal(seen[0]["q"], (a * 2).astype(np.float16))


@ct.kernel
def query_times_keys(q, k, o, TQ: ct.Constant[int], TK: ct.Constant[int]):
    tq = ct.load(q, index=(ct.bid(0), 0), shape=(TQ, 32))
    acc = ct.zeros((TQ, 32), dtype=ct.float32)
    for j in range(ct.num_tiles(k, axis=0, shape=(TK, 32))):
        s = ct.mma(tq, ct.transpose(ct.load(k, index=(j, 0), shape=(TK, 32))), ct.zeros((TQ, TK), dtype=ct.float32))
        acc = ct.mma(s.astype(ct.float16), ct.load(k, index=(j, 0), shape=(TK, 32)), acc * 0.5)
    ct.store(o, index=(ct.bid(0), 0), tile=acc)


@pytest.mark.numpy_executor
def test_loop_invariant_operand_is_converted_once(tmp_path, monkeypatch):
    f16 = MetaTensor((64, 32), "float16")
    fn = compile_kernel(query_times_keys, [f16, f16, MetaTensor((64, 32), "float32"), 8, 16]).final
    loads = {o.results[0].id for o in fn.body.ops if o.name == "load_tile"}
    assert fusion.invariant_operands(fn) == loads             # tq only (the loop's loads vary)
    rng = np.random.default_rng(3)
    q, k = (rng.uniform(-1, 1, (64, 32)).astype(np.float16) for _ in range(2))
    converted = []
    real = products.mma_operand
    monkeypatch.setattr(products, "mma_operand",
                        lambda x, dt, w: converted.append((x.dtype.name, x.shape[-2:])) or real(x, dt, w))
    run_kernel((8,), query_times_keys, (q, k, np.zeros((64, 32), np.float32), 8, 16), sequential=True)
    monkeypatch.setattr(products, "mma_operand", real)
    assert converted.count(("float16", (8, 32))) == 8         # tq: once per block, not once per iteration
    o = three_ways(tmp_path, (8,), query_times_keys, lambda: (q, k, np.zeros((64, 32), np.float32), 8, 16))[2]
    q64, k64 = q.astype(np.float64), k.astype(np.float64)
    acc = np.zeros((64, 32))
    for j in range(4):
        kj = k64[16 * j:16 * j + 16]
        s = (q64 @ kj.T).astype(np.float32).astype(np.float16).astype(np.float64)
        acc = s @ kj + (acc.astype(np.float32) * np.float32(0.5)).astype(np.float64)
    assert np.allclose(o, acc, rtol=1e-5, atol=1e-6)
