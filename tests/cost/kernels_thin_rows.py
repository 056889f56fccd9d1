"""A kernel of tests/cost/test_v97_rows_at_once.py: thin-row tiles summed down their rows (the copies
are bench/cost_kernels_thin.py's)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def thin_column_sums(src, sums, TR: ConstInt, TC: ConstInt):
    """Each block's tile summed down its rows into sums' row bid(0)."""
    tile = ct.load(src, index=(ct.bid(0), ct.bid(1)), shape=(TR, TC)).astype(ct.float32)
    ct.store(sums, index=(ct.bid(0), ct.bid(1)), tile=ct.sum(tile, axis=0, keepdims=True))
