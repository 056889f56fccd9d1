"""Kernels for tests/cost (model version 39): which tiles blocks read, from a loop's first iteration."""
import cuda.tile as ct


@ct.kernel
def split_rows_counter(x, out, STEPS: ct.Constant[int], TILE: ct.Constant[int]):
    # grid (heads, splits): the heads of a split read the same tiles, splits read their own; the
    # tile index is a counter carried beside the loop variable, starting at the split's first tile
    split = ct.bid(1)
    acc = ct.zeros((TILE, TILE), dtype=ct.float32)
    cnt = split * STEPS
    for i in range(STEPS):
        acc += ct.load(x, index=(cnt, 0), shape=(TILE, TILE)).astype(ct.float32)
        cnt += 1
    ct.store(out, index=(ct.bid(0), split), tile=acc)


@ct.kernel
def grid_stride_rows(x, out, TILES: ct.Constant[int], TILE: ct.Constant[int]):
    # a persistent grid: each block starts at its own tile and strides by the grid
    t = ct.bid(0)
    while t < TILES:
        ct.store(out, index=(t, 0), tile=ct.load(x, index=(t, 0), shape=(TILE, TILE)))
        t += ct.num_blocks(0)


@ct.kernel
def grid_stride_rows_by_table(x, table, out, TILES: ct.Constant[int], TILE: ct.Constant[int]):
    # the same, but the tile each step reads is looked up in a table: which one, only the data says
    t = ct.bid(0)
    while t < TILES:
        row = ct.load(table, index=(t,), shape=()).item()
        ct.store(out, index=(t, 0), tile=ct.load(x, index=(row, 0), shape=(TILE, TILE)))
        t += ct.num_blocks(0)


@ct.kernel
def causal_rows(x, out, TILE: ct.Constant[int]):
    # block b sums tiles 0..b of x (a causal attention's walk over the keys): all start on tile 0
    b = ct.bid(0)
    acc = ct.zeros((TILE, TILE), dtype=ct.float32)
    for j in range(b + 1):
        acc += ct.load(x, index=(j, 0), shape=(TILE, TILE)).astype(ct.float32)
    ct.store(out, index=(b, 0), tile=acc)
