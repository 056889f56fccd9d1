"""Matrix products on the CPU executor against float64 / exact-integer references.

Every kernel also runs one block at a time; the vectorised run must agree bit for bit.
"""
import math

import ml_dtypes
import numpy as np
import pytest

from tilescope.backends.numpy.launcher import run_kernel
from tilescope.semantics.numerics import round_to_tf32
from tests.backends import kernels_matmul as K

BF16 = np.dtype(ml_dtypes.bfloat16)
E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
E5M2 = np.dtype(ml_dtypes.float8_e5m2)
E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
G, M, N, KD = 3, 16, 8, 64

# tiles.tile_view (np.lib.stride_tricks.as_strided) cannot view float8_e5m2 arrays (numpy reads
# ml_dtypes' '<f1' typestr), so loading an e5m2 tile fails before mma runs. Not this family's file.


def both_ways(grid, kernel, make_args):
    a1 = make_args()
    run_kernel(grid, kernel, a1, checks={"races": False})
    a2 = make_args()
    run_kernel(grid, kernel, a2, sequential=True, checks={"races": False})
    for x, y in zip(a1, a2):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x.view(np.uint8), y.view(np.uint8)), "vectorised != sequential"
    return a1


def eps(dt):
    return float(ml_dtypes.finfo(dt).eps)


def operands(dt, rng, k=KD):
    if np.dtype(dt).kind in "iu":
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, (G * M, k), endpoint=True).astype(dt)
        b = rng.integers(info.min, info.max, (G * k, N), endpoint=True).astype(dt)
    else:
        a = rng.uniform(-2, 2, (G * M, k)).astype(dt)
        b = rng.uniform(-2, 2, (G * k, N)).astype(dt)
    return a, b


def blockwise(a, b, k=KD):
    """Per-block float64 product and |a| @ |b| (the error scale)."""
    a3 = a.astype(np.float64).reshape(G, M, k)
    b3 = b.astype(np.float64).reshape(G, k, N)
    return (a3 @ b3).reshape(G * M, N), (np.abs(a3) @ np.abs(b3)).reshape(G * M, N)


