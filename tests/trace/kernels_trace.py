"""Kernels for tests/trace: a race, an out-of-bounds gather, a grid too small, a loop."""
import cuda.tile as ct


@ct.kernel
def shared_tile(x, y, TILE: ct.Constant[int]):
    # every block writes tile 0 of y: a race between all blocks
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(0,), tile=t)


@ct.kernel
def gather_past_end(x, y, TILE: ct.Constant[int]):
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32) + 4
    ct.store(y, index=(ct.bid(0),), tile=ct.gather(x, i, check_bounds=False))


@ct.kernel
def copy_tiles(x, y, TILE: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def row_sums(x, out, TN: ct.Constant[int]):
    acc = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ct.num_tiles(x, axis=1, shape=(1, TN))):
        acc += ct.load(x, index=(ct.bid(0), j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(ct.bid(0),), tile=ct.sum(acc, axis=1))
