"""Kernels of loop bodies past the instruction cache (docs/cost-model.md history 95): version 16's
`long_body_loop` (multiply-adds only) with its warps meeting at a block-wide reduction, or taking a
loaded tile, every 64 multiply-adds. Whether the cost of code fetched from L2 depends on what the
body waits for besides its instructions: microbenchmarks of bench/cost_validate.py (`fetch_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def long_body_synced(x, out, N: ConstInt, U: ConstInt, TILE: ConstInt):
    """N steps of U multiply-adds of a tile written out, a block-wide max every 64 of them: the
    block's warps meet at a barrier that often."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    for j in range(N):
        for u in ct.static_iter(range(U // 64)):
            for v in ct.static_iter(range(64)):
                t = t * (1.0 + (u * 64 + v) * 1e-7) + 1e-3
            t = t - ct.max(t, 0, keepdims=True) * 1e-6
    ct.store(out, index=(b,), tile=t)


@ct.kernel
def long_body_loaded(x, y, out, N: ConstInt, U: ConstInt, TILE: ConstInt):
    """N steps of U multiply-adds of a tile written out, a tile of `y` (which stays in L2) added
    every 64 of them: the body waits on loads that often."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    for j in range(N):
        for u in ct.static_iter(range(U // 64)):
            for v in ct.static_iter(range(64)):
                t = t * (1.0 + (u * 64 + v) * 1e-7) + 1e-3
            t = t + ct.load(y, index=(u + j,), shape=(TILE,))
    ct.store(out, index=(b,), tile=t)


@ct.kernel
def rows_in_chunks(x, y, ROWS: ConstInt, COLS: ConstInt, CHUNK: ConstInt):
    """A persistent loop over rows, each row read in COLS // CHUNK chunks twice: once for its
    maximum, once to write the row less it. Built with the sizes known, both chunk loops unroll
    whole into the row loop's body, whose code then grows with the row."""
    for row in range(ct.bid(0), ROWS, ct.num_blocks(0)):
        top = ct.full((1,), -1e30, dtype=ct.float32)
        for c in range(COLS // CHUNK):
            top = ct.maximum(top, ct.max(ct.load(x, index=(row, c), shape=(1, CHUNK)), axis=-1))
        for c in range(COLS // CHUNK):
            ct.store(y, index=(row, c), tile=ct.load(x, index=(row, c), shape=(1, CHUNK)) - top)


@ct.kernel
def long_body_waiting(x, y, out, N: ConstInt, U: ConstInt, TILE: ConstInt):
    """N steps of U multiply-adds of a tile written out, every 256 of them a tile of `y` (which
    stays in L2) added and a block-wide max taken: the body waits for loads and then meets at a
    barrier, as a row reduction over chunks does."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    for j in range(N):
        for u in ct.static_iter(range(U // 256)):
            for v in ct.static_iter(range(256)):
                t = t * (1.0 + (u * 256 + v) * 1e-7) + 1e-3
            t = t + ct.load(y, index=(u + j,), shape=(TILE,))
            t = t - ct.max(t, 0, keepdims=True) * 1e-6
    ct.store(out, index=(b,), tile=t)


@ct.kernel
def long_body_reduced(x, out, N: ConstInt, U: ConstInt, TILE: ConstInt):
    """N steps of U multiply-adds of a small tile written out, a block-wide max every 64 of them:
    with 8 elements a thread, a reduction's shared-memory operations come about as often as in a
    cross entropy's body, with no loads."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    for j in range(N):
        for u in ct.static_iter(range(U // 64)):
            for v in ct.static_iter(range(64)):
                t = t * (1.0 + (u * 64 + v) * 1e-7) + 1e-3
            t = t - ct.max(t, 0, keepdims=True) * 1e-6
    ct.store(out, index=(b,), tile=t)
