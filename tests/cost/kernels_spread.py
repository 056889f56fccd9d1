"""Stores of tiles with fewer elements than a block's threads (version 95)."""
import cuda.tile as ct


@ct.kernel
def mask_tile(out, TR: ct.Constant[int], TC: ct.Constant[int]):
    """A (TR, TC) bfloat16 tile a block, computed from its position."""
    rows = ct.reshape(ct.bid(0) * TR + ct.arange(TR, dtype=ct.int32), (TR, 1))
    cols = ct.reshape(ct.bid(1) * TC + ct.arange(TC, dtype=ct.int32), (1, TC))
    ct.store(out, index=(ct.bid(0), ct.bid(1)), tile=ct.astype(ct.where(cols <= rows, 0.0, -1.0), ct.bfloat16))
