"""Kernels for tests/cost: loops whose trip counts metadata cannot or can exactly give."""
import cuda.tile as ct


@ct.kernel
def until_small(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    s = ct.sum(t)
    while s > 1.0:
        s = s * 0.5
    ct.store(y, index=(ct.bid(0),), tile=t * s)


@ct.kernel
def per_block_trips(x, y, TILE: ct.Constant[int]):
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(ct.bid(0)):
        acc += ct.load(x, index=(j,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=ct.sum(acc, axis=0, keepdims=True))


@ct.kernel
def gather_rows(x, y, TILE: ct.Constant[int]):
    """Lanes along rows (offset + arange) and lanes strided by the row length."""
    row = ct.bid(0)
    cols = ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(x, (row, cols))
    ct.scatter(y, (cols, row), t)


@ct.kernel
def until_limit(x, y, limit: int, TILE: ct.Constant[int]):
    """A loop bound min(runtime scalar, number of tiles)."""
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(min(limit, ct.num_tiles(x, axis=0, shape=(TILE,)))):
        acc += ct.load(x, index=(j,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=acc)


@ct.kernel
def causal_offset(x, y, pos: int, TM: ct.Constant[int], TN: ct.Constant[int]):
    """A causal bound: a block's own rows past a runtime offset, at most the array's tiles."""
    acc = ct.zeros((TN,), dtype=ct.float32)
    n = x.shape[0]
    for j in range(ct.cdiv(min(pos + (ct.bid(0) + 1) * TM, n), TN)):
        acc += ct.load(x, index=(j,), shape=(TN,))
    ct.store(y, index=(ct.bid(0),), tile=acc)


@ct.kernel
def window_offset(x, y, pos: int, TM: ct.Constant[int], TN: ct.Constant[int], W: ct.Constant[int]):
    """A sliding window: from a block's rows past a runtime offset less W, to its last row."""
    acc = ct.zeros((TN,), dtype=ct.float32)
    lo = max((pos + ct.bid(0) * TM - W) // TN, 0)
    for j in range(lo, ct.cdiv(min(pos + (ct.bid(0) + 1) * TM, x.shape[0]), TN)):
        acc += ct.load(x, index=(j,), shape=(TN,))
    ct.store(y, index=(ct.bid(0),), tile=acc)


@ct.kernel
def ragged_tail(x, y, length: int, CHUNK: ct.Constant[int], TN: ct.Constant[int]):
    """A block's chunk of a runtime length: at most CHUNK elements, fewer in the last."""
    acc = ct.zeros((TN,), dtype=ct.float32)
    for j in range(ct.cdiv(min(length - ct.bid(0) * CHUNK, CHUNK), TN)):
        acc += ct.load(x, index=(ct.bid(0) * (CHUNK // TN) + j,), shape=(TN,))
    ct.store(y, index=(ct.bid(0),), tile=acc)


@ct.kernel
def scale_by_table(x, table, y, TILE: ct.Constant[int]):
    """Every block reads the same small table (it stays in L1) and its own tile of x."""
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t * ct.load(table, index=(0,), shape=(TILE,)))


@ct.kernel
def mma_layouts(a, b, bt, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    """The B operand read as stored, through order=, and transposed in registers."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(ct.bid(0), j), shape=(TM, TK))
        acc = ct.mma(ta, ct.load(b, index=(j, 0), shape=(TK, TN)), acc)
        acc = ct.mma(ta, ct.load(bt, index=(j, 0), shape=(TK, TN), order=(1, 0)), acc)
        acc = ct.mma(ta, ct.transpose(ct.load(bt, index=(0, j), shape=(TN, TK))), acc)
    ct.store(c, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def exps(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=ct.exp(t) + ct.exp2(t))


@ct.kernel
def row_copy(x, y, TILE: ct.Constant[int], CHECK: ct.Constant[bool]):
    cols = ct.arange(TILE, dtype=ct.int32)
    row = ct.gather(x, (ct.bid(0), cols), check_bounds=CHECK)
    ct.scatter(y, (ct.bid(0), cols), row, check_bounds=CHECK)


@ct.kernel
def row_softmax(x, y, TILE: ct.Constant[int]):
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE)), ct.float32)
    e = ct.exp(t - ct.max(t, 1, keepdims=True))
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(e / ct.sum(e, 1, keepdims=True), x.dtype))


@ct.kernel
def flat_rows(x, y, N: ct.Constant[int], TILE: ct.Constant[int]):
    """A flattened 2-D walk: the lane index split into (row, column) by N."""
    g = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, (g // N, g % N))
    ct.scatter(y, (g // N, g % N), v)


@ct.kernel
def stencil_rows(x, y, TAPS: ct.Constant[int], BM: ct.Constant[int], BN: ct.Constant[int]):
    # TAPS windows of x, each shifted one column: the taps overlap, as a blur's do
    rows = ct.bid(0) * BM + ct.arange(BM, dtype=ct.int32)
    cols = ct.bid(1) * BN + ct.arange(BN, dtype=ct.int32)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for t in range(TAPS):
        r2 = ct.broadcast_to(rows[:, None], (BM, BN))
        c2 = ct.broadcast_to(cols[None, :] + t, (BM, BN))
        acc = acc + ct.gather(x, (r2, c2), padding_value=0.0)
    ct.store(y, index=(ct.bid(0), ct.bid(1)), tile=acc)


@ct.kernel
def last_tile_branch(x, y, COLS: ct.Constant[int], TILE: ct.Constant[int]):
    # a full-tile path and a padded path for the last tile, chosen by the loop variable
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    for j in range(ct.cdiv(COLS, TILE)):
        if (j + 1) * TILE <= COLS:
            acc = acc + ct.load(x, index=(ct.bid(0), j), shape=(1, TILE))
        else:
            acc = acc + ct.load(x, index=(ct.bid(0), j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def element_index_tiles(x, y, TILE: ct.Constant[int]):
    # indexes tiles by element offset: every block but the first reads past the array
    t = ct.load(x, index=(ct.bid(0) * TILE,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0) * TILE,), tile=t)


@ct.kernel
def reverse_masked(x, y, N, TILE: ct.Constant[int]):
    """Reversal through a gather whose masked-off lanes read element 0."""
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    src = ct.where(offs < N, N - 1 - offs, 0)
    ct.store(y, index=(ct.bid(0),), tile=ct.gather(x, src, check_bounds=False))


@ct.kernel
def row_sum_flat(x, y, TILES: ct.Constant[int], TILE: ct.Constant[int]):
    """Each block sums its own TILES tiles of a flat array: the tile index mixes block and loop."""
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(TILES):
        acc = acc + ct.load(x, index=(ct.bid(0) * TILES + j,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=ct.sum(acc).reshape((1,)))


@ct.kernel
def row_norm(x, y, TILE: ct.Constant[int]):
    """A row kernel whose only reduction is a sum (an RMS norm without weights)."""
    t = ct.astype(ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE)), ct.float32)
    r = ct.rsqrt(ct.sum(t * t, 1, keepdims=True) / TILE + 1e-6)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(t * r, x.dtype))


@ct.kernel
def shifted_copy(x, y, TILE: ct.Constant[int]):
    """A gather along the row one element past the tile's start: no aligned vector fits."""
    cols = ct.bid(0) * TILE + 1 + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(y, cols - 1, ct.gather(x, cols))


@ct.kernel
def persistent_rows(x, y, ROWS: ct.Constant[int], TILE: ct.Constant[int]):
    """A persistent kernel: each block walks rows by the grid's stride."""
    for row in range(ct.bid(0), ROWS, ct.num_blocks(0)):
        t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE)), ct.float32)
        e = ct.exp(t - ct.max(t, 1, keepdims=True))
        ct.store(y, index=(row, 0), tile=ct.astype(e / ct.sum(e, 1, keepdims=True), x.dtype))


@ct.kernel
def persistent_matmul_sized(a, b, c, M: int, N: int, K: int, TM: ct.Constant[int], TN: ct.Constant[int],
                            TK: ct.Constant[int]):
    """A persistent matmul whose loop bounds come from runtime scalars, not from the arrays."""
    tiles_n = ct.cdiv(N, TN)
    for tile in range(ct.bid(0), ct.cdiv(M, TM) * tiles_n, ct.num_blocks(0)):
        acc = ct.zeros((TM, TN), dtype=ct.float32)
        for k in range(ct.cdiv(K, TK)):
            acc = ct.mma(ct.load(a, index=(tile // tiles_n, k), shape=(TM, TK)),
                         ct.load(b, index=(k, tile % tiles_n), shape=(TK, TN)), acc)
        ct.store(c, index=(tile // tiles_n, tile % tiles_n), tile=acc)


@ct.kernel
def scalar_bound_no_tiles(x, y, n: int, TILE: ct.Constant[int]):
    """A loop over a runtime scalar whose variable indexes no tile."""
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    for _ in range(n):
        t = t * 0.5
    ct.store(y, index=(ct.bid(0),), tile=t)


@ct.kernel
def matmul_cast(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int], TF32: ct.Constant[bool]):
    """A float32 matmul whose operands are cast to tfloat32 (TF32) or taken as float32."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        x = ct.load(a, index=(ct.bid(0), k), shape=(TM, TK))
        y = ct.load(b, index=(k, ct.bid(1)), shape=(TK, TN))
        if TF32:
            x, y = x.astype(ct.tfloat32), y.astype(ct.tfloat32)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(ct.bid(0), ct.bid(1)), tile=acc)


@ct.kernel
def gathered_rows_mma(a, b, idx, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    """Rows of `a` gathered by index (a mixture of experts' tokens) times tiles of `b`."""
    rows = ct.gather(idx, ct.bid(0) * TM + ct.arange(TM, dtype=ct.int32))
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(b, axis=0, shape=(TK, TN))):
        x = ct.gather(a, (rows[:, None], (k * TK + ct.arange(TK, dtype=ct.int32))[None, :]))
        acc = ct.mma(x, ct.load(b, index=(k, ct.bid(1)), shape=(TK, TN)), acc)
    ct.store(c, index=(ct.bid(0), ct.bid(1)), tile=acc)


@ct.kernel(occupancy=4)
def matmul_occupancy4(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    """A matmul whose hint asks for 4 blocks per SM."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        acc = ct.mma(ct.load(a, index=(ct.bid(0), k), shape=(TM, TK)), ct.load(b, index=(k, ct.bid(1)), shape=(TK, TN)),
                     acc)
    ct.store(c, index=(ct.bid(0), ct.bid(1)), tile=acc)


@ct.kernel
def locked_accumulate(x, acc, locks, TILE: ct.Constant[int]):
    """Each block adds its tile into one of `locks.shape[0]` partial sums under a spin lock."""
    group = ct.bid(0) % locks.shape[0]
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    while ct.atomic_cas(locks, group, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    total = t + ct.load(acc, index=(group,), shape=(TILE,))
    ct.store(acc, index=(group,), tile=total)
    ct.atomic_xchg(locks, group, 0, memory_order=ct.MemoryOrder.RELEASE)


@ct.kernel
def recurrence(x, y, T: ct.Constant[int], TM: ct.Constant[int], TN: ct.Constant[int]):
    """A state updated T times by column sums of itself: each step waits on the last."""
    s = ct.load(x, index=(0, 0), shape=(TM, TN))
    for t in range(T):
        s = s - ct.sum(s, axis=0, keepdims=True) * 0.001
    ct.store(y, index=(ct.bid(0), 0), tile=s)


@ct.kernel
def gather_by_ids(ids, table, out, ROWS: ct.Constant[int], N: ct.Constant[int]):
    """Rows of `table` picked by loaded ids (an embedding lookup), and the same rows by position."""
    picked = ct.gather(table, (ct.load(ids, index=(ct.bid(0),), shape=(ROWS,))[:, None],
                               ct.arange(N, dtype=ct.int32)[None, :]))
    ct.store(out, index=(ct.bid(0), 0), tile=picked)
    ranged = ct.gather(table, ((ct.bid(0) * ROWS + ct.arange(ROWS, dtype=ct.int32))[:, None],
                               ct.arange(N, dtype=ct.int32)[None, :]))
    ct.store(out, index=(ct.bid(0), 1), tile=ranged)


@ct.kernel
def matmul_two_weights(a, b1, b2, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # (A @ B1^T) * (A @ B2^T), the column tile fastest: a wave's blocks share A's rows, every wave reads both weights
    n_tiles = ct.cdiv(b1.shape[0], TN)
    m, n = ct.bid(0) // n_tiles, ct.bid(0) % n_tiles
    c1 = ct.zeros((TM, TN), dtype=ct.float32)
    c2 = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], TK)):
        x = ct.load(a, index=(m, k), shape=(TM, TK))
        c1 = ct.mma(x, ct.transpose(ct.load(b1, index=(n, k), shape=(TN, TK))), c1)
        c2 = ct.mma(x, ct.transpose(ct.load(b2, index=(n, k), shape=(TN, TK))), c2)
    ct.store(c, index=(m, n), tile=(c1 * c2).astype(c.dtype))


@ct.kernel
def signed_scores(q, signs, out, TQ: ct.Constant[int], TK: ct.Constant[int]):
    # each block's queries against every key tile of int8 signs, widened to float16; a float32 tile stored each step
    qt = ct.load(q, index=(ct.bid(0), 0), shape=(TQ, 128))
    for j in range(ct.num_tiles(signs, axis=0, shape=(TK, 128))):
        s = ct.astype(ct.load(signs, index=(j, 0), shape=(TK, 128)), ct.float16)
        ct.store(out, index=(ct.bid(0), j), tile=ct.mma(qt, ct.transpose(s), ct.zeros((TQ, TK), dtype=ct.float32)))


@ct.kernel
def while_stride_tiles(x, count, y, TILE: ct.Constant[int]):
    """A persistent grid-stride `while` loop over a tile count read from memory."""
    total = ct.load(count, (0,), shape=()).item()
    t = ct.bid(0)
    while t < total:
        ct.store(y, index=(t,), tile=ct.load(x, index=(t,), shape=(TILE,)) * 2.0)
        t = t + ct.num_blocks(0)


@ct.kernel
def while_halving(x, y, TILE: ct.Constant[int]):
    """A `while` loop whose stores do not follow its carried value (they write one tile per block)."""
    n = ct.load(x, (ct.bid(0),), shape=()).item()
    k = 0
    while n > 1:
        n = n // 2
        k = k + 1
    ct.store(y, index=(ct.bid(0),), tile=ct.full((1,), k, dtype=ct.int32))


@ct.kernel
def window_rows(x, y, window: int, TILE: ct.Constant[int]):
    """Block b sums the tiles of a trailing window of runtime width ending at its own tile."""
    acc = ct.zeros((TILE,), dtype=ct.float32)
    lo = max(0, (ct.bid(0) + 1) * TILE - window) // TILE
    for j in range(lo, ct.bid(0) + 1):
        acc = acc + ct.load(x, index=(j,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=acc)


@ct.kernel
def split_clamped_sum(x, y, n: int, SPLIT: ct.Constant[int], TILE: ct.Constant[int]):
    """Block b sums the tiles of its split of a runtime length `n`, the split's end clamped by a
    branch (a split-KV decode's `if end > n: end = n`)."""
    start = ct.bid(0) * SPLIT
    end = start + SPLIT
    if end > n:
        end = n
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(start, end, TILE):
        acc += ct.load(x, index=(i // TILE,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=acc)


@ct.kernel
def chunked_row_gathers(x, y, n_cols: int, BLOCK: ct.Constant[int]):
    """A row in chunks of gathered lanes, the chunk count from a runtime column count."""
    row = ct.bid(0)
    for c in range((n_cols + BLOCK - 1) // BLOCK):
        cols = ct.arange(BLOCK, dtype=ct.int32) + c * BLOCK
        t = ct.gather(x, (row, cols), check_bounds=True, padding_value=0.0)
        ct.scatter(y, (row, cols), t * 2.0, check_bounds=True)


@ct.kernel
def interleaved_pairs(x, y, HALF: ct.Constant[int]):
    """Real and imaginary parts gathered from every other element of a row."""
    row = ct.bid(0)
    re = ct.arange(HALF, dtype=ct.int32) * 2
    a = ct.gather(x, (row, re))
    b = ct.gather(x, (row, re + 1))
    ct.scatter(y, (row, re), a * b)


@ct.kernel
def weight_tile_gather(w, rows_of, y, BN: ct.Constant[int], BK: ct.Constant[int]):
    """A weight tile gathered as (rows[None, :], cols[:, None]): K along the tile's first axis."""
    rows = ct.load(rows_of, index=(ct.bid(0),), shape=(BN,))
    cols = ct.arange(BK, dtype=ct.int32)
    t = ct.gather(w, (rows[None, :], cols[:, None]))
    ct.store(y, index=(ct.bid(0), 0), tile=t)


@ct.kernel
def split_k_sums(x, y, TILES: ct.Constant[int], SPLITS: ct.Constant[int], K_TILES: ct.Constant[int],
                 T: ct.Constant[int]):
    """A persistent loop over (tile, split) pairs; each sums its split's K_TILES tiles, a loop from
    a start that varies with the pair to that start plus K_TILES."""
    for pair in range(ct.bid(0), TILES * SPLITS, ct.num_blocks(0)):
        start = (pair % SPLITS) * K_TILES
        acc = ct.zeros((T,), dtype=ct.float32)
        for k in range(start, start + K_TILES):
            acc += ct.load(x, index=(k,), shape=(T,))
        ct.store(y, index=(pair,), tile=acc)


@ct.kernel
def csr_row_sums(indptr, values, y, TILE: ct.Constant[int]):
    """A sparse row's sum: the loop bounds are read from `indptr` (a compressed-row layout)."""
    row = ct.bid(0)
    start = ct.load(indptr, index=row, shape=())
    end = ct.load(indptr, index=row + 1, shape=())
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(start, end):
        acc = acc + ct.load(values, index=(j,), shape=(TILE,))
    ct.store(y, index=(row,), tile=acc)


@ct.kernel
def view_sum(x, y, TILE: ct.Constant[int]):
    """One block sums `x` through a tiled view, its loop bounded by the view's tile count."""
    view = x.tiled_view((TILE,), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for k in range(view.num_tiles(0)):
        acc = acc + view.load((k,))
    y.tiled_view((1,)).store((ct.bid(0),), ct.reshape(ct.sum(acc), (1,)))


@ct.kernel
def group_of_tile(offsets, out, GROUPS: ct.Constant[int]):
    """Each block finds its group by binary search over the groups' first tiles."""
    t = ct.bid(0)
    lo = 0
    hi = GROUPS
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if t < ct.load(offsets, (mid,), shape=()).item():
            hi = mid
        else:
            lo = mid
    ct.store(out, (t,), ct.full((1,), lo, dtype=ct.int32))


@ct.kernel
def block_gather_copy(x, y, BM: ct.Constant[int], BN: ct.Constant[int]):
    """A BM x BN block of a matrix copied through a gather and a scatter of its row and column indices."""
    rows = (ct.bid(0) * BM + ct.arange(BM, dtype=ct.int32))[:, None]
    cols = (ct.bid(1) * BN + ct.arange(BN, dtype=ct.int32))[None, :]
    ct.scatter(y, (rows, cols), ct.gather(x, (rows, cols)))


@ct.kernel
def packed_rows_scatter(out, starts, ROWS: ct.Constant[int], COLS: ct.Constant[int]):
    """ROWS short rows of COLS bytes written back to back from a start the data gives."""
    base = ct.load(starts, (ct.bid(0),), shape=()).item()
    idx = base + ct.arange(ROWS, dtype=ct.int32)[:, None] * COLS + ct.arange(COLS, dtype=ct.int32)[None, :]
    ct.scatter(out, idx, ct.full((ROWS, COLS), 1, dtype=ct.uint8))


@ct.kernel
def cast_copy(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    """A 2-D tile loaded, converted to y's dtype and stored."""
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j), tile=ct.astype(ct.load(x, index=(i, j), shape=(TM, TN)), y.dtype))


@ct.kernel
def row_grads_into_weights(dy, dw, idx, TILE: ct.Constant[int], ALONG: ct.Constant[bool]):
    """Each block adds its row of dy into the small array dw, a tile at a time: along dw's
    elements (a norm's weight gradient) or at the addresses a loaded index names."""
    row = ct.bid(0)
    for j in range(ct.cdiv(dw.shape[0], TILE)):
        if ALONG:
            at = j * TILE + ct.arange(TILE, dtype=ct.int32)
        else:
            at = ct.load(idx, index=(j,), shape=(TILE,))
        ct.atomic_add(dw, at, ct.reshape(ct.load(dy, index=(row, j), shape=(1, TILE)), (TILE,)),
                      memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def cells_scatter_add(cells, where, vals, P: ct.Constant[int], C: ct.Constant[int]):
    """P points a block, each adding C components into the cell a loaded index names (a
    particle-to-grid transfer): rows of C elements at data-given rows."""
    at = ct.load(where, index=(ct.bid(0),), shape=(P,))[:, None]
    comp = ct.arange(C, dtype=ct.int32)[None, :]
    ct.atomic_add(cells, (at, comp), ct.load(vals, index=(ct.bid(0), 0), shape=(P, C)),
                  memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def indexed_rows_scatter_add(src, rows, out, P: ct.Constant[int], C: ct.Constant[int]):
    """P rows of src that a loaded index names (advanced indexing: a data-given axis and a dense
    one), added by relaxed atomics into P rows of out."""
    at = ct.load(rows, index=(ct.bid(0),), shape=(P,))
    t = ct.load_advanced_indexing(src, (at, ct.Slice(0, C)), padding_mode=ct.PaddingMode.ZERO)
    dst = (ct.bid(0) * P + ct.arange(P, dtype=ct.int32))[:, None]
    ct.atomic_add(out, (dst, ct.arange(C, dtype=ct.int32)[None, :]), t, memory_order=ct.MemoryOrder.RELAXED)
