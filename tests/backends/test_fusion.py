"""Matrix products: operands kept once per grid row/column (grid.py) and `for` loops that
only accumulate `mma`s run as one product per chunk of K (fusion.py).

Every run is compared three ways, bit for bit: vectorised, one block at a time, and through
the transpiled module; values against float64 references.
"""
import itertools

import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import fusion, grid
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor
from tests.backends import kernels_matmul as K
from tests.backends.test_transpile import check_same

F32_EPS = float(np.finfo(np.float32).eps)


def three_ways(tmp_path, grid3, kernel, make_args):
    vec, seq = make_args(), make_args()
    run_kernel(grid3, kernel, vec, checks={"races": False})
    run_kernel(grid3, kernel, seq, sequential=True, checks={"races": False})
    for x, y in zip(vec, seq):
        if isinstance(x, np.ndarray):
            assert np.array_equal(np.atleast_1d(x).view(np.uint8), np.atleast_1d(y).view(np.uint8)), \
                "vectorised != one block at a time"
    check_same(tmp_path, kernel, grid3, make_args)
    return vec


def within_f32(c, a, b, k_terms):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    bound = (np.abs(a64) @ np.abs(b64)) * F32_EPS * k_terms
    assert np.all(np.abs(c - a64 @ b64) <= bound)


# ---- shared tiles ----------------------------------------------------------------------------

def test_index_axes_finds_shared_tiles():
    box = (1, 2, 3)                          # 6 blocks: x fastest
    bx = np.array([0, 1, 2, 0, 1, 2])
    by = np.array([0, 0, 0, 1, 1, 1])
    sub = grid.index_axes([bx, np.array([7])], box)
    assert [s.shape for s in sub] == [(1, 1, 3), (1, 1, 3)]
    assert sub[0].reshape(-1).tolist() == [0, 1, 2] and sub[1].reshape(-1).tolist() == [7, 7, 7]
    assert grid.index_axes([bx, by], box) is None          # every block distinct: nothing shared


# ---- which loops are joined -------------------------------------------------------------------

