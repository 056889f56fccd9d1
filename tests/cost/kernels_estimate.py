"""Small kernels whose cubins fix the rules of the IR-only estimate (tests/cost/test_estimated_v16.py)."""
import cuda.tile as ct


@ct.kernel(occupancy=2)
def softmax_occupancy2(x, y, TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(row, 0), tile=e / ct.sum(e, axis=1, keepdims=True))


@ct.kernel(occupancy=8)
def row_mean_occupancy8(x, y, TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE))
    ct.store(y, index=(row,), tile=ct.reshape(ct.sum(t, axis=1), (1,)))
