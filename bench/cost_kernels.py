"""Kernels for bench/cost_validate.py: microbenchmarks that calibrate the cost model's few
measured constants (launch overhead, achievable bandwidth, load latency per loop iteration,
tensor-core and FP32/SFU rates), and a few extra kernels of the validation set.

The microbenchmarks isolate one resource each; none of them is a validation kernel.
"""
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


# ---- microbenchmarks ---------------------------------------------------------------------

@ct.kernel
def empty(y):
    """One element stored per block: launch and block-scheduling overhead."""
    ct.store(y, index=(ct.bid(0),), tile=ct.zeros((1,), dtype=ct.float32))


@ct.kernel
def copy_1d(x, y, TILE: ConstInt):
    """One tile in, the same tile out: achievable streaming bandwidth for a tile size."""
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)))


@ct.kernel
def add_1d(x, y, z, TILE: ConstInt):
    """Two tiles in, their sum out: three streams, for the DRAM rate against footprint."""
    i = ct.bid(0)
    ct.store(z, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) + ct.load(y, index=(i,), shape=(TILE,)))


@ct.kernel
def add3_1d(x, y, w, z, TILE: ConstInt):
    """Three tiles in, their sum out: four streams, loads in flight against streams."""
    i = ct.bid(0)
    ct.store(z, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) + ct.load(y, index=(i,), shape=(TILE,))
             + ct.load(w, index=(i,), shape=(TILE,)))


@ct.kernel
def gather_copy_1d(x, y, TILE: ConstInt):
    """A contiguous gather in, a scatter out: the instructions per element of predicated
    element accesses (version 5 of the model), and their streaming rate."""
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(y, offs, ct.gather(x, offs))


@ct.kernel
def gather_copy_1d_unchecked(x, y, TILE: ConstInt):
    """gather_copy_1d without bounds checks (the caller's grid covers the arrays exactly)."""
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(y, offs, ct.gather(x, offs, check_bounds=False), check_bounds=False)


@ct.kernel
def load_chain(x, out, N: ConstInt, TILE: ConstInt):
    """N tile loads in a loop, each added to an accumulator: time per iteration of a loop
    whose body waits for a load (latency with one block per SM)."""
    b = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(N):
        acc += ct.load(x, index=(b * N + j,), shape=(TILE,))
    ct.store(out, index=(b,), tile=acc)


@ct.kernel
def column_sum_tile(x, out, TM: ConstInt, TN: ConstInt):
    """One (TM, TN) tile a block, summed down its columns: straight code with one large load, as a
    one-block finalisation reads its partials (history 142)."""
    b = ct.bid(0)
    ct.store(out, index=(b,), tile=ct.sum(ct.load(x, index=(b, 0), shape=(TM, TN)), axis=0))


@ct.kernel
def copy_loop(x, y, N: ConstInt, TILE: ConstInt):
    """N tiles copied one after another by each block: streaming rate per SM as a function of
    the blocks (warps) resident on it, set by the grid (model version 6's occupancy law)."""
    b = ct.bid(0)
    for j in range(N):
        ct.store(y, index=(b * N + j,), tile=ct.load(x, index=(b * N + j,), shape=(TILE,)))


@ct.kernel
def gather_copy_loop(x, y, N: ConstInt, TILE: ConstInt):
    """copy_loop through contiguous gathers and scatters (bounds-checked: predicated accesses)."""
    b = ct.bid(0)
    for j in range(N):
        offs = (b * N + j) * TILE + ct.arange(TILE, dtype=ct.int32)
        ct.scatter(y, offs, ct.gather(x, offs))


@ct.kernel
def gather_copy_loop_unchecked(x, y, N: ConstInt, TILE: ConstInt):
    """gather_copy_loop without bounds checks (straight-line accesses)."""
    b = ct.bid(0)
    for j in range(N):
        offs = (b * N + j) * TILE + ct.arange(TILE, dtype=ct.int32)
        ct.scatter(y, offs, ct.gather(x, offs, check_bounds=False), check_bounds=False)


