"""Kernels of a whole-row softmax that differ only in how they divide each element by the row's sum
(docs/cost-model.md history 109): sets AC's and AD's softmax of one 1x16,384 tile a block ran at
2.3-2.7 times the predicted time, their cubins dividing element by element (a reciprocal, five
multiply-adds and a range check in a convergence region of its own). History 110 asks what such a
division costs: the same softmax with its padding read as zeros (no zero reaches the division) and
an element-wise division of two arrays whose dividend is zero or not. Microbenchmarks of
bench/cost_validate.py (`divide_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


def _exp_and_sum(x, TILE, padding=ct.PaddingMode.NEG_INF):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE), padding_mode=padding), ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    return e, ct.sum(e, axis=1, keepdims=True)


@ct.kernel
def row_softmax_divided(x, out, TILE: ConstInt):
    """Each element divided by the sum (IEEE division)."""
    e, s = _exp_and_sum(x, TILE)
    ct.store(out, index=(ct.bid(0), 0), tile=ct.astype(e / s, out.dtype))


@ct.kernel
def row_softmax_reciprocal(x, out, TILE: ConstInt):
    """Each element multiplied by the sum's reciprocal, taken once."""
    e, s = _exp_and_sum(x, TILE)
    ct.store(out, index=(ct.bid(0), 0), tile=ct.astype(e * (1.0 / s), out.dtype))


@ct.kernel
def row_softmax_approx(x, out, TILE: ConstInt):
    """Each element divided by the sum with approximate rounding."""
    e, s = _exp_and_sum(x, TILE)
    ct.store(out, index=(ct.bid(0), 0), tile=ct.astype(ct.truediv(e, s, rounding_mode=ct.RoundingMode.APPROX),
                                                        out.dtype))


@ct.kernel
def row_softmax_divided_zero_padded(x, out, TILE: ConstInt):
    """As row_softmax_divided, the padding read as zeros: its exponentials are not zero."""
    e, s = _exp_and_sum(x, TILE, ct.PaddingMode.ZERO)
    ct.store(out, index=(ct.bid(0), 0), tile=ct.astype(e / s, out.dtype))


@ct.kernel
def divide_tiles(x, y, out, TM: ConstInt, TN: ConstInt):
    """out = x / y, one TMxTN tile a block (IEEE division)."""
    a = ct.load(x, index=(ct.bid(0), ct.bid(1)), shape=(TM, TN))
    b = ct.load(y, index=(ct.bid(0), ct.bid(1)), shape=(TM, TN))
    ct.store(out, index=(ct.bid(0), ct.bid(1)), tile=a / b)
