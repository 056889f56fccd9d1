"""Kernels for tests/cost (model version 43): gathers whose lanes the metadata places."""
import cuda.tile as ct


@ct.kernel
def pool_taps(x, out, W_IN: ct.Constant[int], W_OUT: ct.Constant[int], BLOCK: ct.Constant[int]):
    # 2x2 stride-2 max pooling of (planes, W_IN * W_IN) rows, one output a lane: the flat output
    # index split by // and % into plane, row and column; four taps gathered at (plane, pixel)
    lane = ct.bid(0) * BLOCK + ct.arange(BLOCK, dtype=ct.int32)
    ow = lane % W_OUT
    oh = (lane // W_OUT) % W_OUT
    plane = lane // (W_OUT * W_OUT)
    best = ct.gather(x, (plane, (2 * oh) * W_IN + 2 * ow))
    for dh, dw in ct.static_iter(((0, 1), (1, 0), (1, 1))):
        tap = ct.gather(x, (plane, (2 * oh + dh) * W_IN + 2 * ow + dw))
        best = ct.where(tap > best, tap, best)
    ct.store(out, index=(ct.bid(0),), tile=best)


@ct.kernel
def gather_by_table(x, table, out, BLOCK: ct.Constant[int]):
    # lanes at indices the data gives: where they land is not known from metadata
    idx = ct.load(table, index=(ct.bid(0),), shape=(BLOCK,))
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, idx))
