"""Kernels for tests/cost (model version 71): scatters whose lanes a running count places."""
import cuda.tile as ct


@ct.kernel
def partition_by_bit(x, out, ones_before, total_zeros, BLOCK: ct.Constant[int]):
    # a radix sort's 1-bit pass: lanes whose bit is 1 go after all the zeros, in order, the others
    # after the zeros of the blocks before; `ones_before` is this block's count of ones before it
    pid = ct.bid(0)
    keys = ct.load(x, index=(pid,), shape=(BLOCK,))
    bit = keys & 1
    ones = ct.cumsum(bit, axis=0) - bit
    zeros = ct.arange(BLOCK, dtype=ct.int32) - ones
    base = ct.load(ones_before, index=(pid,), shape=())
    dest = ct.where(bit == 1, total_zeros + base + ones, pid * BLOCK - base + zeros)
    ct.scatter(out, dest, keys)


@ct.kernel
def scatter_by_table(x, table, out, BLOCK: ct.Constant[int]):
    # lanes at places the data gives
    keys = ct.load(x, index=(ct.bid(0),), shape=(BLOCK,))
    ct.scatter(out, ct.load(table, index=(ct.bid(0),), shape=(BLOCK,)), keys)


@ct.kernel
def scatter_by_running_sum(x, counts, out, BLOCK: ct.Constant[int]):
    # a running sum of counts that may exceed 1: lanes apart by any amount
    keys = ct.load(x, index=(ct.bid(0),), shape=(BLOCK,))
    ct.scatter(out, ct.cumsum(ct.load(counts, index=(ct.bid(0),), shape=(BLOCK,)), axis=0), keys)
