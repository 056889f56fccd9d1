"""Kernels whose lanes go down one column of an array (version 89)."""
import cuda.tile as ct


@ct.kernel
def channel_relu_sum(x, relu_out, sums, scale, HW: ct.Constant[int], HW_PAD: ct.Constant[int]):
    """One channel of a channels-last (N, HW, C) bfloat16 array a block: its (1, HW_PAD, 1) column,
    a float32 scale beside it, its ReLU scattered back down the column, its sum stored."""
    n, c = ct.bid(0), ct.bid(1)
    x = ct.astype(ct.load(x, index=(n, 0, c), shape=(1, HW_PAD, 1), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    x = x * ct.reshape(ct.load(scale, index=(c,), shape=(1,)), (1, 1, 1))
    relu = ct.maximum(x, 0.0)
    hw = ct.arange(HW_PAD, dtype=ct.int32)
    ct.scatter(relu_out, (ct.full((1, HW_PAD, 1), n, ct.int32), ct.reshape(hw, (1, HW_PAD, 1)),
                          ct.full((1, HW_PAD, 1), c, ct.int32)), ct.astype(relu, ct.bfloat16),
               mask=ct.reshape(hw < HW, (1, HW_PAD, 1)))
    ct.store(sums, index=(n, c), tile=ct.reshape(ct.sum(relu), (1, 1)))
