"""Copies in tiles whose rows are one sector wide (docs/cost-model.md history 167): set BH's copy of a
(131072, 432) bfloat16 array in (512, 16) tiles, 32-byte rows, ran at 63 GB/s, 3.5 times the model's
time. Each block copies tile (bid(0), bid(1)) of TR rows and TC columns; blocks go down the rows
first, as that copy's grid does. Microbenchmarks of bench/cost_validate.py (`thin_*`), and (history
171) `pair_*`: the same copies as launched, over arrays beyond L2, with blocks down the rows first or
along them, for DRAM's pairs of sectors."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def thin_copy(src, dst, TR: ConstInt, TC: ConstInt):
    """dst's tile (bid(0), bid(1)) = src's."""
    ct.store(dst, index=(ct.bid(0), ct.bid(1)), tile=ct.load(src, index=(ct.bid(0), ct.bid(1)), shape=(TR, TC)))


@ct.kernel
def thin_copy_columns_first(src, dst, TR: ConstInt, TC: ConstInt):
    """dst's tile (bid(1), bid(0)) = src's: neighbouring blocks take neighbouring column tiles."""
    ct.store(dst, index=(ct.bid(1), ct.bid(0)), tile=ct.load(src, index=(ct.bid(1), ct.bid(0)), shape=(TR, TC)))
