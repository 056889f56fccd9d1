"""Kernels of tests/cost/test_v97_rows_at_once.py and test_v98_sector_rows.py: thin-row tiles copied,
and summed down their rows."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def thin_copy(src, dst, TR: ConstInt, TC: ConstInt):
    """dst's tile (bid(0), bid(1)) = src's."""
    ct.store(dst, index=(ct.bid(0), ct.bid(1)), tile=ct.load(src, index=(ct.bid(0), ct.bid(1)), shape=(TR, TC)))


@ct.kernel
def thin_column_sums(src, sums, TR: ConstInt, TC: ConstInt):
    """Each block's tile summed down its rows into sums' row bid(0)."""
    tile = ct.load(src, index=(ct.bid(0), ct.bid(1)), shape=(TR, TC)).astype(ct.float32)
    ct.store(sums, index=(ct.bid(0), ct.bid(1)), tile=ct.sum(tile, axis=0, keepdims=True))


@ct.kernel
def thin_copy_columns_first(src, dst, TR: ConstInt, TC: ConstInt):
    """dst's tile (bid(1), bid(0)) = src's: neighbouring blocks take neighbouring column tiles."""
    ct.store(dst, index=(ct.bid(1), ct.bid(0)), tile=ct.load(src, index=(ct.bid(1), ct.bid(0)), shape=(TR, TC)))