@ct.kernel
def mma_loop(a, b, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """N dependent mma of tiles loaded once: tensor-core time per mma for a tile shape."""
    ta = ct.load(a, index=(0, 0), shape=(TM, TK))
    tb = ct.load(b, index=(0, 0), shape=(TK, TN))
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def mma_stream(a, b, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """N iterations of: load a tile of the block's own rows of `a` and a tile of `b` (shared by
    every block), then mma: the cost of one iteration of the load → mma path for a tile shape."""
    pm = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(pm, j), shape=(TM, TK))
        tb = ct.load(b, index=(j, 0), shape=(TK, TN))
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(pm, 0), tile=acc)


@ct.kernel
def mma_stream_b_kmajor(a, bt, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """mma_stream with `b` stored transposed (TN × K, contiguous along K) and read through
    `order=`: the B operand arrives contiguous along the contraction axis."""
    pm = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(pm, j), shape=(TM, TK))
        tb = ct.load(bt, index=(j, 0), shape=(TK, TN), order=(1, 0))
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(pm, 0), tile=acc)


@ct.kernel
def mma_stream_b_permuted(a, bt, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """As mma_stream_b_kmajor, the B tile read as stored (TN × TK) and transposed in registers."""
    pm = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(pm, j), shape=(TM, TK))
        tb = ct.load(bt, index=(0, j), shape=(TN, TK))
        acc = ct.mma(ta, ct.transpose(tb), acc)
    ct.store(c, index=(pm, 0), tile=acc)


@ct.kernel
def mma_stream_b_only(a, b, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """Only the B operand streams (as stored, TK × TN rows); A is loaded once."""
    pm = ct.bid(0)
    ta = ct.load(a, index=(pm, 0), shape=(TM, TK))
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        tb = ct.load(b, index=(j, 0), shape=(TK, TN))
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(pm, 0), tile=acc)


@ct.kernel
def mma_stream_b_only_kmajor(a, bt, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """Only the B operand streams, read contiguous along the contraction axis (`order=`)."""
    pm = ct.bid(0)
    ta = ct.load(a, index=(pm, 0), shape=(TM, TK))
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        tb = ct.load(bt, index=(j, 0), shape=(TK, TN), order=(1, 0))
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(pm, 0), tile=acc)


@ct.kernel
def exp2_loop(x, y, N: ConstInt, TM: ConstInt, TN: ConstInt):
    """As exp_loop with base-2 exponentials (one SFU instruction each)."""
    t = ct.load(x, index=(0, 0), shape=(TM, TN))
    for j in range(N):
        t = ct.exp2(t) * 0.25
    ct.store(y, index=(ct.bid(0), 0), tile=t)


@ct.kernel
def copy_2d(x, y, TM: ConstInt, TN: ConstInt):
    """A 2-D tile in, the same tile out."""
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j), tile=ct.load(x, index=(i, j), shape=(TM, TN)))


@ct.kernel
def copy_halves(x, y, TM: ConstInt, TN: ConstInt):
    """Each row block's two halves loaded as two tiles, then stored as two (a rotary embedding's
    access pattern: rows read and written in runs of half the row pitch; after set T)."""
    i = ct.bid(0)
    lo = ct.load(x, index=(i, 0), shape=(TM, TN))
    hi = ct.load(x, index=(i, 1), shape=(TM, TN))
    ct.store(y, index=(i, 0), tile=lo)
    ct.store(y, index=(i, 1), tile=hi)


@ct.kernel
def copy_quarters(x, y, TM: ConstInt, TN: ConstInt):
    """copy_halves with four runs a row."""
    i = ct.bid(0)
    a = ct.load(x, index=(i, 0), shape=(TM, TN))
    b = ct.load(x, index=(i, 1), shape=(TM, TN))
    c = ct.load(x, index=(i, 2), shape=(TM, TN))
    d = ct.load(x, index=(i, 3), shape=(TM, TN))
    ct.store(y, index=(i, 0), tile=a)
    ct.store(y, index=(i, 1), tile=b)
    ct.store(y, index=(i, 2), tile=c)
    ct.store(y, index=(i, 3), tile=d)


@ct.kernel
def copy_first_half(x, y, TM: ConstInt, TN: ConstInt):
    """Only the first run of each row read (every other run of the array), stored contiguously."""
    i = ct.bid(0)
    ct.store(y, index=(i, 0), tile=ct.load(x, index=(i, 0), shape=(TM, TN)))


