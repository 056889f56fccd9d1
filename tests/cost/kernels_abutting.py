"""A kernel whose gathers and scatters run down the rows of a tile one element apart (version 90)."""
import cuda.tile as ct


@ct.kernel
def channels_last_copy(src, dst, C: ct.Constant[int], HW: ct.Constant[int], YB: ct.Constant[int],
                       XB: ct.Constant[int]):
    """A (YB, XB) tile of channels by pixels of a flat channels-last array: its channels (the tile's
    rows) lie one element apart in memory, its pixels C elements apart."""
    y = ct.reshape(ct.bid(1) * YB + ct.arange(YB, dtype=ct.int32), (YB, 1))
    x = ct.reshape(ct.bid(0) * XB + ct.arange(XB, dtype=ct.int32), (1, XB))
    offset = y + C * x
    inside = (y < C) & (x < HW)
    ct.scatter(dst, offset, ct.gather(src, offset, mask=inside), mask=inside)
