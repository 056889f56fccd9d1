"""Element-wise passes over channels-last arrays (version 96) and a gather offset by the block's row."""
import cuda.tile as ct


@ct.kernel
def channels_last_scale(x, y, C: ct.Constant[int], HW: ct.Constant[int], TILE: ct.Constant[int]):
    """Each lane's element of the logical (N, C, HW) order read and written where the channels-last
    layout puts it: neighbouring lanes a channel row apart."""
    lane = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    n, c, s = lane // (C * HW), (lane // HW) % C, lane % HW
    idx = n * (HW * C) + s * C + c
    ct.scatter(y, idx, ct.gather(x, idx) * 2.0)


@ct.kernel
def channels_first_scale(x, y, TILE: ct.Constant[int]):
    """The same pass where the layout is the logical order: neighbouring lanes, neighbouring elements."""
    idx = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(y, idx, ct.gather(x, idx) * 2.0)


@ct.kernel
def relative_rows(table, index, out, W: ct.Constant[int], ROW: ct.Constant[int]):
    """Each block's row of `out` gathered from its own window of `table` at positions `index` gives."""
    pos = ct.load(index, index=(0,), shape=(W,))
    ct.store(out, index=(ct.bid(0), 0), tile=ct.reshape(ct.gather(table, pos + ct.bid(0) * ROW), (1, W)))
