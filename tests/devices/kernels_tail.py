"""Kernels with Triton-style ragged tails through gather/scatter (for the bounds-check tests)."""
import cuda.tile as ct


@ct.kernel
def tail_copy(x, y, n, T: ct.Constant[int]):
    # The last block's lanes past `n` read the padding value and their stores are dropped.
    i = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)
    v = ct.gather(x, i, padding_value=0)
    ct.scatter(y, i, v + 1)


@ct.kernel
def masked_tail_copy(x, y, n, T: ct.Constant[int]):
    i = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)
    inside = i < n
    v = ct.gather(x, i, mask=inside, padding_value=0, check_bounds=False)
    ct.scatter(y, i, v + 1, mask=inside, check_bounds=False)


@ct.kernel
def unchecked_tail_copy(x, y, n, T: ct.Constant[int]):
    # A promise broken: check_bounds=False, yet the last block reaches past the end.
    i = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)
    v = ct.gather(x, i, check_bounds=False)
    ct.scatter(y, i, v + 1, check_bounds=False)