@ct.kernel
def copy_row_chunks(x, y, N: ConstInt, TM: ConstInt, TN: ConstInt):
    """A block's TM rows copied a TN-column chunk at a time, N chunks in a loop (a row kernel that
    walks the columns of its rows)."""
    i = ct.bid(0)
    for j in range(N):
        ct.store(y, index=(i, j), tile=ct.load(x, index=(i, j), shape=(TM, TN)))


@ct.kernel
def swap_axes_1_2(x, y, TS: ConstInt, D: ConstInt):
    """(B, S, H, D) -> (B, H, S, D): a (1, TS, 1, D) tile in, stored as (1, 1, TS, D) (an attention
    head layout's permute; the tile's first axis of more than one element is not the array's last)."""
    b, h, s = ct.bid(0), ct.bid(1), ct.bid(2)
    t = ct.load(x, index=(b, s, h, 0), shape=(1, TS, 1, D))
    ct.store(y, index=(b, h, s, 0), tile=ct.reshape(t, (1, 1, TS, D)))


@ct.kernel
def swap_axes_1_2_rows_first(x, y, TS: ConstInt, D: ConstInt):
    """swap_axes_1_2 with the grid's first axis along S: consecutive blocks read neighbouring rows."""
    s, h, b = ct.bid(0), ct.bid(1), ct.bid(2)
    t = ct.load(x, index=(b, s, h, 0), shape=(1, TS, 1, D))
    ct.store(y, index=(b, h, s, 0), tile=ct.reshape(t, (1, 1, TS, D)))


@ct.kernel
def copy_rows_spread(x, y, TM: ConstInt, TN: ConstInt, SPREAD: ConstInt):
    """copy_2d of one column of row tiles in an order that puts consecutive blocks SPREAD-th of
    the array apart (the block order of a head permute whose grid's first axis is the batch)."""
    b, n = ct.bid(0), ct.num_blocks(0)
    i = (b % SPREAD) * (n // SPREAD) + b // SPREAD
    ct.store(y, index=(i, 0), tile=ct.load(x, index=(i, 0), shape=(TM, TN)))


@ct.kernel
def transpose_2d(x, y, TM: ConstInt, TN: ConstInt):
    """A 2-D tile in, stored transposed (model version 17: how the lanes of a warp lie over the
    rows of what a dynamically shaped build loads and stores)."""
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(j, i), tile=ct.transpose(ct.load(x, index=(i, j), shape=(TM, TN))))