def chunked_ref(a, b, acc, step, out_dt):
    """Independent model of tensor-core accumulation: exact sum of each `step`-deep slice of K
    (math.fsum), added to the accumulator and rounded to out_dt once per slice."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    out = np.empty(acc.shape, out_dt)
    for i in range(acc.shape[0]):
        for j in range(acc.shape[1]):
            s = float(acc[i, j])
            for k0 in range(0, a.shape[1], step):
                terms = [s] + [a64[i, k] * b64[k, j] for k in range(k0, min(k0 + step, a.shape[1]))]
                s = float(np.asarray(math.fsum(terms)).astype(out_dt))
            out[i, j] = s
    return out


# ---- `@` (matmul): promoted operands, result in their dtype ---------------------------------

@pytest.mark.parametrize("dt,rel", [(np.float16, None), (BF16, None), (np.float32, 1e-6), (np.float64, 1e-15)],
                         ids=str)
def test_matmul_float(dt, rel):
    dt = np.dtype(dt)
    a, b = operands(dt, np.random.default_rng(1))
    c = both_ways((G,), K.matmul_tile, lambda: (a, b, np.zeros((G * M, N), dt), M, N, KD))[2]
    ref, scale = blockwise(a, b)
    if dt == np.float16:     # f16 accumulation: one rounding per 16-deep K step
        tol = scale * eps(dt) * (KD // 16 + 1)
    elif dt == BF16:         # f32 accumulation, then one rounding to bf16
        tol = scale * 1e-6 + np.abs(ref) * eps(dt)
    else:
        tol = scale * rel
    assert np.all(np.abs(c.astype(np.float64) - ref) <= tol)


def test_matmul_f16_accumulates_in_f16_per_k_step():
    a, b = operands(np.float16, np.random.default_rng(2))
    c = both_ways((G,), K.matmul_tile, lambda: (a, b, np.zeros((G * M, N), np.float16), M, N, KD))[2]
    for g in range(G):
        ref = chunked_ref(a[g * M:(g + 1) * M], b[g * KD:(g + 1) * KD], np.zeros((M, N)), 16, np.float16)
        assert np.array_equal(c[g * M:(g + 1) * M], ref)


@pytest.mark.parametrize("dt", [np.int8, np.uint8], ids=str)
def test_matmul_int_result_wraps_to_operand_dtype(dt):
    a, b = operands(dt, np.random.default_rng(3))
    c = both_ways((G,), K.matmul_tile, lambda: (a, b, np.zeros((G * M, N), dt), M, N, KD))[2]
    ref = (a.astype(np.int64).reshape(G, M, KD) @ b.astype(np.int64).reshape(G, KD, N)).reshape(G * M, N)
    assert np.array_equal(c, ref.astype(np.int32).astype(dt))


# ---- mma: explicit accumulators ---------------------------------------------------------------

@pytest.mark.parametrize("in_dt,acc_dt,step", [
    (np.float16, np.float16, 16), (np.float16, np.float32, 16), (BF16, np.float32, 16),
    (E4M3, np.float32, 32), (E5M2, np.float32, 32), (E4M3, np.float16, 32),
    (E5M2, np.float16, 32),
], ids=str)
def test_mma_low_precision_inputs(in_dt, acc_dt, step):
    rng = np.random.default_rng(4)
    a, b = operands(in_dt, rng)
    acc = rng.uniform(-8, 8, (G * M, N)).astype(acc_dt)
    c = both_ways((G,), K.mma_tile, lambda: (a, b, acc, np.zeros((G * M, N), acc_dt), M, N, KD, False))[3]
    ref, scale = blockwise(a, b)
    tol = (scale + np.abs(acc)) * eps(acc_dt) * (KD // step + 1)
    assert np.all(np.abs(c.astype(np.float64) - (ref + acc.astype(np.float64))) <= tol)
    if acc_dt == np.float16:
        # An f16 accumulator is rounded to f16 after every K step, exactly as this model does.
        for g in range(G):
            rows = slice(g * M, (g + 1) * M)
            exact = chunked_ref(a[rows], b[g * KD:(g + 1) * KD], acc[rows].astype(np.float64), step, acc_dt)
            assert np.array_equal(c[rows], exact)


def test_mma_f32_is_f32_accurate():
    rng = np.random.default_rng(5)
    a, b = operands(np.float32, rng)
    acc = rng.uniform(-8, 8, (G * M, N)).astype(np.float32)
    c = both_ways((G,), K.mma_tile, lambda: (a, b, acc, np.zeros_like(acc), M, N, KD, False))[3]
    ref, scale = blockwise(a, b)
    # float32-accurate: within float32 rounding of each of the K additions (not tf32, not f16).
    assert np.all(np.abs(c - (ref + acc)) <= (scale + np.abs(acc)) * eps(np.float32) * (KD + 1))
    assert np.abs(c - (ref + acc)).max() < 1e-4


def test_mma_tf32_rounds_inputs_first():
    rng = np.random.default_rng(6)
    a, b = operands(np.float32, rng)
    acc = np.zeros((G * M, N), np.float32)
    c = both_ways((G,), K.mma_tile, lambda: (a, b, acc, np.zeros_like(acc), M, N, KD, True))[3]
    ref_tf32, _ = blockwise(round_to_tf32(a), round_to_tf32(b))
    ref, scale = blockwise(a, b)
    assert np.all(np.abs(c - ref_tf32) <= (scale + np.abs(ref_tf32)) * eps(np.float32) * (KD + 1))
    assert np.all(np.abs(c - ref) <= scale * 2.0 ** -10)          # tf32 accuracy vs the float32 inputs
    assert not np.array_equal(c, (ref + acc).astype(np.float32))   # and it is not plain float32


def test_mma_f64():
    rng = np.random.default_rng(7)
    a, b = operands(np.float64, rng)
    acc = rng.uniform(-8, 8, (G * M, N))
    c = both_ways((G,), K.mma_tile, lambda: (a, b, acc, np.zeros_like(acc), M, N, KD, False))[3]
    ref, scale = blockwise(a, b)
    assert np.all(np.abs(c - (ref + acc)) <= (scale + np.abs(acc)) * 1e-15)


@pytest.mark.parametrize("xdt,ydt", [(np.int8, np.int8), (np.uint8, np.uint8), (np.int8, np.uint8),
                                     (np.uint8, np.int8)], ids=str)
def test_mma_int8_exact_int32_wrapping(xdt, ydt):
    rng = np.random.default_rng(8)
    a, _ = operands(xdt, rng)
    _, b = operands(ydt, rng)
    acc = rng.integers(-2 ** 31, 2 ** 31 - 1, (G * M, N), endpoint=True).astype(np.int32)
    acc[:4] = np.int32(2 ** 31 - 5)                                # wraps when the product is positive
    c = both_ways((G,), K.mma_tile, lambda: (a, b, acc, np.zeros_like(acc), M, N, KD, False))[3]
    prod = (a.astype(np.int64).reshape(G, M, KD) @ b.astype(np.int64).reshape(G, KD, N)).reshape(G * M, N)
    ref = ((prod + acc.astype(np.int64) + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)
    assert np.array_equal(c, ref)


# ---- batches, 1-d operands, tiled kernel ------------------------------------------------------

@pytest.mark.parametrize("ba,bb", [(2, 2), (1, 4), (4, 1)])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=str)
def test_batch_matmul_broadcasts(ba, bb, dt):
    rng = np.random.default_rng(9)
    nb = max(ba, bb)
    a = rng.uniform(-1, 1, (G * ba, M, 32)).astype(dt)
    b = rng.uniform(-1, 1, (G * bb, 32, N)).astype(dt)
    c = both_ways((G,), K.batch_matmul, lambda: (a, b, np.zeros((G * nb, M, N), dt), ba, bb, M, N, 32))[2]
    ref = np.matmul(a.astype(np.float64).reshape(G, ba, M, 32), b.astype(np.float64).reshape(G, bb, 32, N))
    tol = 1e-5 if dt == np.float32 else 1e-2
    assert np.allclose(c.reshape(G, nb, M, N), ref, atol=tol, rtol=tol)


def test_matvec():
    rng = np.random.default_rng(10)
    a = rng.uniform(-1, 1, (G * M, 32)).astype(np.float32)
    v = rng.uniform(-1, 1, 32).astype(np.float32)
    c = both_ways((G,), K.matvec, lambda: (a, v, np.zeros(G * M, np.float32), M, 32))[2]
    assert np.allclose(c, a.astype(np.float64) @ v, atol=1e-5)


@pytest.mark.parametrize("dt", [np.float16, BF16, np.float32], ids=str)
def test_tiled_matmul_2d_grid(dt):
    rng = np.random.default_rng(11)
    a = rng.uniform(-1, 1, (256, 256)).astype(dt)
    b = rng.uniform(-1, 1, (256, 256)).astype(dt)
    c = both_ways((4, 4), K.tiled_matmul, lambda: (a, b, np.zeros((256, 256), np.float32), 64, 64, 32, 8))[2]
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    assert np.all(np.abs(c - ref) <= scale * eps(np.float32) * 32)
    assert np.allclose(c, np.matmul(a.astype(np.float32), b.astype(np.float32)), atol=1e-4)


def test_tiled_matmul_ragged_edges():
    rng = np.random.default_rng(12)
    a = rng.uniform(-1, 1, (200, 72)).astype(np.float16)
    b = rng.uniform(-1, 1, (72, 130)).astype(np.float16)
    c = both_ways((4, 3), K.tiled_matmul, lambda: (a, b, np.zeros((200, 130), np.float32), 64, 64, 32, 3))[2]
    assert np.allclose(c, a.astype(np.float64) @ b.astype(np.float64), atol=1e-4)


# ---- mma_scaled -----------------------------------------------------------------------------

@pytest.mark.parametrize("in_dt", [E4M3, E5M2], ids=str)
def test_mma_scaled_fp8(in_dt):
    rng = np.random.default_rng(13)
    k, ks = 64, 2                                   # block size 32
    a = rng.uniform(-4, 4, (G * M, k)).astype(in_dt)
    b = rng.uniform(-4, 4, (G * k, N)).astype(in_dt)
    sa = np.exp2(rng.integers(-3, 4, (G * M, ks))).astype(E8M0)
    sb = np.exp2(rng.integers(-3, 4, (G * ks, N))).astype(E8M0)
    c = both_ways((G,), K.mma_scaled_tile, lambda: (a, sa, b, sb, np.zeros((G * M, N), np.float32),
                                                    M, N, k, ks))[4]
    for g in range(G):
        x = a[g * M:(g + 1) * M].astype(np.float64) * np.repeat(sa[g * M:(g + 1) * M].astype(np.float64), 32, 1)
        y = b[g * k:(g + 1) * k].astype(np.float64) * np.repeat(sb[g * ks:(g + 1) * ks].astype(np.float64), 32, 0)
        ref = x @ y
        assert np.all(np.abs(c[g * M:(g + 1) * M] - ref) <= (np.abs(x) @ np.abs(y)) * eps(np.float32))
