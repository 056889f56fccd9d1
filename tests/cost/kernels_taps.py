"""Kernels for tests/cost (model version 68): a block's several loads of one array's shifted windows."""
import cuda.tile as ct


@ct.kernel
def shifted_row_taps(x, out, TILE: ct.Constant[int]):
    # a 3x3 stencil over rows of x, two output rows a block: each of three column shifts (a slice of
    # runtime extent) loads the four input rows the two outputs need
    row0 = ct.bid(1) * 2
    acc0 = ct.zeros((1, TILE), dtype=ct.float32)
    acc1 = ct.zeros((1, TILE), dtype=ct.float32)
    for k in range(3):
        shifted = x.slice(1, k, x.shape[1])
        r0 = ct.astype(ct.load(shifted, index=(row0 + 0, ct.bid(0)), shape=(1, TILE),
                                 padding_mode=ct.PaddingMode.ZERO), ct.float32)
        r1 = ct.astype(ct.load(shifted, index=(row0 + 1, ct.bid(0)), shape=(1, TILE),
                                 padding_mode=ct.PaddingMode.ZERO), ct.float32)
        r2 = ct.astype(ct.load(shifted, index=(row0 + 2, ct.bid(0)), shape=(1, TILE),
                                 padding_mode=ct.PaddingMode.ZERO), ct.float32)
        r3 = ct.astype(ct.load(shifted, index=(row0 + 3, ct.bid(0)), shape=(1, TILE),
                                 padding_mode=ct.PaddingMode.ZERO), ct.float32)
        acc0 = acc0 + r0 + r1 + r2
        acc1 = acc1 + r1 + r2 + r3
    ct.store(out, index=(row0, ct.bid(0)), tile=ct.astype(acc0, out.dtype))
    ct.store(out, index=(row0 + 1, ct.bid(0)), tile=ct.astype(acc1, out.dtype))


@ct.kernel
def shifted_row_walk(x, out, TILE: ct.Constant[int]):
    # the same 3x3 stencil's sums, one load a step: the loop walks the four rows at each of three
    # column shifts, the view sliced anew each step
    row0 = ct.bid(1) * 2
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    for t in range(4):
        for k in range(3):
            shifted = x.slice(1, k, x.shape[1])
            acc = acc + ct.astype(ct.load(shifted, index=(row0 + t, ct.bid(0)), shape=(1, TILE),
                                          padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(out, index=(row0, ct.bid(0)), tile=ct.astype(acc, out.dtype))


@ct.kernel
def row_walk(x, out, TILE: ct.Constant[int]):
    # a row's tiles one after another, each read once: no taps
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    for j in range(ct.cdiv(x.shape[1], TILE)):
        acc = acc + ct.astype(ct.load(x, index=(ct.bid(0), j), shape=(1, TILE)), ct.float32)
    ct.store(out, index=(ct.bid(0), 0), tile=ct.astype(acc, out.dtype))
