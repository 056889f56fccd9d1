"""Small kernels whose cubins fix the rules of the IR-only estimate (tests/cost/test_estimated_v16.py,
and the atomics copies of tests/cost/test_estimated_facts.py)."""
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



@ct.kernel
def persistent_scaled_rows(x, w, y, BLOCKS: ct.Constant[int], RT: ct.Constant[int], TILE: ct.Constant[int]):
    """A persistent kernel walking blocks of RT rows by the grid's stride, each row scaled by a
    weight row loaded once (broadcast against every block of rows)."""
    wt = ct.load(w, index=(0,), shape=(TILE,))
    for b in range(ct.bid(0), BLOCKS, ct.num_blocks(0)):
        t = ct.load(x, index=(b, 0), shape=(RT, TILE))
        ct.store(y, index=(b, 0), tile=t * wt / ct.sum(t * t, axis=1, keepdims=True))


@ct.kernel
def persistent_two_tiles(x, z, y, BLOCKS: ct.Constant[int], RT: ct.Constant[int], TILE: ct.Constant[int]):
    """The same walk over two arrays, nothing broadcast from outside the loop."""
    for b in range(ct.bid(0), BLOCKS, ct.num_blocks(0)):
        t = ct.load(x, index=(b, 0), shape=(RT, TILE))
        u = ct.load(z, index=(b, 0), shape=(RT, TILE))
        ct.store(y, index=(b, 0), tile=t / ct.sum(t * u, axis=1, keepdims=True))


@ct.kernel
def row_sum_gathered(x, y, START: ct.Constant[int], N: ct.Constant[int], TILE: ct.Constant[int]):
    """Row sums gathered a chunk at a time: columns `off + arange` for off = START, START + TILE, ..."""
    row = ct.bid(0)
    acc = ct.full((TILE,), 0.0, dtype=ct.float32)
    for off in range(START, N, TILE):
        acc = acc + ct.astype(ct.gather(x, (row, off + ct.arange(TILE, dtype=ct.int32))), ct.float32)
    ct.store(y, index=(row,), tile=ct.reshape(ct.sum(acc), (1,)))


@ct.kernel
def histogram_bins(values, bins, T: ct.Constant[int]):
    x = ct.load(values, (ct.bid(0),), (T,))
    ct.atomic_add(bins, x, ct.full((T,), 1, dtype=ct.int32), memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def scatter_rows_add(src, idx, table, R: ct.Constant[int], D: ct.Constant[int]):
    pid = ct.bid(0)
    rows = ct.reshape(ct.load(idx, (pid,), (R,)), (R, 1))
    cols = ct.reshape(ct.arange(D, dtype=ct.int32), (1, D))
    ct.atomic_add(table, (rows, cols), ct.load(src, (pid, 0), (R, D)))


@ct.kernel
def small_products(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # one tile product a block, in a loop over K
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        x = ct.load(a, index=(i, k), shape=(TM, TK))
        y = ct.load(b, index=(k, j), shape=(TK, TN))
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(i, j), tile=acc)
