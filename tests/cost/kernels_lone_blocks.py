"""Kernels of model version 85's tests: launches of one to a few blocks."""
import cuda.tile as ct


@ct.kernel
def column_sum_tile(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    """Each block sums one (TM, TN) tile down its columns: straight code, one large load."""
    ct.store(out, index=(ct.bid(0),), tile=ct.sum(ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN)), axis=0))


@ct.kernel
def gather_sum(x, out, N: ct.Constant[int]):
    """A block sums N consecutive elements gathered one by one (element loads)."""
    offs = ct.bid(0) * N + ct.arange(N, dtype=ct.int32)
    ct.store(out, index=(ct.bid(0),), tile=ct.reshape(ct.sum(ct.gather(x, offs)), (1,)))


@ct.kernel
def spaced_gather_sum(x, out, N: ct.Constant[int]):
    """A block sums N elements gathered two apart."""
    offs = ct.bid(0) * 2 * N + 2 * ct.arange(N, dtype=ct.int32)
    ct.store(out, index=(ct.bid(0),), tile=ct.reshape(ct.sum(ct.gather(x, offs)), (1,)))
