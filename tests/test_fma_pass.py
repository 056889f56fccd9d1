"""FMA contraction: IR shape (checked against upstream's CUTILEIR output) and single-rounding numerics."""
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import tilescope
from tilescope.backends.numpy.launcher import run_kernel
from tests import kernels_fma as K


def ops_of(kernel, sig):
    c = tilescope.compile(kernel, sig)
    return [(op.name, op.attrs.get("fn")) for op in c.final.walk() if op.name in ("binary", "unary", "fma")], c


# Upstream 1.7.0 (CUDA_TILE_LOGS=CUTILEIR) for the same kernels:
#   fma_forms:      fma(x,y,z); fma(x,y,z); neg(z), fma(x,y,-z); neg(x), fma(-x,y,z)
#   fma_two_uses:   mul and add stay separate
#   fma_chain:      mul(z,x); fma(x,y,·); fma(y,y,·)
#   fma_lhs_shared: both muls and the add stay (the lhs product has a second use; rhs not tried)
#   fma_rounding:   fma(rounding_mode=RZ) when both are RZ; mul RZ + add RN stay separate
#   fma_loop:       fma inside the loop body
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32", "f64"])
def test_forms(dtype):
    ops, c = ops_of(K.fma_forms, ", ".join([f"{dtype}[16]"] * 7))
    assert ops == [("fma", None), ("fma", None), ("unary", "neg"), ("fma", None), ("unary", "neg"), ("fma", None)]
    fmas = [op for op in c.final.walk() if op.name == "fma"]
    negs = [op for op in c.final.walk() if op.name == "unary"]
    assert fmas[2].operands[2] is negs[0].results[0]       # a*b - c -> fma(a, b, -c)
    assert fmas[3].operands[0] is negs[1].results[0]       # c - a*b -> fma(-a, b, c)


def test_product_with_two_uses_is_not_contracted():
    ops, _ = ops_of(K.fma_two_uses, "f32[16], f32[16], f32[16], f32[16], f32[16]")
    assert ops == [("binary", "mul"), ("binary", "add")]


def test_chain_and_lhs_priority():
    ops, _ = ops_of(K.fma_chain, "f32[16], f32[16], f32[16], f32[16]")
    assert ops == [("binary", "mul"), ("fma", None), ("fma", None)]
    ops, _ = ops_of(K.fma_lhs_shared, "f32[16], f32[16], f32[16], f32[16], f32[16]")
    assert ops == [("binary", "mul"), ("binary", "mul"), ("binary", "add")]


def test_rounding_modes_must_agree():
    ops, c = ops_of(K.fma_rounding, "f32[16], f32[16], f32[16], f32[16], f32[16]")
    assert ops == [("fma", None), ("binary", "mul"), ("binary", "add")]
    assert next(op for op in c.final.walk() if op.name == "fma").attrs["rounding_mode"].name == "RZ"


def test_inside_loop_and_integers_untouched():
    ops, _ = ops_of(K.fma_loop, "f32[16], f32[16], f32[16], f32[16]")
    assert ops == [("fma", None)]
    ops, _ = ops_of(K.fma_forms, ", ".join(["i32[16]"] * 7))
    assert ("fma", None) not in ops


def test_passes_stage_lists_fma():
    _, c = ops_of(K.fma_forms, ", ".join(["f32[16]"] * 7))
    assert [name for name, _ in c.stages][:3] == ["ir", "fma", "dce"]


def _exact(a, b, c):
    return Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))


def test_single_rounding_differs_from_mul_then_add_f32():
    # a*b = 1 + 2**-11 + 2**-24 exactly; the f32 mul rounds the 2**-24 away (tie to even).
    a = np.full(16, 1 + 2.0 ** -12, np.float32)
    b = np.full(16, 1 + 2.0 ** -12, np.float32)
    c = np.full(16, -1.0, np.float32)
    outs = [np.zeros(16, np.float32) for _ in range(4)]
    run_kernel((1,), K.fma_forms, (a, b, c, *outs))
    exact = _exact(a[0], b[0], c[0])
    assert outs[0][0] == np.float32(float(exact))            # 2**-11 + 2**-24, one rounding
    assert outs[0][0] != np.float32(a[0] * b[0]) + c[0]      # two roundings give 2**-11
    assert outs[2][0] == np.float32(float(_exact(a[0], b[0], -c[0])))   # fma(a, b, -c)
    assert outs[3][0] == np.float32(float(_exact(-a[0], b[0], c[0])))   # fma(-a, b, c)
    # compare to the float64 reference of the fused expression
    assert outs[0][0] == np.float32(np.float64(a[0]) * np.float64(b[0]) + np.float64(c[0]))


@pytest.mark.parametrize("dtype", [np.float16, np.dtype(ml_dtypes.bfloat16), np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_fma_numerics_random(dtype):
    rng = np.random.default_rng(3)
    n, t = 100, 16
    a, b, c = (rng.standard_normal(n).astype(dtype) for _ in range(3))
    a[:3], b[:3], c[:3] = [np.nan, np.inf, 0.0], [1.0, 0.0, -0.0], [1.0, 1.0, -0.0]
    runs = []
    for seq in (False, True):
        o = np.zeros(n, dtype)
        run_kernel((-(-n // t),), K.fma_blocks, (a, b, c, o, t), sequential=seq)
        runs.append(o)
    assert runs[0].tobytes() == runs[1].tobytes()
    got = runs[0]
    assert np.isnan(float(got[0])) and np.isnan(float(got[1]))
    for g, x, y, z in list(zip(got, a, b, c))[3:]:
        ex = _exact(x, y, z)
        if np.dtype(dtype) == np.float64:
            want = float(ex)
        else:
            # correctly rounded: nearest representable, ties to even
            want = np.array([float(ex)]).astype(np.float32)[0]
            if np.dtype(dtype) != np.float32:
                base = np.array([want]).astype(dtype)[0]
                nb = [base, np.nextafter(np.array([base]), np.array([np.inf], dtype))[0],
                      np.nextafter(np.array([base]), np.array([-np.inf], dtype))[0]]
                want = min(nb, key=lambda v: abs(Fraction(float(v)) - ex))
        assert float(g) == float(want)


def test_fma64_is_exact_even_for_hard_cases():
    from tilescope import dtypes as D
    from tilescope.semantics import numerics as N
    rng = np.random.default_rng(5)
    a = rng.standard_normal(2000) * 2.0 ** rng.integers(-60, 60, 2000)
    b = rng.standard_normal(2000)
    c = -a * b                                                   # cancellation: result is the product error
    a[:4] = [1e300, 1e-300, 3.0, 2.0 ** -1070]
    b[:4] = [1e10, 1e-20, 1e308, 3.0]
    c[:4] = [1.0, 0.0, -1e308, 2.0 ** -1074]
    got = N.fma(a, b, c, D.float64)
    for g, x, y, z in zip(got, a, b, c):
        ex = _exact(x, y, z)
        try:
            want = float(ex)
        except OverflowError:
            want = float("inf") if ex > 0 else float("-inf")
        assert g == want or (g == 0 and want == 0)
