"""Kernels of a whole-row softmax that differ only in how they divide each element by the row's sum
(docs/cost-model.md history 109): sets AC's and AD's softmax of one 1x16,384 tile a block ran at
2.3-2.7 times the predicted time, their cubins dividing element by element (a reciprocal, five
multiply-adds and a range check in a convergence region of its own). Microbenchmarks of
bench/cost_validate.py (`divide_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


def _exp_and_sum(x, TILE):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF),
                  ct.float32)
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
