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


@ct.kernel
def shifted_copy(x, y, TILE: ct.Constant[int], LOAD_AT: ct.Constant[int], STORE_AT: ct.Constant[int]):
    # tiles LOAD_AT and STORE_AT past the block's own: whole tiles outside the arrays
    t = ct.load(x, index=(ct.bid(0) + LOAD_AT,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0) + STORE_AT,), tile=t)


@ct.kernel
def slice_copy(x, y, TILE: ct.Constant[int]):
    # a view of x's second tile: block 1's tile lies outside the view (inside x)
    sub = x.slice(axis=0, start=TILE, stop=2 * TILE)
    ct.store(y, index=(ct.bid(0),), tile=ct.load(sub, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def stop_at_two(x, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.assert_(ct.bid(0) < 2, "bid too big")
    ct.store(x, index=(ct.bid(0),), tile=t)


@ct.kernel
def load_unused(x, y):
    ct.load(x, index=(0,), shape=(64,))          # dead code: its value is unused


@ct.kernel
def masked_gather(x, y, n, TILE: ct.Constant[int]):
    # every other element of x, lanes past n masked off both ways
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(y, i, ct.gather(x, i * 2, mask=i < n, padding_value=0.0), mask=i < n)


@ct.kernel
def histogram(x, h, TILE: ct.Constant[int]):
    v = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.atomic_add(h, v, ct.ones((TILE,), dtype=ct.int32))


@ct.kernel
def split_k(a, b, c, TK: ct.Constant[int]):
    # each block adds its K slice's product into c
    k = ct.bid(1)
    p = ct.mma(ct.load(a, index=(ct.bid(0), k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)),
               ct.zeros((16, 16), dtype=ct.float32))
    r = ct.arange(16, dtype=ct.int32)
    ct.atomic_add(c, (r[:, None] + ct.bid(0) * 16, r[None, :]), p)


@ct.kernel
def shift_into(x, y, TILE: ct.Constant[int]):
    # launched with x and y the same array: each block stores its tile one tile on (the last past the end)
    ct.store(y, index=(ct.bid(0) + 1,), tile=ct.load(x, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def gather_before_start(x, y, TILE: ct.Constant[int]):
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32) - 100
    ct.store(y, index=(ct.bid(0),), tile=ct.gather(x, i, check_bounds=False))