@ct.kernel
def counted(a, b, c, n, TK: ct.Constant[int]):
    acc = ct.zeros((16, 16), dtype=ct.float32)
    steps = 0
    for k in range(n):
        acc = ct.mma(ct.load(a, index=(0, k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
        steps += 1
    ct.store(c, index=(0, 0), tile=acc + steps)


@ct.kernel
def storing(a, b, c, n, TK: ct.Constant[int]):
    acc = ct.zeros((16, 16), dtype=ct.float32)
    for k in range(n):
        x = ct.load(a, index=(0, k), shape=(16, TK))
        acc = ct.mma(x, ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
        ct.store(c, index=(0, 0), tile=acc)


@ct.kernel
def after_return(a, b, c, TK: ct.Constant[int]):
    i = ct.bid(0)
    if i == 3:
        return
    acc = ct.zeros((16, 16), dtype=ct.float32)
    for k in range(4):
        acc = ct.mma(ct.load(a, index=(i, k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(i, 0), tile=acc)


@ct.kernel
def half_acc(a, b, c, n, TK: ct.Constant[int]):
    acc = ct.zeros((16, 16), dtype=ct.float16)
    for k in range(n):
        acc = ct.mma(ct.load(a, index=(0, k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(0, 0), tile=acc)


# ---- results -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", [np.float16, np.float32], ids=str)
def test_chunks_of_k(tmp_path, dt):
    """K = 1536 in tiles of 64: 24 iterations joined 8 at a time (FUSED_K = 512)."""
    assert fusion.FUSED_K == 512
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (128, 1536)).astype(dt)
    b = rng.uniform(-1, 1, (1536, 96)).astype(dt)
    c = three_ways(tmp_path, (4, 3), K.tiled_matmul,
                   lambda: (a, b, np.zeros((128, 96), np.float32), 32, 32, 64, 24))[2]
    within_f32(c, a, b, 3 * 512)
    # Rounded once per chunk: each block's tile is three products over 512-deep slices (float32
    # BLAS for float32 inputs, float64 sums of the exact f16 products), each added and rounded.
    width = np.float32 if dt is np.float32 else np.float64
    for i, j in itertools.product(range(4), range(3)):
        rows, cols = slice(32 * i, 32 * i + 32), slice(32 * j, 32 * j + 32)
        want = np.zeros((32, 32), np.float32)
        for s in range(0, 1536, 512):
            part = a[rows, s:s + 512].astype(width) @ b[s:s + 512, cols].astype(width)
            want = (want.astype(width) + part).astype(np.float32)
        assert np.array_equal(c[rows, cols], want)


@ct.kernel
def ragged_trip(a, b, c, TK: ct.Constant[int]):
    """Block i accumulates i + 1 K tiles: bounds differ per block, so products are not joined."""
    i = ct.bid(0)
    acc = ct.zeros((16, 16), dtype=ct.float32)
    for k in range(i + 1):
        acc = ct.mma(ct.load(a, index=(i, k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(i, 0), tile=acc)


def test_bounds_that_differ_per_block(tmp_path):
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, (64, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, 16)).astype(np.float16)
    c = three_ways(tmp_path, (4,), ragged_trip, lambda: (a, b, np.zeros((64, 16), np.float32), 16))[2]
    for i in range(4):
        within_f32(c[16 * i:16 * (i + 1)], a[16 * i:16 * (i + 1), :16 * (i + 1)], b[:16 * (i + 1)], 64)


@ct.kernel
def masked_loop(a, b, c, TK: ct.Constant[int]):
    """The loop runs only for even blocks (masked in a vectorised run)."""
    i = ct.bid(0)
    acc = ct.zeros((16, 16), dtype=ct.float32)
    if i % 2 == 0:
        for k in range(4):
            acc = ct.mma(ct.load(a, index=(i, k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(i, 0), tile=acc)


def test_loop_under_a_divergent_branch(tmp_path):
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (64, 64)).astype(np.float32)
    b = rng.uniform(-1, 1, (64, 16)).astype(np.float32)
    c = three_ways(tmp_path, (4,), masked_loop, lambda: (a, b, np.zeros((64, 16), np.float32), 16))[2]
    for i in range(4):
        rows = c[16 * i:16 * (i + 1)]
        if i % 2:
            assert not rows.any()
        else:
            within_f32(rows, a[16 * i:16 * (i + 1)], b, 64)


def test_shared_operands_on_a_3d_grid(tmp_path):
    """Batch matmul: A tiles shared along the grid's y axis, B tiles along x, batch on z."""
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (3, 64, 96)).astype(np.float16)
    b = rng.uniform(-1, 1, (3, 96, 48)).astype(np.float16)
    from tilescope.lang.shim import load_file
    import os
    mm = load_file(os.path.join(os.path.dirname(__file__), "..", "..", "examples", "matmul.py"))
    c = three_ways(tmp_path, (4, 3, 3), mm.batch_matmul,
                   lambda: (a, b, np.zeros((3, 64, 48), np.float32), 16, 16, 32))[2]
    for z in range(3):
        within_f32(c[z], a[z], b[z], 96)


def joined(kernel, args):
    """For each `for` loop of the kernel (in order): the names of the ops joined, or None."""
    fn = compile_kernel(kernel, args).final
    return [None if (c := fusion.fused_mmas(fn, op)) is None else [o.name for o in c]
            for op in fn.walk() if op.name == "for"]


def test_only_pure_accumulating_loops_are_joined():
    f16 = MetaTensor((64, 64), "float16")
    f32 = MetaTensor((64, 16), "float32")
    assert joined(K.tiled_matmul, [f16, f16, f32, 16, 16, 16, 4]) == [["mma"]]
    args = [f16, f16, f32, 4, 16]
    assert joined(counted, args) == [None]             # carries a counter too
    assert joined(storing, args) == [None]             # stores in the body
    assert joined(half_acc, [f16, f16, MetaTensor((64, 16), "float16"), 4, 16]) == [None]
    assert joined(ragged_trip, [f16, f16, f32, 16]) == [None]     # bounds depend on the block
    assert joined(masked_loop, [f16, f16, f32, 16]) == [None]     # inside a branch
    assert joined(after_return, [f16, f16, f32, 16]) == [None]    # some blocks returned before it


def test_after_an_early_return(tmp_path):
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (64, 64)).astype(np.float32)
    b = rng.uniform(-1, 1, (64, 16)).astype(np.float32)
    c = three_ways(tmp_path, (4,), after_return, lambda: (a, b, np.zeros((64, 16), np.float32), 16))[2]
    assert not c[48:].any()
    within_f32(c[:48], a[:48], b, 64)


@ct.kernel
def matmul_acc_like_c(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    """The accumulator has c's dtype (int32 for int8 inputs, float32 otherwise)."""
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=c.dtype)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        x = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(bm, bn), tile=acc)


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float32", "float8_e4m3fn", "int8"])
def test_joined_products_every_input_dtype(tmp_path, dt):
    """1,088-deep K in tiles of 64: chunks of 8 iterations, the last one partial (1 tile)."""
    import ml_dtypes
    np_dt = np.dtype(getattr(ml_dtypes, dt, None) or dt)
    rng = np.random.default_rng(6)
    if np_dt.kind == "i":
        a, b = (rng.integers(-128, 128, s).astype(np_dt) for s in ((64, 1088), (1088, 48)))
        out_dt = np.int32
    else:
        a, b = (rng.uniform(-1, 1, s).astype(np_dt) for s in ((64, 1088), (1088, 48)))
        out_dt = np.float32
    c = three_ways(tmp_path, (2, 3), matmul_acc_like_c, lambda: (a, b, np.zeros((64, 48), out_dt), 32, 16, 64))[2]
    if np_dt.kind == "i":
        assert np.array_equal(c, a.astype(np.int64) @ b.astype(np.int64))
    else:
        within_f32(c, a, b, 1088)


def test_random_shapes_agree_across_groupings():
    """Random tile sizes, grids, ragged edges and input dtypes: vectorised, one-block and
    arbitrarily regrouped runs give the same bits, within float32 accuracy of float64."""
    import ml_dtypes
    rng = np.random.default_rng(21)
    dts = [np.float16, ml_dtypes.bfloat16, np.float32, ml_dtypes.float8_e4m3fn]
    for _ in range(12):
        dt = dts[rng.integers(len(dts))]
        tm, tn, tk = (int(2 ** rng.integers(2, 7)) for _ in range(3))
        gm, gn, k = int(rng.integers(1, 5)), int(rng.integers(1, 5)), int(rng.integers(1, 700))
        m, n = max(1, gm * tm - int(rng.integers(0, tm))), max(1, gn * tn - int(rng.integers(0, tn)))
        a, b = rng.uniform(-1, 1, (m, k)).astype(dt), rng.uniform(-1, 1, (k, n)).astype(dt)
        runs = []
        for how in ({}, {"sequential": True}, {"group": int(rng.integers(1, 7))}):
            args = (a, b, np.zeros((m, n), np.float32), tm, tn, tk)
            run_kernel((gm, gn), matmul_acc_like_c, args, checks={"races": False}, **how)
            runs.append(args[2])
        assert all(np.array_equal(runs[0].view(np.uint32), r.view(np.uint32)) for r in runs[1:]), (dt, tm, tn, tk, m, n, k)
        within_f32(runs[0], a, b, k)