@ct.kernel
def atomic_ones(hist, TILE: ConstInt, SPREAD: ConstInt):
    """Each block adds one to SPREAD elements of `hist`, TILE // SPREAD lanes per element:
    the rate of atomics that share an address (SPREAD=1) or not (SPREAD=TILE)."""
    lanes = ct.arange(TILE, dtype=ct.int32) % SPREAD
    ct.atomic_add(hist, lanes, ct.ones((TILE,), dtype=ct.int32), memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def atomic_random(data, hist, TILE: ConstInt, BINS: ConstInt):
    """One atomic add per element of `data` (random 16-bit values) into BINS bins: the rate of
    atomics at data-dependent addresses."""
    vals = ct.load(data, index=(ct.bid(0),), shape=(TILE,))
    bins = vals.astype(ct.int32) % BINS
    ct.atomic_add(hist, bins, ct.ones((TILE,), dtype=ct.int32), memory_order=ct.MemoryOrder.RELAXED)


def _atomic_index(idx, hist, TILE, order):
    bins = ct.load(idx, index=(ct.bid(0),), shape=(TILE,))
    ct.atomic_add(hist, bins, ct.ones((TILE,), dtype=ct.float32), memory_order=order)


@ct.kernel
def atomic_index(idx, hist, TILE: ConstInt):
    """One relaxed atomic add per index (random over the whole of `hist`): the rate of atomics
    whose addresses spread over arrays from L2-sized to several times L2."""
    _atomic_index(idx, hist, TILE, ct.MemoryOrder.RELAXED)


@ct.kernel
def atomic_index_fenced(idx, hist, TILE: ConstInt):
    """atomic_index in the default acquire-release order (a fence, each lane's old value awaited)."""
    _atomic_index(idx, hist, TILE, ct.MemoryOrder.ACQ_REL)


def _index_rows(idx, R, W):
    """A block's R rows (read from `idx`) by W columns, as index tiles that broadcast together."""
    rows = ct.reshape(ct.load(idx, index=(ct.bid(0),), shape=(R,)), (R, 1))
    return rows, ct.reshape(ct.arange(W, dtype=ct.int32), (1, W))


@ct.kernel
def scatter_add_rows(grad, idx, table, R: ConstInt, W: ConstInt):
    """R rows of W gradients a block added by relaxed atomics into the rows of `table` that `idx`
    names (random): tile atomics whose lanes run along rows."""
    at = _index_rows(idx, R, W)
    ct.atomic_add(table, at, ct.load(grad, index=(ct.bid(0), 0), shape=(R, W)), memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def scatter_add_rows_fenced(grad, idx, table, R: ConstInt, W: ConstInt):
    """scatter_add_rows in the default acquire-release order."""
    ct.atomic_add(table, _index_rows(idx, R, W), ct.load(grad, index=(ct.bid(0), 0), shape=(R, W)))


@ct.kernel
def sum_atomic(x, out, TILE: ConstInt):
    """Each block's sum of TILE elements added into one element by a fenced atomic (a dot
    product's or a norm's last step): the per-block path of the reduction and the atomic."""
    ct.atomic_add(out, (0,), ct.sum(ct.load(x, index=(ct.bid(0),), shape=(TILE,))))


@ct.kernel
def segment_sum(x, out, TILE: ConstInt):
    """Each block sums its own row of `x`, TILE elements a step, over the row's tile count (a
    runtime trip count). As launched, tileiras copies the tiles with the accelerator and a
    producer warp runs ahead of the adding warps: the step of such a loop against the blocks
    running and the bytes a step (docs history 67)."""
    b = ct.bid(0)
    view = x.tiled_view((1, TILE), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.full((1, TILE), 0.0, ct.float32)
    for k in range(view.num_tiles(1)):
        acc = acc + view.load((b, k))
    ct.store(out, index=(b, 0), tile=ct.sum(acc, axis=1, keepdims=True))


@ct.kernel
def gather_rows(table, idx, out, R: ConstInt, W: ConstInt):
    """R rows of W elements a block gathered from the rows of `table` that `idx` names: the DRAM
    rate of row gathers against the row's length and the table's size."""
    ct.store(out, index=(ct.bid(0), 0), tile=ct.gather(table, _index_rows(idx, R, W)))


@ct.kernel
def reduce_loop(x, y, N: ConstInt, TN: ConstInt):
    """N dependent row reductions of a (1, TN) tile: the latency of one reduction across a block."""
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, TN))
    for j in range(N):
        t = t - ct.sum(t, axis=1, keepdims=True) * 0.001
    ct.store(y, index=(ct.bid(0), 0), tile=t)


@ct.kernel
def fma_loop(x, y, N: ConstInt, TM: ConstInt, TN: ConstInt):
    """N fused multiply-adds per element of a register tile: FP32 throughput."""
    t = ct.load(x, index=(0, 0), shape=(TM, TN))
    for j in range(N):
        t = t * 0.999 + 0.001
    ct.store(y, index=(ct.bid(0), 0), tile=t)


@ct.kernel
def exp_loop(x, y, N: ConstInt, TM: ConstInt, TN: ConstInt):
    """N exponentials per element of a register tile: transcendental (SFU) throughput."""
    t = ct.load(x, index=(0, 0), shape=(TM, TN))
    for j in range(N):
        t = ct.exp(t) * 0.25
    ct.store(y, index=(ct.bid(0), 0), tile=t)


@ct.kernel
def row_scale_by_sum(x, y, TN: ConstInt):
    """One row per block, divided by its sum and stored (model version 13): the time a block of a
    one-row kernel takes from its loads through a reduction to its stores, which a launch build
    writes back through the tensor memory accelerator (bulk stores the block waits for)."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN))
    ct.store(y, index=(row, 0), tile=t / ct.sum(t, axis=1, keepdims=True))


@ct.kernel
def chunk_sum_loop(x, out, N: ConstInt, TN: ConstInt):
    """N tiles of a row, each reduced to its sum and added up (model version 13): the time of a
    loop iteration whose load is issued ahead (a constant trip count lets tileiras write the
    iterations out) and whose reduction is not."""
    row = ct.bid(0)
    acc = ct.zeros((1, 1), dtype=ct.float32)
    for j in range(N):
        acc += ct.sum(ct.load(x, index=(row, j), shape=(1, TN)), axis=1, keepdims=True)
    ct.store(out, index=(row, 0), tile=acc)


@ct.kernel
def chase_loop(nxt, out, N: ConstInt, LANES: ConstInt):
    """N dependent gathers (model version 16): each lane's next index is the element it just read,
    a pointer chase through `nxt` (lanes of a warp on one line), so an iteration is one load's
    round trip from where the array lives — L1, L2 or DRAM, by its size."""
    b = ct.bid(0)
    idx = (b * LANES * 129 + ct.arange(LANES, dtype=ct.int32)) % nxt.shape[0]
    for j in range(N):
        idx = ct.gather(nxt, idx, check_bounds=False)
    ct.store(out, index=(b,), tile=idx)


@ct.kernel
def long_body_loop(x, out, N: ConstInt, U: ConstInt, TILE: ConstInt):
    """A loop whose body is U multiply-adds of a tile written out (`static_iter`; model version 16):
    the schedulers' issue rate as the body outgrows the instruction cache."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    for j in range(N):
        for u in ct.static_iter(range(U // 8)):
            for v in ct.static_iter(range(8)):      # (a static_iter unpacks at most 1,000 items)
                t = t * (1.0 + (u * 8 + v) * 1e-7) + 1e-3
    ct.store(out, index=(b,), tile=t)


@ct.kernel(occupancy=2)
def shared_tile_loop(x, q, out, N: ConstInt, STAGGER: ConstInt):
    """N `mma` steps over 64x128 float16 tiles of `x`, block b reading tile (j + b * STAGGER) mod
    the tiles (model version 17): with STAGGER 0 every block reads the same tile at the same step, as
    an attention's query blocks walk the same keys; an array that stays in L2, so the loop is
    what L2 delivers to the SMs."""
    b = ct.bid(0)
    qt = ct.load(q, index=(0, 0), shape=(16, 128))
    acc = ct.zeros((16, 64), dtype=ct.float32)
    tiles = x.shape[0] // 64
    for j in range(N):
        k = ct.load(x, index=((j + b * STAGGER) % tiles, 0), shape=(64, 128))
        acc = ct.mma(qt, ct.transpose(k), acc)
    ct.store(out, index=(b, 0), tile=acc)


@ct.kernel(occupancy=2)
def shared_tile_store_loop(x, q, out, N: ConstInt):
    """shared_tile_loop (STAGGER 0) storing its 16x64 float32 product every step (version 17): what
    a bulk store each iteration adds to a loop the accelerator feeds."""
    b = ct.bid(0)
    qt = ct.load(q, index=(0, 0), shape=(16, 128))
    tiles = x.shape[0] // 64
    for j in range(N):
        k = ct.load(x, index=(j % tiles, 0), shape=(64, 128))
        ct.store(out, index=(b, j), tile=ct.mma(qt, ct.transpose(k), ct.zeros((16, 64), dtype=ct.float32)))


@ct.kernel(occupancy=2)
def shared_tile_convert_loop(x, q, out, N: ConstInt):
    """shared_tile_loop (STAGGER 0) over int8 tiles widened to float16 before the `mma` (version 17):
    what converting an operand element by element adds to a loop the accelerator feeds."""
    b = ct.bid(0)
    qt = ct.load(q, index=(0, 0), shape=(16, 128))
    acc = ct.zeros((16, 64), dtype=ct.float32)
    tiles = x.shape[0] // 64
    for j in range(N):
        k = ct.astype(ct.load(x, index=(j % tiles, 0), shape=(64, 128)), ct.float16)
        acc = ct.mma(qt, ct.transpose(k), acc)
    ct.store(out, index=(b, 0), tile=acc)


@ct.kernel
def atomic_scalar_loop(out, N: ConstInt, SPREAD: ConstInt):
    """N float atomic adds of one value each, in the default (acquire-release) order (model
    version 17): every block on element 0 (SPREAD=1: one address all blocks share) or on its own
    (SPREAD = the grid: a chain of one block's fenced atomics, nothing shared)."""
    i = ct.bid(0) % SPREAD
    for j in range(N):
        ct.atomic_add(out, (i,), 1.0)


@ct.kernel
def atomic_scalar_loop_relaxed(out, N: ConstInt, SPREAD: ConstInt):
    """atomic_scalar_loop in relaxed order (no fence; the cubin still returns the old value)."""
    i = ct.bid(0) % SPREAD
    for j in range(N):
        ct.atomic_add(out, (i,), 1.0, memory_order=ct.MemoryOrder.RELAXED)


# ---- extra validation kernels --------------------------------------------------------------

@ct.kernel
def scale(x, y, alpha, TILE: ConstInt):
    """y = alpha * x by tiles (memory-bound, one read and one write per element)."""
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    ct.store(y, index=(i,), tile=(t * alpha).astype(y.dtype))


@ct.kernel
def row_sum(x, out, TN: ConstInt):
    """Row sums of a matrix, each row walked in tiles of TN columns."""
    row = ct.bid(0)
    acc = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ct.num_tiles(x, axis=1, shape=(1, TN))):
        acc += ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(row,), tile=ct.sum(acc, axis=1))


# ---- mma loops that wait for all their tensor-core work each iteration (mw_* cases) ------
# Each pair computes the same product two ways: `acc = ct.mma(a, b, acc)` chains the tensor-core
# accumulator from one mma to the next (tileiras keeps a group of mma in flight), while
# `acc = acc + ct.mma(a, b, zeros)` needs each product in registers before the CUDA cores add it
# (the loop waits for all its mma every iteration). The operands cycle through R tiles of `a`
# and `b` shared by every block, so they stay in L2 whatever the trip count.

def _mw_chained(a, b, c, N, R, TM, TN, TK):
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(0, j % R), shape=(TM, TK))
        tb = ct.load(b, index=(j % R, 0), shape=(TK, TN))
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(ct.bid(0), 0), tile=acc)


