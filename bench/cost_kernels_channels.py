"""Element-wise passes over channels-last arrays in logical NCHW order (docs/cost-model.md history
167): sets BE's and BH's batch-norm kernels gather and scatter one element a lane at offsets that put
neighbouring lanes a channel row (C elements) apart, a cache line or more each, and took 4 to 5 times
the model's time. Lane l of block b is element b * TILE + l of the logical (N, C, HW) order; it lies
at n * HW * C + s * C + c in memory. A read alone (gathered, stored contiguous), a write alone
(loaded contiguous, scattered) and a copy (gathered, scattered to the same places). Microbenchmarks
of bench/cost_validate.py (`channels_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


def _places(C: int, HW: int, TILE: int):
    lane = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    n = lane // (C * HW)
    c = (lane // HW) % C
    s = lane % HW
    return n * (HW * C) + s * C + c


@ct.kernel
def channels_read(x, out, C: ConstInt, HW: ConstInt, TILE: ConstInt):
    """Each lane's element read where the channels-last layout puts it, the tile stored contiguous."""
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, _places(C, HW, TILE)))


@ct.kernel
def channels_write(src, y, C: ConstInt, HW: ConstInt, TILE: ConstInt):
    """A contiguous tile loaded, each lane's element written where the channels-last layout puts it."""
    ct.scatter(y, _places(C, HW, TILE), ct.load(src, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def channels_copy(x, y, C: ConstInt, HW: ConstInt, TILE: ConstInt):
    """Each lane's element read and written back in place of another array."""
    idx = _places(C, HW, TILE)
    ct.scatter(y, idx, ct.gather(x, idx))


@ct.kernel
def channels_sum(x, out, C: ConstInt, HW: ConstInt, TILE: ConstInt):
    """Block c sums channel c over TILE = N * HW positions, one lane each, a channel row apart: a
    batch norm's reduction, one block a channel."""
    lane = ct.arange(TILE, dtype=ct.int32)
    idx = (lane // HW) * (HW * C) + (lane % HW) * C + ct.bid(0)
    ct.store(out, index=(ct.bid(0),), tile=ct.reshape(ct.sum(ct.astype(ct.gather(x, idx), ct.float32)), (1,)))
