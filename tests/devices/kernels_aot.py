"""Kernels for the ahead-of-time and tuning tests."""
import cuda.tile as ct


@ct.kernel
def axpy(x, y, out, a: float, TILE: ct.Constant[int]):
    i = ct.bid(0)
    tx = ct.load(x, index=(i,), shape=(TILE,))
    ty = ct.load(y, index=(i,), shape=(TILE,))
    ct.store(out, index=(i,), tile=a * tx + ty)


@ct.kernel
def row_sums(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    acc = ct.zeros((TM,), ct.float32)
    for j in range(ct.cdiv(x.shape[1], TN)):
        acc = acc + ct.sum(ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO), axis=1)
    ct.store(out, index=(i,), tile=acc)


@ct.kernel
def racy_sum(x, out, TILE: ct.Constant[int]):
    # Every block stores to element 0: a race the checks report (the wrong way to reduce).
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(out, index=(0,), tile=ct.sum(t, axis=0, keepdims=True))


@ct.kernel
def row_sums_floor(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Forgets the last partial column tile when TN does not divide the row: runs cleanly, wrong sums.
    i = ct.bid(0)
    acc = ct.zeros((TM,), ct.float32)
    for j in range(x.shape[1] // TN):
        acc = acc + ct.sum(ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO), axis=1)
    ct.store(out, index=(i,), tile=acc)
