"""Kernels for tests/cost (model versions 15, 40 and 66): loops whose iterations do or do not wait for their loads."""
import cuda.tile as ct


@ct.kernel
def accumulate_loop(x, out, N: ct.Constant[int], TILE: ct.Constant[int]):
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(N):
        acc += ct.load(x, index=(ct.bid(0) * N + j,), shape=(TILE,))
    ct.store(out, index=(ct.bid(0),), tile=acc)


@ct.kernel
def copy_loop(x, y, N: ct.Constant[int], TILE: ct.Constant[int]):
    for j in range(N):
        ct.store(y, index=(ct.bid(0) * N + j,), tile=ct.load(x, index=(ct.bid(0) * N + j,), shape=(TILE,)))


@ct.kernel
def count_in_place(ids, counts, N: ct.Constant[int]):
    # one serial count per block; the last count is carried by the loop but never read again
    cnt = ct.zeros((1,), dtype=ct.int32)
    for i in range(N):
        idx = ct.gather(ids, ct.full((1,), ct.bid(0) * N + i, dtype=ct.int32), padding_value=0)
        cnt = ct.gather(counts, idx, padding_value=0)
        ct.scatter(counts, idx, cnt + ct.ones((1,), dtype=ct.int32))


@ct.kernel
def scale_rows_by_weight(x, w, y, TILE: ct.Constant[int]):
    # each step scales a tile of the block's row by one weight (a group norm's affine step):
    # the weight is a 1-element tile, nothing carried waits on either load
    b = ct.bid(0)
    for i in range(ct.num_tiles(x, 1, (1, TILE))):
        t = ct.load(x, index=(b, i), shape=(1, TILE))
        ct.store(y, index=(b, i), tile=t * ct.load(w, index=(i,), shape=(1,)))


@ct.kernel
def scale_rows(x, y, TILE: ct.Constant[int]):
    b = ct.bid(0)
    for i in range(ct.num_tiles(x, 1, (1, TILE))):
        ct.store(y, index=(b, i), tile=ct.load(x, index=(b, i), shape=(1, TILE)) * 2.0)


@ct.kernel
def row_chunk_sums(x, out, ROWS: ct.Constant[int], CHUNKS: ct.Constant[int], TILE: ct.Constant[int]):
    # each block sums ROWS rows, each in CHUNKS tiles (a chunked cross entropy's loop): a row loop
    # around a chunk loop of constant trip count, which a build may unroll whole
    for r in range(ROWS):
        row = ct.bid(0) * ROWS + r
        acc = ct.zeros((1,), dtype=ct.float32)
        for c in range(CHUNKS):
            acc += ct.sum(ct.load(x, index=(row, c), shape=(1, TILE)), axis=1)
        ct.store(out, index=(row,), tile=acc)


@ct.kernel
def max_then_exp_sum(x, out, N: ct.Constant[int], TILE: ct.Constant[int]):
    """Two passes over a block's N tiles, their max and then the sum of exp(x - max) (version 66):
    loops of constant trips that tileiras unrolls whole, leaving the cubin no loop."""
    m = ct.full((TILE,), -1e30, dtype=ct.float32)
    for j in range(N):
        m = ct.maximum(m, ct.load(x, index=(ct.bid(0) * N + j,), shape=(TILE,)))
    s = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(N):
        s += ct.exp(ct.load(x, index=(ct.bid(0) * N + j,), shape=(TILE,)) - m)
    ct.store(out, index=(ct.bid(0),), tile=s)
