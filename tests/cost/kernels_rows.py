"""Kernels of the layout tests (versions 56 and 57): a GEMM whose K loop pads the last tile, and
row kernels that walk or hold a row (the array's row length is the test's)."""
import cuda.tile as ct


@ct.kernel
def matmul(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    m, n = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], TK)):
        x = ct.load(a, index=(m, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, index=(k, n), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(m, n), tile=acc)


@ct.kernel
def row_sums(x, y, TN: ct.Constant[int]):
    """A row's sum in (1, TN) steps: each step waits for its load (the accumulator)."""
    row = ct.bid(0)
    total = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ct.cdiv(x.shape[1], TN)):
        total += ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(row,), tile=ct.sum(total, axis=1))


@ct.kernel
def row_softmax(x, y, TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(row, 0), tile=e / ct.sum(e, axis=1, keepdims=True))
