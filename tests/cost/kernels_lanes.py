"""Kernels for tests/cost (model versions 43, 65 and 67): gathers whose lanes the metadata places."""
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


@ct.kernel
def pair_exchange(work, j, j_log, TILE: ct.Constant[int]):
    """A bitonic sort's compare-exchange pass: lane i swaps the pair (low, low + j), its partners
    found by shifts of runtime scalars (j = 2 ** j_log)."""
    pair = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    low = ((pair >> j_log) << (j_log + 1)) + (pair & (j - 1))
    high = low + j
    a = ct.gather(work, low)
    b = ct.gather(work, high)
    ct.scatter(work, low, ct.minimum(a, b))
    ct.scatter(work, high, ct.maximum(a, b))


@ct.kernel
def strided_taps(x, out, stride, TAPS: ct.Constant[int], BLOCK: ct.Constant[int]):
    # a 1-D max pooling by gathers (version 67): TAPS taps a lane, lanes `stride` elements apart
    lane = ct.bid(0) * BLOCK + ct.arange(BLOCK, dtype=ct.int32)
    acc = ct.full((BLOCK,), -1e30, dtype=ct.float32)
    for k in range(TAPS):
        idx = lane * stride + k
        safe = ct.where(idx < x.shape[0], idx, -1)
        acc = ct.maximum(acc, ct.astype(ct.gather(x, safe, padding_value=0), ct.float32))
    ct.scatter(out, lane, ct.astype(acc, x.dtype))