def _mw_summed(a, b, c, N, R, TM, TN, TK):
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(0, j % R), shape=(TM, TK))
        tb = ct.load(b, index=(j % R, 0), shape=(TK, TN))
        acc = acc + ct.mma(ta, tb, ct.zeros((TM, TN), dtype=ct.float32))
    ct.store(c, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def mw_chained(a, b, c, N: ConstInt, R: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """N mma of streamed (L2-resident) tiles into one chained accumulator: the pipelined twin."""
    _mw_chained(a, b, c, N, R, TM, TN, TK)


@ct.kernel
def mw_summed(a, b, c, N: ConstInt, R: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """mw_chained with each mma started from zeros and added into the accumulator."""
    _mw_summed(a, b, c, N, R, TM, TN, TK)


@ct.kernel(occupancy=2)
def mw_chained_occ2(a, b, c, N: ConstInt, R: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """mw_chained with two blocks asked per SM: the register cap spills the accumulator."""
    _mw_chained(a, b, c, N, R, TM, TN, TK)


@ct.kernel(occupancy=2)
def mw_summed_occ2(a, b, c, N: ConstInt, R: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """mw_summed with two blocks asked per SM (register cap, spills)."""
    _mw_summed(a, b, c, N, R, TM, TN, TK)



@ct.kernel
def gather_copy_2d(x, y, TM: ConstInt, TN: ConstInt, TAPS: ConstInt, CHECK: ConstBool):
    """A TM x TN block copied through gathers and a scatter of its row and column indices, the
    gathered block summed over TAPS column shifts of one element (later taps mostly hit L1; a
    pooling window's access; version 46)."""
    rows = (ct.bid(0) * TM + ct.arange(TM, dtype=ct.int32))[:, None]
    cols = (ct.bid(1) * TN + ct.arange(TN, dtype=ct.int32))[None, :]
    acc = ct.gather(x, (rows, cols), check_bounds=CHECK)
    for t in range(1, TAPS):
        acc = acc + ct.gather(x, (rows, cols + t), check_bounds=CHECK, padding_value=0)
    ct.scatter(y, (rows, cols), acc, check_bounds=CHECK)


@ct.kernel
def gather_sum_2d(x, y, TM: ConstInt, TN: ConstInt, TAPS: ConstInt, DOWN: ConstBool):
    """Gathers of a TM x TN block and TAPS - 1 shifted by one element (a row down where DOWN,
    else a column right), summed to one value a block: the gathers' share of gather_copy_2d."""
    rows = (ct.bid(0) * TM + ct.arange(TM, dtype=ct.int32))[:, None]
    cols = (ct.bid(1) * TN + ct.arange(TN, dtype=ct.int32))[None, :]
    acc = ct.astype(ct.gather(x, (rows, cols)), ct.float32)
    for t in range(1, TAPS):
        if DOWN:
            acc = acc + ct.astype(ct.gather(x, (rows + t, cols), padding_value=0), ct.float32)
        else:
            acc = acc + ct.astype(ct.gather(x, (rows, cols + t), padding_value=0), ct.float32)
    ct.store(y, index=(ct.bid(0), ct.bid(1)), tile=ct.reshape(ct.sum(acc), (1, 1)))


@ct.kernel
def scatter_fill_2d(y, TM: ConstInt, TN: ConstInt):
    """A TM x TN block of y written through a scatter of values computed in the block: the
    scatter's share of gather_copy_2d."""
    rows = (ct.bid(0) * TM + ct.arange(TM, dtype=ct.int32))[:, None]
    cols = (ct.bid(1) * TN + ct.arange(TN, dtype=ct.int32))[None, :]
    ct.scatter(y, (rows, cols), ct.astype(rows * TN + cols, y.dtype))


@ct.kernel
def copy_cast_2d(x, y, TM: ConstInt, TN: ConstInt):
    """A 2-D tile in, converted to y's dtype, out: whether a conversion changes how element-by-
    element code lays its lanes over the tile (8-bit floats are converted in pairs)."""
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j), tile=ct.astype(ct.load(x, index=(i, j), shape=(TM, TN)), y.dtype))


@ct.kernel
def matmul_f32_layouts(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt, A_T: ConstBool, B_T: ConstBool):
    """A float32 matmul (its products on the CUDA cores) whose left operand is stored (K, M) and
    transposed in registers (A_T), and whose right one is stored (N, K) (B_T): how the operands'
    layouts change what a step of the float32 operand path costs."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    steps = (a.shape[0] if A_T else a.shape[1]) // TK
    for k in range(steps):
        x = ct.transpose(ct.load(a, index=(k, ct.bid(0)), shape=(TK, TM))) if A_T else \
            ct.load(a, index=(ct.bid(0), k), shape=(TM, TK))
        y = ct.transpose(ct.load(b, index=(ct.bid(1), k), shape=(TN, TK))) if B_T else \
            ct.load(b, index=(k, ct.bid(1)), shape=(TK, TN))
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(ct.bid(0), ct.bid(1)), tile=acc)


@ct.kernel
def split_k_rows(x, w, out, TN: ConstInt, TK: ConstInt, SPLIT: ConstInt, RELAXED: ConstBool):
    """A split-K GEMV: 16 token rows (one real) against TN weight rows, a SPLIT-th of K a block,
    its row of sums added into `out` by a tile atomic. Built as launched, tileiras copies the
    weight tiles with the accelerator; in acquire-release order (not RELAXED) its producer waits
    for each copy before the next (version 58, history 90)."""
    n, z = ct.bid(0), ct.bid(1)
    acc = ct.zeros((16, TN), dtype=ct.float32)
    steps = ct.num_tiles(w, axis=1, shape=(TN, TK)) // SPLIT
    for k in range(z * steps, z * steps + steps):
        a = ct.load(x, index=(0, k), shape=(16, TK))
        b = ct.load(w, index=(n, k), shape=(TN, TK))
        acc = ct.mma(a, ct.transpose(b), acc)
    row = ct.reshape(ct.extract(acc, index=(0, 0), shape=(1, TN)), (TN,))
    lanes = ct.arange(TN, dtype=ct.int32) + n * TN
    if RELAXED:
        ct.atomic_add(out, (lanes,), row, memory_order=ct.MemoryOrder.RELAXED)
    else:
        ct.atomic_add(out, (lanes,), row)


@ct.kernel
def attention_variant(q, k, v, o, TQ: ConstInt, TKV: ConstInt, D: ConstInt, K_ORDER: ConstBool,
                      V_LATE: ConstBool, EXP2: ConstBool):
    """examples/attention.py's loop with one change at a time, to find which makes the dynamic
    builds of two such kernels 1.7x apart (history 90): the key tile read through `order=` rather
    than transposed after the load (K_ORDER), the value tile loaded after the softmax (V_LATE),
    exp2 of pre-scaled scores (EXP2)."""
    qi, bh = ct.bid(0), ct.bid(1)
    tq = ct.load(q, index=(bh, qi, 0), shape=(1, TQ, D)).reshape((TQ, D))
    m_i = ct.full((TQ, 1), -3.0e38, dtype=ct.float32)
    l_i = ct.zeros((TQ, 1), dtype=ct.float32)
    acc = ct.zeros((TQ, D), dtype=ct.float32)
    scale = 0.125 * 1.4426950408889634 if EXP2 else 0.125
    for j in range(ct.num_tiles(k, axis=1, shape=(1, TKV, D))):
        if K_ORDER:
            kt = ct.load(k, index=(bh, 0, j), shape=(1, D, TKV), order=(0, 2, 1)).reshape((D, TKV))
        else:
            kt = ct.transpose(ct.load(k, index=(bh, j, 0), shape=(1, TKV, D)).reshape((TKV, D)))
        if not V_LATE:
            tv = ct.load(v, index=(bh, j, 0), shape=(1, TKV, D)).reshape((TKV, D))
        s = ct.mma(tq, kt, ct.zeros((TQ, TKV), dtype=ct.float32)) * scale
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new) if EXP2 else ct.exp(s - m_new)
        alpha = ct.exp2(m_i - m_new) if EXP2 else ct.exp(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        if V_LATE:
            tv = ct.load(v, index=(bh, j, 0), shape=(1, TKV, D)).reshape((TKV, D))
        acc = ct.mma(p.astype(ct.float16), tv, acc * alpha)
        m_i = m_new
    ct.store(o, index=(bh, qi, 0), tile=(acc / l_i).astype(o.dtype).reshape((1, TQ, D)))


@ct.kernel
def attention_rows(q, k, v, o, S: ConstInt, TQ: ConstInt, TKV: ConstInt, D: ConstInt, K_ORDER: ConstBool):
    """attention_variant's loop over 2-D arrays (heads' rows one after another, S a head): the
    key tile loaded and transposed, or read through `order=` (K_ORDER)."""
    qi, bh = ct.bid(0), ct.bid(1)
    tq = ct.load(q, index=(bh * (S // TQ) + qi, 0), shape=(TQ, D))
    m_i = ct.full((TQ, 1), -3.0e38, dtype=ct.float32)
    l_i = ct.zeros((TQ, 1), dtype=ct.float32)
    acc = ct.zeros((TQ, D), dtype=ct.float32)
    for j in range(S // TKV):
        row = bh * (S // TKV) + j
        if K_ORDER:
            kt = ct.load(k, index=(0, row), shape=(D, TKV), order=(1, 0))
        else:
            kt = ct.transpose(ct.load(k, index=(row, 0), shape=(TKV, D)))
        tv = ct.load(v, index=(row, 0), shape=(TKV, D))
        s = ct.mma(tq, kt, ct.zeros((TQ, TKV), dtype=ct.float32)) * 0.125
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(ct.float16), tv, acc * alpha)
        m_i = m_new
    ct.store(o, index=(bh * (S // TQ) + qi, 0), tile=(acc / l_i).astype(o.dtype))


@ct.kernel
def permute_rows(src, dst, R: ConstInt, D: ConstInt, MODE: ConstInt):
    """A (1, R, 1, D) tile of src (B, S, H, D) stored as rows of dst (B, H, S, D), a head-layout
    permute as set W's (MODE 0); stored where it came from in a dst shaped as src (1); or dst's
    rows filled with ones, src not read (2). Built dynamically, a thread walks a row element by
    element, so a block keeps R lines of src in L1 and R partly written lines of dst in L2 at once:
    which of the two slows the strided walk as R grows (history 91)."""
    b, h, s = ct.bid(0), ct.bid(1), ct.bid(2)
    if MODE == 2:
        ct.store(dst, index=(b, h, s, 0), tile=ct.full((1, 1, R, D), 1, dtype=dst.dtype))
    else:
        tile = ct.load(src, index=(b, s, h, 0), shape=(1, R, 1, D))
        if MODE == 1:
            ct.store(dst, index=(b, s, h, 0), tile=tile)
        else:
            ct.store(dst, index=(b, h, s, 0), tile=ct.reshape(tile, (1, 1, R, D)))

