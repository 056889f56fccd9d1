"""Kernels for matrix products on the CPU executor."""
import tilescope.lang as ct


@ct.kernel
def matmul_tile(a, b, c, M: ct.Constant[int], N: ct.Constant[int], K: ct.Constant[int]):
    """Block i: c[i] = a[i] @ b[i] with `@` (operands promoted, result in their dtype)."""
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(M, K))
    y = ct.load(b, index=(i, 0), shape=(K, N))
    ct.store(c, index=(i, 0), tile=x @ y)


@ct.kernel
def mma_tile(a, b, acc_in, c, M: ct.Constant[int], N: ct.Constant[int], K: ct.Constant[int],
             TF32: ct.Constant[bool]):
    """Block i: c[i] = mma(a[i], b[i], acc_in[i]); the accumulator dtype is acc_in's."""
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(M, K))
    y = ct.load(b, index=(i, 0), shape=(K, N))
    acc = ct.load(acc_in, index=(i, 0), shape=(M, N))
    if TF32:
        x = x.astype(ct.tfloat32)
        y = y.astype(ct.tfloat32)
    ct.store(c, index=(i, 0), tile=ct.mma(x, y, acc))


@ct.kernel
def batch_matmul(a, b, c, BA: ct.Constant[int], BB: ct.Constant[int], M: ct.Constant[int],
                 N: ct.Constant[int], K: ct.Constant[int]):
    """(BA, M, K) @ (BB, K, N): batch axes broadcast (BA or BB may be 1)."""
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0, 0), shape=(BA, M, K))
    y = ct.load(b, index=(i, 0, 0), shape=(BB, K, N))
    ct.store(c, index=(i, 0, 0), tile=ct.matmul(x, y))


@ct.kernel
def matvec(a, v, c, M: ct.Constant[int], K: ct.Constant[int]):
    """2-d @ 1-d."""
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(M, K))
    y = ct.load(v, index=(0,), shape=(K,))
    ct.store(c, index=(i,), tile=x @ y)


@ct.kernel
def tiled_matmul(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int],
                 KT: ct.Constant[int]):
    """c = a @ b over a 2-d grid of (TM, TN) output tiles, f32 accumulation over KT K-tiles."""
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(KT):
        x = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(bm, bn), tile=acc.astype(c.dtype))


@ct.kernel
def mma_scaled_tile(a, sa, b, sb, c, M: ct.Constant[int], N: ct.Constant[int], K: ct.Constant[int],
                    KS: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(M, K))
    xs = ct.load(sa, index=(i, 0), shape=(M, KS))
    y = ct.load(b, index=(i, 0), shape=(K, N))
    ys = ct.load(sb, index=(i, 0), shape=(KS, N))
    acc = ct.zeros((M, N), dtype=ct.float32)
    ct.store(c, index=(i, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))
