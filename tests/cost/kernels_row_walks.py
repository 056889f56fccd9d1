"""Kernels of model version 81's tests: tiles whose lanes walk rows of their own, and a one-column tile."""
import cuda.tile as ct


@ct.kernel
def column_product_sum(x, y, out, ROWS: ct.Constant[int], TM: ct.Constant[int], TN: ct.Constant[int]):
    """Each block sums x * y down a stripe of TN columns, TM rows a step (each thread a row of TN)."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for r in range(ROWS // TM):
        acc = acc + ct.load(x, index=(r, ct.bid(0)), shape=(TM, TN)) * ct.load(y, index=(r, ct.bid(0)), shape=(TM, TN))
    ct.store(out, index=(ct.bid(0),), tile=ct.sum(acc, axis=0))


@ct.kernel
def one_column_sum(x, out, TM: ct.Constant[int]):
    """Each block sums one column of x: a (TM, 1) tile."""
    ct.store(out, index=(ct.bid(0),), tile=ct.sum(ct.load(x, index=(0, ct.bid(0)), shape=(TM, 1)), axis=0))


@ct.kernel
def masked_tile(positions, out, T: ct.Constant[int]):
    """A (1, T, T) 16-bit mask from 8-byte positions: wide loads, narrow stores."""
    q = ct.load(positions, index=(ct.bid(1),), shape=(T,))
    k = ct.load(positions, index=(ct.bid(2),), shape=(T,))
    keep = ct.less_equal(ct.reshape(k, (1, T)), ct.reshape(q, (T, 1)))
    values = ct.where(keep, ct.zeros((T, T), dtype=ct.bfloat16), ct.full((T, T), -float("inf"), dtype=ct.bfloat16))
    ct.store(out, index=(ct.bid(0), ct.bid(1), ct.bid(2)), tile=ct.reshape(values, (1, T, T)))


@ct.kernel
def narrow_sum(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    """Sums a (TM, TN) tile of an array whose rows may be narrower than a line."""
    rows = ct.sum(ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN)), axis=1)
    ct.store(out, index=(ct.bid(0),), tile=ct.sum(rows, axis=0, keepdims=True))


@ct.kernel
def column_gather(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    """Gathers a (TM, TN) tile whose first axis runs along x's rows, and stores it transposed."""
    rows = ct.arange(TM, dtype=ct.int32)
    cols = ct.bid(0) * TN + ct.arange(TN, dtype=ct.int32)
    t = ct.gather(x, (ct.reshape(cols, (1, TN)), ct.reshape(rows, (TM, 1))))
    ct.store(out, index=(0, ct.bid(0)), tile=t)


@ct.kernel
def narrow_copy(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    """Copies (TM, TN) tiles of arrays whose rows may be narrower than a line."""
    ct.store(y, index=(ct.bid(0), 0), tile=ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN)))
